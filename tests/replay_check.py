"""Whether a game played action by action is the game its log replays to: the bot rebuilds a
game from its stored log after a restart or an undo (`bot.sessions.build_game`, `load_game` with
the stored options: stored runs keep their revenue), so anything the position holds that the log
does not give back is lost then (for the random-play benches)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from game_pictures import canonical

from engine.log import Game, load_game

# What copies of a game share or keep aside of the position: the title's data, the log itself,
# and answers kept for speed.
NOT_POSITION = ("data", "raw_actions")


def picture(game_state: Any, left_out: Mapping[str, Collection[str]]) -> dict[str, Any]:
    parts = {key: value for key, value in vars(game_state).items() if key not in NOT_POSITION}
    for key, inner in left_out.items():
        parts[key] = {name: value for name, value in vars(parts[key]).items() if name not in inner}
    return {key: canonical(value, by_value=True) for key, value in parts.items()}


def replay_difference(game: Game, left_out: Mapping[str, Collection[str]] | None = None) -> str | None:
    """The first part of the position that replaying `game`'s log from its setup does not give
    back (the state's attribute), a refusal on replay, or None when the replay agrees.
    `left_out`: an attribute's own attributes that are not position (18USA's map keeps caches
    its copies share, `usa_map._SHARED_BY_COPIES`)."""
    left_out = left_out or {}
    document = {"title": game.title, "players": game.players, "settings": {"seed": game.seed},
                "actions": list(game.raw_actions)}
    try:
        fresh = load_game(document, options=list(game.options)).state
    except Exception as error:  # noqa: BLE001 - any refusal on replay is the finding
        return f"the log does not replay: {error!r}"
    played, replayed = picture(game.state, left_out), picture(fresh, left_out)
    for key in played:
        if played[key] != replayed.get(key):
            return f"after {len(game.raw_actions)} actions the replay differs in {key!r}"
    return None

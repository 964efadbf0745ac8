"""Random legal play where every move is also typed as the command a player would give: the
bot's `build_action` must make, from the legal moves, an action that leads to the same position
as the random move itself (for the test of that name and `bench/typed_random_play.py`).

Moves are those of the titles' random players (18Texas: `test_18texas_properties`, 18USA:
`usa_random_play`), typed by the log-to-command scripts (`fixture_script`, `usa_script`). Runs
and train purchases are left out of the comparison: a run is the optimizer's in both, and a
typed train purchase may fairly pick another copy of the same train or P25's discount.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from game_pictures import canonical

from bot.commands import build_action
from bot.console_parse import parse_line
from bot.errors import CommandError
from engine import GameError
from engine.core.game import BaseGame
from engine.legal import legal_moves, move_decider
from engine.log import Game

TITLES = Path(__file__).resolve().parents[1] / "engine" / "titles"
for folder in ("g18texas", "g18usa"):
    if str(TITLES / folder) not in sys.path:
        sys.path.append(str(TITLES / folder))

NOT_COMPARED = ("run_routes", "buy_train")


def same_position(a: BaseGame, b: BaseGame) -> bool:
    return all(canonical(value, by_value=True) == canonical(b.__dict__.get(key), by_value=True)
               for key, value in a.__dict__.items() if key not in ("data", "raw_actions"))


def typed_disagreement(state: BaseGame, moves: list[dict[str, Any]], action: dict[str, Any],
                       typed: str | None) -> str | None:
    """What went wrong when the move, typed as `typed`, is built by the bot; None if it agrees."""
    if typed is None or action["type"] in NOT_COMPARED:
        return None
    parsed = parse_line("@x " + typed)
    assert parsed is not None
    player = move_decider(state, action)
    if player is None:
        return f"nobody decides {action}"
    try:
        built = build_action(state, moves, player.id, parsed[1])
    except CommandError as error:
        return f"{typed!r} for {action} refused: {error}"
    if built == action:
        # The very action, in the same position: it makes the same position (comparing the two
        # positions took four fifths of these tests' time).
        return None
    made, typed_made = state.snapshot(), state.snapshot()
    made.process(dict(action))
    try:
        typed_made.process(built)
    except GameError as error:
        return f"{typed!r} built {built}, refused: {error}"
    return None if same_position(made, typed_made) else f"{typed!r} built {built}, not {action}"


def play_typed(title: str, count: int, seed: int, options: Sequence[str], actions: int,
               policy: str = "sensible", slow: list[str] | None = None) -> tuple[int, list[str]]:
    """Play `actions` random moves (fewer if the game ends); (moves made, disagreements).
    `slow` collects the legal-moves queries and actions over `SLOW` seconds of wall time."""
    game, step = _players(title, count, seed, options, policy)
    problems: list[str] = []
    made = 0
    while made < actions and not game.finished:
        began = time.perf_counter()
        moves = legal_moves(game.state)
        _note_slow(slow, began, f"action {made}: legal moves")
        action, typed, process = step(game, moves)
        problem = typed_disagreement(game.state, moves, action, typed)
        if problem:
            problems.append(f"action {made}: {problem}")
        began = time.perf_counter()
        process(action)
        _note_slow(slow, began, f"action {made}: {action['type']} by {action.get('entity')}")
        made += 1
    return made, problems


SLOW = 3.0  # seconds: Discord's deadline for the bot's answer


def _note_slow(slow: list[str] | None, began: float, what: str) -> None:
    seconds = time.perf_counter() - began
    if slow is not None and seconds > SLOW:
        slow.append(f"{what} took {seconds:.1f} s")


Step = Callable[[Game, list[dict[str, Any]]], tuple[dict[str, Any], str | None, Callable[[dict[str, Any]], None]]]


def _players(title: str, count: int, seed: int, options: Sequence[str], policy: str) -> tuple[Game, Step]:
    rng = random.Random(seed)
    if title == "18Texas":
        from engine_helpers import players, process_random
        from fixture_script import typed_command
        from test_18texas_properties import choose, concrete

        from engine import new_game

        game = new_game("18Texas", players(count), seed, list(options))

        def texas(game: Game, moves: list[dict[str, Any]]) -> tuple[dict[str, Any], str | None, Callable[..., None]]:
            action = concrete(game, choose(game, moves, rng, policy), rng, policy)
            return action, typed_command(game.state, action), lambda made: process_random(game, made)

        return game, texas
    import usa_random_play
    from usa_script import typed_command as usa_typed

    game = usa_random_play.new_random_game(count, seed, options)

    def usa(game: Game, moves: list[dict[str, Any]]) -> tuple[dict[str, Any], str | None, Callable[..., None]]:
        usa_policy = policy if policy in ("weighted", "deep", "rare") else "weighted"
        action = usa_random_play.concrete(game.state, usa_random_play.pick(game.state, moves, rng, usa_policy), rng)
        return action, usa_typed(game.state, action), lambda made: usa_random_play.process(game, made)

    return game, usa

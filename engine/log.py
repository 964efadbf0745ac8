"""Game logs: the undo/redo filter and replaying an 18xx.games-shaped document."""

from __future__ import annotations

from typing import Any

from engine.automatic import comparable, follow_up
from engine.core.commands import CommandSpec, merge_tables
from engine.core.game import BaseGame
from engine.core.rng import seed_from_game
from engine.errors import AutomaticMovesDiffer, GameError, ReplayRefused
from engine.titles import TITLE_CLASSES

TITLES = frozenset(TITLE_CLASSES)


def command_table(title: str | None = None) -> dict[str, CommandSpec]:
    """The commands of one title, or of every title the engine knows, by word."""
    classes = [title_class(title)] if title is not None else list(TITLE_CLASSES.values())
    return merge_tables([cls.COMMANDS for cls in classes])

SITE_RULES = "site_rules"
# Our own key in exported documents: the exact rule options, which 18xx.games does not know.
EXPORT_KEY = "stationmaster"


def effective_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions still in effect once undo and redo are resolved, in order."""
    kept: list[dict[str, Any] | None] = []
    undone: list[list[tuple[int, dict[str, Any]]]] = []
    for action in actions:
        kind = action.get("type")
        if kind == "undo":
            target = action.get("action_id")
            group: list[tuple[int, dict[str, Any]]] = []
            if target is None:
                for index in range(len(kept) - 1, -1, -1):
                    entry = kept[index]
                    if entry is not None and entry.get("type") != "message":
                        group.append((index, entry))
                        kept[index] = None
                        break
            else:
                start = 0
                if target:
                    start = next((i + 1 for i, e in enumerate(kept) if e is not None and e.get("id") == target),
                                 len(kept))
                for index in range(start, len(kept)):
                    entry = kept[index]
                    if entry is not None and entry.get("type") != "message":
                        group.append((index, entry))
                        kept[index] = None
            if group:
                undone.append(group)
            kept.append(None)
        elif kind == "redo":
            if undone:
                for index, entry in undone.pop():
                    kept[index] = entry
            kept.append(None)
        else:
            if kind != "message":
                undone.clear()
            kept.append(action)
    return [entry for entry in kept if entry is not None]


def title_class(title: str) -> type[BaseGame]:
    try:
        return TITLE_CLASSES[title]
    except KeyError:
        raise GameError(f"unknown title {title!r}; known titles: {', '.join(sorted(TITLES))}") from None


def resolve_options(cls: type[BaseGame], options: list[str] | None) -> list[str]:
    """`site_rules` stands for every rule option that follows the reference site."""
    resolved: list[str] = []
    for option in options or []:
        if option == SITE_RULES:
            resolved += [name for name in cls.RULE_OPTIONS if name.startswith("site_")]
        else:
            resolved.append(option)
    return sorted(set(resolved))


def rules_words(title: str, options: list[str] | tuple[str, ...]) -> str:
    """Which rules a game follows, in players' words: the printed rulebook's reading, the
    reference site's reading of every rule where the two differ, or the rulebook's with some of
    the site's readings; and the variants chosen."""
    cls = title_class(title)
    readings = [name for name in cls.RULE_OPTIONS if name.startswith("site_")]
    chosen = [name for name in readings if name in options]
    variants = sorted(name for name in options if name not in readings)
    if not chosen:
        words = "the printed rulebook's reading"
    elif len(chosen) == len(readings):
        words = "18xx.games' reading of every rule where it differs from the rulebook"
    else:
        words = (f"the printed rulebook's reading, with 18xx.games' on {len(chosen)} of the {len(readings)} points "
                 f"where they differ ({', '.join(chosen)})")
    return words + (f"; variants: {', '.join(variants)}" if variants else "")


def document_options(data: dict[str, Any]) -> list[str]:
    """The explicit rule options a game document asks for.

    A document we exported names them under EXPORT_KEY; any other log comes from the
    reference site, so it follows the site's reading of every rule, plus its own variants.
    """
    title = data.get("title")
    ours = data.get(EXPORT_KEY)
    if isinstance(ours, dict) and isinstance(ours.get("rule_options"), list):
        chosen = [str(option) for option in ours["rule_options"]]
    else:
        settings = data.get("settings") or {}
        chosen = [SITE_RULES] + [str(option) for option in settings.get("optional_rules") or []]
    return resolve_options(title_class(str(title)), chosen)


def export_settings(title: str, options: list[str]) -> tuple[list[str], dict[str, Any]]:
    """For a game's explicit options: 18xx.games' optional_rules (the site's own variants) and
    the top-level fields that carry our exact rule options."""
    ours = set(title_class(title).RULE_OPTIONS)
    variants = [option for option in options if option not in ours]
    return variants, {EXPORT_KEY: {"rule_options": list(options)}}


def new_game(title: str, players: list[dict[str, Any]], seed: int,
             options: list[str] | None = None) -> Game:
    cls = title_class(title)
    return Game(cls(players, seed, resolve_options(cls, options)), title, players, seed,
                resolve_options(cls, options))


class Game:
    """A game as its setup plus its action log; the position is what replaying the log gives."""

    def __init__(self, state: BaseGame, title: str, players: list[dict[str, Any]], seed: int,
                 options: list[str]) -> None:
        self.state = state
        self.title = title
        self.players = players
        self.seed = seed
        self.options = options
        self.raw_actions: list[dict[str, Any]] = []
        # Actions that came from an imported log keep their stored run revenue on any replay.
        self.trusted: set[int] = set()

    @property
    def finished(self) -> bool:
        return self.state.finished

    def result(self) -> dict[str, int]:
        return self.state.result()

    def process(self, action: dict[str, Any]) -> None:
        """Apply one action (undo and redo included); on GameError nothing changes."""
        kind = action.get("type") if isinstance(action, dict) else None
        if kind in ("undo", "redo"):
            candidate = self.raw_actions + [action]
            before = effective_actions(self.raw_actions)
            after = effective_actions(candidate)
            if before == after:
                raise GameError(f"there is nothing to {kind}")
            fresh = title_class(self.title)(self.players, self.seed, self.options)
            for entry in after:
                fresh.importing = id(entry) in self.trusted
                fresh.apply(entry)
            fresh.importing = False
            self.state = fresh
            self.raw_actions = candidate
            return
        self.state.process(action)
        self.raw_actions.append(action)

    def play(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A move made at the table: processed, then the moves the game makes by itself after it
        (standing orders, engine/automatic.py), which are stored in the action's `auto_actions`
        as the site stores them, and returned. Undo and redo make none. On GameError nothing
        changes."""
        if action.get("auto_actions"):
            raise GameError("automatic moves are the game's to make, not part of a move sent to it")
        self.process(action)
        if action.get("type") in ("undo", "redo"):
            return []
        created = action.get("created_at")
        made = follow_up(self.state, created_at=created if isinstance(created, int) else None)
        if made:
            action["auto_actions"] = made
        return made

    def legal_moves(self) -> list[dict[str, Any]]:
        from engine.legal import legal_moves

        return legal_moves(self.state)


def game_setup(data: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int]:
    """(title, players, seed) of an 18xx.games-shaped document, with a clear message for a
    document that lacks one."""
    if not isinstance(data, dict):
        raise GameError("a game log is a JSON object")
    title = data.get("title")
    if not isinstance(title, str):
        raise GameError("the game log has no title")
    title_class(title)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        raise GameError("the game log needs a list of players")
    settings = data.get("settings") or {}
    return title, players, seed_from_game(settings.get("seed"), data.get("id"))


def load_game(data: dict[str, Any], options: list[str] | None = None, recompute: bool = False) -> Game:
    """Replay an 18xx.games-shaped document; logs from the site follow the site's rule readings.

    The moves recorded in each action's `auto_actions` are made again as recorded, as the site
    replays them. With `recompute` they are worked out instead (the players' standing orders run
    by the engine's own rules, engine/automatic.py) and compared with the record: the first
    action whose automatic moves differ raises `AutomaticMovesDiffer`.
    """
    title, players, seed = game_setup(data)
    chosen = options if options is not None else document_options(data)
    game = new_game(title, players, seed, chosen)
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise GameError("the game log needs a list of actions")
    kept = effective_actions([a for a in actions if isinstance(a, dict)])
    positions = {id(action): index for index, action in enumerate(actions)}
    game.state.importing = True
    for action in kept:
        try:
            if recompute:
                _recompute(game.state, action, positions.get(id(action), -1))
            else:
                game.state.apply(action)
        except AutomaticMovesDiffer:
            raise
        except GameError as error:
            raise ReplayRefused(positions.get(id(action), -1), action, str(error)) from error
        except Exception as error:
            raise ReplayRefused(positions.get(id(action), -1), action, f"internal error {error!r}") from error
    game.state.importing = False
    game.raw_actions = list(actions)
    game.trusted = {id(action) for action in actions}
    return game


def _recompute(state: BaseGame, action: dict[str, Any], index: int) -> None:
    """Apply a logged action without its recorded automatic moves, make them by the engine's
    rules, and compare (times aside: each move made takes the recorded one's time, so that what
    compares times, the standing orders' check of others' dealings, reads the same)."""
    expected = list(action.get("auto_actions") or [])
    state.apply({key: value for key, value in action.items() if key != "auto_actions"})
    created = action.get("created_at")

    def stamp(n: int) -> int | None:
        when = expected[n].get("created_at") if n < len(expected) else created
        return when if isinstance(when, int) else None

    made = follow_up(state, stamp=stamp, safe=False)
    if comparable(made) != comparable(expected):
        raise AutomaticMovesDiffer(index, action, comparable(expected), comparable(made))

"""Positions for the standing-order tests: a reference log replayed up to an action, then moves
played as the table plays them (`Game.play`: the automatic moves worked out by the engine)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine.log import Game, load_game

DATA = Path(__file__).resolve().parent / "data" / "fixtures"
TEXAS = DATA / "18Texas" / "65394.json"
USA = DATA / "18USA" / "109372.json"
# Seats of the two logs, in seating order.
TEXAS_P1, TEXAS_P2, TEXAS_P3, TEXAS_P4 = 8923, 1269, 7046, 8811
USA_P1, USA_P2, USA_P3, USA_P4 = 605, 1463, 4339, 3763


@cache
def _log(path: Path) -> str:
    return path.read_text()


def log_of(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_log(path))
    return data


def at(path: Path, count: int) -> Game:
    """The game after the log's first `count` actions (their recorded automatic moves made)."""
    data = log_of(path)
    data["actions"] = data["actions"][:count]
    return load_game(data)


def logged(path: Path, index: int) -> dict[str, Any]:
    """The log's action at `index`, as a player sent it (without its automatic moves)."""
    action: dict[str, Any] = log_of(path)["actions"][index]
    return {key: value for key, value in action.items() if key != "auto_actions"}


def play(game: Game, kind: str, entity: Any, entity_type: str = "player", **fields: Any) -> list[dict[str, Any]]:
    """Play a move with the next id and a later time; the automatic moves it set off."""
    ids = [a["id"] for a in game.raw_actions if isinstance(a.get("id"), int)]
    times = [a["created_at"] for a in game.raw_actions if isinstance(a.get("created_at"), int)]
    action = {"type": kind, "entity": entity, "entity_type": entity_type, "id": max(ids, default=0) + 1,
              "created_at": max(times, default=0) + 1, **fields}
    return game.play(action)


def play_logged(game: Game, path: Path, index: int) -> list[dict[str, Any]]:
    """Play the log's action at `index` again, with its own id and time."""
    return game.play(logged(path, index))


def short(moves: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Automatic moves as (type, entity, what): the share bought or the reason, where there is one."""
    return [(m["type"], m["entity"], *(m["shares"] if "shares" in m else [m["reason"]] if "reason" in m else []))
            for m in moves]


def program_of(game: Game, player: Any) -> Any:
    return game.state.programs.of(str(player))

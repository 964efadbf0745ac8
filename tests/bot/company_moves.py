"""Positions of a real game where a company (or a private company's power) is to act, with the
command its president (or owner) would type, for tests that someone else may not type it.

They are found by replaying a game log, not written down: the first position where the log's
next move is each company move (/lay, /token, /run, /dividend, /train, /issue, /redeem), the
first position where a private's power is offered, and a raw /action of the company's lay.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixture_script import decider, live_action, typed_command
from log_following import follow

from bot.console_parse import parse_line
from bot.sessions import resolved_options
from engine import Game, new_game
from engine.core.game import BaseGame
from storage import GameRepository, NewGame, NewSeat

GENERATED = Path(__file__).resolve().parents[1] / "data" / "generated" / "18Texas"
LOG = GENERATED / "randplay_18Texas_4p_s201.json"
WORDS = ("lay", "token", "run", "dividend", "train", "issue", "redeem")
CASES = WORDS + ("private", "action")


@dataclass(frozen=True)
class CompanyMove:
    case: str  # a command word, "private" (a private's power) or "action" (a raw action)
    upto: int  # the log's first `upto` actions lead to the position
    entity: str  # the company or private that acts
    acting: str  # the player who decides for it
    other: str  # a seated player who does not
    line: str  # the command as the acting player types it, e.g. "/lay hex:D15 tile:5 rotation:0"


def _private_line(state: BaseGame, move: dict[str, Any]) -> str:
    choice = move["choices"][0]
    tile = choice["tiles"][0]
    name = tile["tile"].rsplit("-", 1)[0]
    return f"/lay hex:{choice['hex']} tile:{name} rotation:{tile['rotations'][0]} private:{move['entity']}"


@functools.cache
def company_moves() -> dict[str, CompanyMove]:
    document = log()
    names = [p["name"] for p in document["players"]]
    game = replay(document, 0)
    found: dict[str, CompanyMove] = {}

    def add(case: str, upto: int, entity: str, acting: str, line: str) -> None:
        if case not in found:
            other = next(n for n in names if n != acting)
            found[case] = CompanyMove(case, upto, entity, acting, other, line)

    for index, action in enumerate(document["actions"]):
        state = game.state
        for move in game.legal_moves():
            if move.get("entity_type") == "company" and move["type"] == "lay_tile":
                add("private", index, move["entity"], state.companies[move["entity"]].owner.name,
                    _private_line(state, move))
        words = typed_command(state, action)
        if words is not None and action.get("entity_type") == "corporation":
            word = words.split()[0].lstrip("/")
            if word in WORDS:
                add(word, index, action["entity"], decider(state, action), words)
            if word == "lay":
                raw = {k: v for k, v in action.items() if k not in ("id", "created_at", "auto_actions")}
                add("action", index, action["entity"], decider(state, action), "/action json:" + json.dumps(raw))
        if len(found) == len(CASES):
            return found
        play(game, action)
    missing = sorted(set(CASES) - set(found))
    raise AssertionError(f"{LOG.name} has no position for {missing}")


def slash_command(line: str) -> tuple[str, dict[str, Any]]:
    """A typed command (``/lay hex:D15 tile:5 rotation:0``) as a slash command's name and options."""
    parsed = parse_line(line)
    assert parsed is not None
    command = parsed[1]
    return command.name, {k: v for k, v in command.options.items() if v is not None}


def replay(document: dict[str, Any], upto: int) -> Game:
    """The log's first ``upto`` actions played as the moderator plays them live."""
    game = new_game(document["title"], document["players"], int(document["settings"]["seed"]), ["site_rules"])
    for action in document["actions"][:upto]:
        play(game, action)
    return game


def play(game: Game, action: dict[str, Any]) -> None:
    for step in [action] + list(action.get("auto_actions") or []):
        follow(game, live_action(step))


@functools.cache
def log(path: Path = LOG) -> dict[str, Any]:
    return json.loads(path.read_text())


async def store_position(repo: GameRepository, upto: int, users: dict[str, int] | None = None,
                         thread_id: int | None = None, names: dict[str, str] | None = None,
                         document: dict[str, Any] | None = None) -> int:
    """The log's first ``upto`` actions as a running game seated by its players (Discord users
    if given; ``names`` gives seats other display names than the log's)."""
    document = document or log()
    users, names = users or {}, names or {}
    seats = [NewSeat(p["id"], names.get(p["name"], p["name"]), users.get(p["name"])) for p in document["players"]]
    game = NewGame(document["title"], int(document["settings"]["seed"]), resolved_options(document["title"], True),
                   status="active", thread_id=thread_id, creator_user_id=users.get(document["players"][0]["name"]))
    actions = [(a, None) for a in document["actions"][:upto]]
    return await repo.create_game(game, seats, actions=actions)

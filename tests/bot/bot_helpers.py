"""Shared helpers for the bot tests: a moderator on a real SQLite file, and a simple policy
that plays an 18Texas opening (auction, Jay Gould par, a stock round that floats the Jay
Gould company) through the real command words."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from bot.model import Actor, Command
from bot.moderator import Moderator
from engine import GameError
from engine.core.game import BaseGame
from engine.legal import legal_moves
from storage import SqliteGameRepository

USERS = {"Alice": 1001, "Bob": 1002, "Carol": 1003, "Dana": 1004}
PLAYERS = ("Alice", "Bob", "Carol")


def actor(name: str, manager: bool = False) -> Actor:
    return Actor(user_id=USERS.get(name), name=name, manager=manager)


async def open_moderator(path: Path, **kwargs: Any) -> tuple[SqliteGameRepository, Moderator]:
    repo = await SqliteGameRepository.open(path)
    kwargs.setdefault("images", False)
    kwargs.setdefault("router_budget", 0.5)
    return repo, Moderator(repo, **kwargs)


async def president_of(moderator: Moderator, game_id: int, corporation: str) -> Actor:
    """The president of `corporation`, acting from the terminal (by name)."""
    session = await moderator.sessions.get(game_id)
    assert session.game is not None
    president = session.game.state.corporations[corporation].president()
    assert president is not None
    return Actor(None, president.name)


async def imported(moderator: Moderator, log: Path, actions: int, **document: Any) -> int:
    """A new game from the log's first `actions` actions, imported by the person at the terminal
    (seats matched by the log's player names); `document` adds or replaces top-level keys."""
    data = json.loads(log.read_text())
    data["actions"] = data["actions"][:actions]
    data.pop("result", None)  # a shortened log has not ended
    data.update(document)
    reply = await moderator.import_game(Actor(user_id=None, name="", manager=True), json.dumps(data))
    assert reply.ok and reply.game_id is not None, reply.text
    return reply.game_id


async def started_game(moderator: Moderator, seed: int = 7, creator: str = "Alice") -> int:
    """`creator` creates (Dana only creates, she does not play), the others join, the
    creator starts (seats drawn from the seed)."""
    created = await moderator.create_game(actor(creator), "18Texas", seed=seed, join=creator in PLAYERS)
    assert created.ok and created.game_id is not None
    game_id = created.game_id
    for name in PLAYERS:
        if name != creator:
            assert (await moderator.join(game_id, actor(name))).ok
    started = await moderator.start(game_id, actor(creator))
    assert started.reply.ok, started.reply.text
    return game_id


def opening_command(state: BaseGame) -> tuple[str, Command] | None:
    """The next move of a simple opening, or None once the first operating round is reached.

    Auction: the player to act bids the minimum on the first private left. Jay Gould's
    buyer pars at the lowest price. Stock round: buy the Jay Gould company until it floats,
    then pass."""
    if state.round.name == "Operating Round":
        return None
    moves = legal_moves(state)
    player = state.acting_players()[0]
    by_type = {m["type"]: m for m in moves}
    if "bid" in by_type:
        # The first private nobody has bid on yet (its minimum is still its face value).
        choice = next(c for c in by_type["bid"]["choices"] if c["min"] == state.companies[c["company"]].value)
        return player.name, Command("bid", {"company": choice["company"], "price": choice["min"]})
    if "par" in by_type and state.round.name != "Stock Round":
        cheapest = min(by_type["par"]["choices"], key=lambda c: c["price"])
        return player.name, Command("par", {"corporation": cheapest["corporation"], "price": cheapest["price"]})
    jay_gould = state.corporations[state.jay_gould_corporation]  # type: ignore[attr-defined]
    buys = [c for c in by_type.get("buy_shares", {"choices": []})["choices"] if c["corporation"] == jay_gould.id]
    if not jay_gould.floated and buys:
        return player.name, Command("buy", {"corporation": jay_gould.id})
    return player.name, Command("pass")


async def play_opening(moderator: Moderator, game_id: int) -> None:
    """Play the opening through the moderator until the first company operates."""
    for _ in range(40):
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        step = opening_command(session.game.state)
        if step is None:
            return
        name, command = step
        reply = await moderator.perform(game_id, actor(name), command)
        assert reply.ok, reply.text
    raise AssertionError("the opening did not reach an operating round")


def _lay_that_allows_a_station(state: BaseGame, lay: dict[str, Any]) -> dict[str, Any]:
    """The first legal lay after which a station can be placed, else the first lay."""
    first = None
    for choice in lay["choices"]:
        for tile in choice["tiles"]:
            for rotation in tile["rotations"]:
                action = {"type": "lay_tile", "entity": lay["entity"], "entity_type": "corporation",
                          "hex": choice["hex"], "tile": tile["tile"], "rotation": rotation}
                first = first or action
                trial = copy.deepcopy(state)
                try:
                    trial.process(action)
                except GameError:
                    continue
                if any(m["type"] == "place_token" for m in legal_moves(trial)):
                    return action
    assert first is not None
    return first


def operating_command(state: BaseGame, laid: set[tuple[Any, ...]]) -> tuple[str, Command]:
    """A simple operating policy: one tile per turn (one that opens a station spot if any),
    a station when possible, the proposed runs, pay out, one train; pass otherwise (and in
    stock rounds)."""
    moves = legal_moves(state)
    by_type = {m["type"]: m for m in moves}
    player = state.acting_players()[0].name
    turn = getattr(state.round, "turn", None)
    corp = turn.corporation if turn is not None else None
    key = (state.turn, state.round_num, corp.id if corp else None)
    if "lay_tile" in by_type and key not in laid:
        laid.add(key)
        action = _lay_that_allows_a_station(state, by_type["lay_tile"])
        return player, Command("lay", {"hex": action["hex"], "tile": action["tile"].rsplit("-", 1)[0],
                                       "rotation": action["rotation"]})
    if "place_token" in by_type:
        return player, Command("token", {"city": by_type["place_token"]["choices"][0]["city"]})
    if "run_routes" in by_type:
        return player, Command("run")
    if "dividend" in by_type:
        return player, Command("dividend", {"kind": "payout"})
    if "buy_train" in by_type and corp is not None and not corp.trains:
        return player, Command("train", {"train": by_type["buy_train"]["choices"][0]["train"]})
    return player, Command("pass")

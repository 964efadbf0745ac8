"""Helpers for the 1817-family rule tests (not a test module)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from family_title import FamilyTitle

from engine.core.entities import Corporation, Player
from engine.errors import GameError
from engine.legal import is_offered, legal_moves

PLAYERS = [{"id": "a", "name": "Ann"}, {"id": "b", "name": "Bob"}, {"id": "c", "name": "Cy"}]


def new(players: int = 2, options: list[str] | None = None) -> FamilyTitle:
    return FamilyTitle(PLAYERS[:players], 1, options)


def act(game: FamilyTitle, type_: str, entity: Any, entity_type: str | None = None, **fields: Any) -> None:
    """Play a move that must be among the legal moves."""
    if entity_type is None:
        entity_type = "corporation" if isinstance(entity, str) and entity.isupper() else "player"
    action = {"type": type_, "entity": entity, "entity_type": entity_type, **fields}
    assert is_offered(game, action), f"not offered: {action}; offered: {legal_moves(game)}"
    game.process(action)


def snapshot(game: FamilyTitle) -> Any:
    """Everything an action may change, to check a refused one changed nothing."""
    return copy.deepcopy((game.round_label(), [(p.cash, p.bankrupt) for p in game.players],
                          {c.id: (c.cash, c.token_count, [(s.id, game.describe(s.owner)) for s in c.shares],
                                  [t.id for t in c.trains]) for c in game.corporations.values()},
                          dict(game.market.position), dict(game.loans.held), game.loans.current_rate(),
                          list(game.log)))


def refused(game: FamilyTitle, type_: str, entity: Any, match: str, entity_type: str | None = None,
            **fields: Any) -> None:
    """A move the rules refuse: a clear message, and nothing changed."""
    if entity_type is None:
        entity_type = "corporation" if isinstance(entity, str) and entity.isupper() else "player"
    action = {"type": type_, "entity": entity, "entity_type": entity_type, **fields}
    assert not is_offered(game, action)
    before = snapshot(game)
    with pytest.raises(GameError, match=match):
        game.process(action)
    assert snapshot(game) == before


def corp(game: FamilyTitle, key: str) -> Corporation:
    return game.corporations[key]


def player(game: FamilyTitle, key: str) -> Player:
    return game.player(key)


def price(game: FamilyTitle, key: str) -> int:
    return game.market.cell_of(key).price


def col(game: FamilyTitle, key: str) -> int:
    return game.market.cell_of(key).col


def cell(game: FamilyTitle, price_value: int) -> str:
    found = [c for c in game.market.cells.values() if c.price == price_value and not c.types]
    return found[0].engine_id


def start(game: FamilyTitle, who: str, company: str, at: int) -> None:
    act(game, "par", who, corporation=company, share_price=cell(game, at))


def pass_stock_round(game: FamilyTitle) -> None:
    while game.round.name == "Stock Round":
        act(game, "pass", game.round.current(game).id)


def operating(game: FamilyTitle) -> Corporation:
    entity = game.round.acting_entity(game)
    assert isinstance(entity, Corporation), f"no company operates: {game.round_label()}"
    return entity


def two_companies() -> FamilyTitle:
    """Ann starts A (2 shares) at $70, Bob B (2 shares) at $60; the first operating round starts."""
    game = new()
    start(game, "a", "A", 70)
    start(game, "b", "B", 60)
    pass_stock_round(game)
    return game


def three_companies(options: list[str] | None = None) -> FamilyTitle:
    """Ann starts A (2 shares) at $70, Bob B (2 shares) at $60, Cy C (5 shares) at $80."""
    game = new(3, options)
    start(game, "a", "A", 70)
    start(game, "b", "B", 60)
    start(game, "c", "C", 80)
    return game


def run(game: FamilyTitle, company: str) -> None:
    """The company runs its first train from A1 to B2."""
    train = corp(game, company).trains[0].id
    act(game, "run_routes", company, routes=[{"train": train, "connections": [["A1", "B2"]]}])


def moves_of(game: FamilyTitle, kind: str) -> list[dict[str, Any]]:
    return [move for move in legal_moves(game) if move["type"] == kind]


def play_until_stock_round(game: FamilyTitle, dividend: str = "payout", stop: str = "Stock Round") -> None:
    """Operate simply: each company buys one new train if it has none, runs, pays `dividend`;
    pass in merger rounds. Stops at the first round named `stop`."""
    for _ in range(200):
        if game.round.name == stop or game.finished:
            return
        moves = legal_moves(game)
        kinds = {m["type"]: m for m in moves}
        entity = moves[0]["entity"]
        company = game.corporations.get(str(entity))
        if "run_routes" in kinds and company is not None:
            run(game, company.id)
        elif "dividend" in kinds:
            act(game, "dividend", entity, kind=dividend)
        elif "buy_train" in kinds and company is not None and not company.trains:
            choice = next(c for c in kinds["buy_train"]["choices"] if c.get("from") == "depot")
            act(game, "buy_train", entity, train=choice["train"], price=choice["price"])
        elif "pass" in kinds:
            act(game, "pass", kinds["pass"]["entity"], kinds["pass"].get("entity_type"))
        else:
            raise AssertionError(f"no simple move in {moves}")
    raise AssertionError("the operating rounds did not end")


def to_next_stock_round(game: FamilyTitle) -> None:
    """Pass the rest of the stock round and operate simply until the next one."""
    pass_stock_round(game)
    play_until_stock_round(game)


MERGER_ROUND = "Merger and Conversion Round"


def to_merger_round(game: FamilyTitle) -> None:
    """Pass the rest of the stock round (if one is on) and operate simply until the merger round."""
    pass_stock_round(game)
    play_until_stock_round(game, stop=MERGER_ROUND)


def to_acquisition_round(game: FamilyTitle) -> None:
    """Every company passes in the merger round (and anyone asked to deal in shares)."""
    while game.round.name == MERGER_ROUND:
        move = next(m for m in legal_moves(game) if m["type"] == "pass")
        act(game, "pass", move["entity"], move.get("entity_type"))


def first_and_other(game: FamilyTitle, one: str, two: str) -> tuple[str, str]:
    """Which of the two companies the merger round asks first, and the other one."""
    first = game.round.current_entity(game).id
    return first, two if first == one else one


def pass_merger_round(game: FamilyTitle) -> None:
    """Every company passes in the merger round (and anyone asked to deal in shares)."""
    while game.round.name in (MERGER_ROUND, "Acquisition Round") and not game.finished:
        move = next(m for m in legal_moves(game) if m["type"] == "pass")
        act(game, "pass", move["entity"], move.get("entity_type"))

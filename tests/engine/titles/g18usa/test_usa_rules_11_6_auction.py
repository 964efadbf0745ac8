"""18USA rule 11.6: who is asked in the auction for a new company's president's certificate.

A player may bid up to their cash plus their privates' face value (plus the home's cash subsidy,
which the bank pays). As on the site, each bid (the opening one too) drops at once every player
who could not bid more than it; a pass drops nobody else. For the opening bid the home station is
not placed yet, so the best cash subsidy still open counts for everyone; after it, the home's.

The position: a real game's first stock round, just after the private auction (4 subsidies with
cash on the map, the best $50), with the players' cash set for each case.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

from engine.core.game import BaseGame
from engine.legal import legal_moves
from engine.titles.g18usa import ipo as ipos

FIRST_STOCK_TURN = 139  # the actions before it are the private auction
# Privates then: P1 P12+P3+P10 $130, P2 P6+P1+P28 $150, P3 P29+P2 $160, P4 P15+P16 $120,
# P5 P21+P4 $120, P6 P25+P7 $130.


def first_stock_round(cash: dict[str, int]) -> BaseGame:
    game = position_in("s8604", FIRST_STOCK_TURN)
    for player in game.players:
        player.cash = cash[player.id]
    return game


def act(game: BaseGame, kind: str, entity: str, **fields: Any) -> None:
    entity_type = "corporation" if entity == "TP" else "player"
    game.apply({"type": kind, "entity": entity, "entity_type": entity_type, **fields})


def home(game: BaseGame, coord: str) -> None:
    """TP's home station in `coord`, as the legal moves offer it."""
    move = next(m for m in legal_moves(game) if m["type"] == "place_token")
    choice = next(c for c in move["choices"] if c["hex"] == coord)
    act(game, "place_token", "TP", city=choice["city"], slot=0)


def asked(game: BaseGame) -> list[str]:
    return [player.id for player in game.acting_players()]


def each_asked_passes(game: BaseGame, *players: str) -> None:
    """The players are asked in this order, one at a time, and each passes."""
    for player in players:
        assert asked(game) == [player]
        act(game, "pass", player)


def winner(game: BaseGame) -> str | None:
    president = game.corporations["TP"].president()
    return president.id if president else None


def test_the_opening_bid_drops_those_who_could_not_beat_it_even_with_the_best_open_subsidy() -> None:
    game = first_stock_round({"P1": 0, "P2": 25, "P3": 65, "P4": 0, "P5": 85, "P6": 95})
    act(game, "bid", "P6", corporation="TP", price=200)
    home(game, "D28")  # no subsidy there
    # P1: $0 + $130 + $50 = $180, out. P2: $25 + $150 = $175 < $200, but + $50 is more: asked.
    # P4: $0 + $120 + $50 = $170, out; P5: $85 + $120 = $205 is asked.
    each_asked_passes(game, "P2", "P3", "P5")
    assert winner(game) == "P6"


def test_after_a_raise_only_the_homes_cash_subsidy_counts() -> None:
    game = first_stock_round({"P1": 100, "P2": 25, "P3": 0, "P4": 50, "P5": 85, "P6": 95})
    act(game, "bid", "P6", corporation="TP", price=100)
    home(game, "H8")  # a $30 subsidy
    assert asked(game) == ["P1"]
    act(game, "bid", "P1", corporation="TP", price=200)
    # P2: $175 + $30 = $205 stays; P3: $160 + $30 = $190 and P4: $170 + $30 = $200 cannot beat it.
    each_asked_passes(game, "P2", "P5", "P6")
    assert winner(game) == "P1"


def test_a_pass_drops_nobody_who_was_in_after_the_last_bid() -> None:
    game = first_stock_round({"P1": 0, "P2": 0, "P3": 0, "P4": 0, "P5": 0, "P6": 95})
    act(game, "bid", "P6", corporation="TP", price=160)
    home(game, "D28")
    # Everyone's privates + $50 beat $160 except nobody's cash alone: all are asked in turn and
    # pass, though none of them could bid $161 without a subsidy in D28.
    each_asked_passes(game, "P1", "P2", "P3", "P4", "P5")
    assert winner(game) == "P6"


def test_once_no_cash_subsidy_is_open_the_opening_bid_counts_cash_and_privates_only() -> None:
    game = first_stock_round({"P1": 100, "P2": 25, "P3": 65, "P4": 0, "P5": 85, "P6": 95})
    game_usa: Any = game
    game_usa.umap.open_subsidies.clear()
    assert ipos.best_open_subsidy(game_usa) == 0
    act(game, "bid", "P6", corporation="TP", price=200)
    home(game, "D28")
    # P2 ($175) and P4 ($120) are out now.
    assert asked(game) == ["P1"]
    act(game, "pass", "P1")
    assert asked(game) == ["P3"]


def test_a_player_at_the_certificate_limit_is_not_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    game = first_stock_round({"P1": 100, "P2": 25, "P3": 65, "P4": 0, "P5": 85, "P6": 95})
    limit = game.cert_limit
    monkeypatch.setattr(game, "certificate_count", lambda player: limit if player.id == "P1" else 0)
    act(game, "bid", "P6", corporation="TP", price=150)
    home(game, "D28")
    assert asked(game) == ["P2"]

"""The 18USA situations other implementations got wrong (design/RULE-EDGE-CASES.md; the
18xx.games issue numbers in the names), each read against the rulebook. Where a section test
already covers one in depth, it is named here and run as it stands; `docs/edge-cases.md` is the
table of both titles' cases and their tests."""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in, snapshot

from engine.core.game import BaseGame
from engine.errors import GameError
from engine.legal import legal_moves

# --- 11.6 and 11.6.1: starting a company, subsidies and contributed privates --------------------
# 109372 at its first stock turn: Portland (C3) offers the $30 subsidy S13, Santa Fe (G11) $40
# and Fargo (B14) $30; New York (D28) none. Player 4 (id 3763) is to act.
FIRST_STOCK_TURN = 74
STARTER = 3763
PORTLAND, SANTA_FE, NEW_YORK = "C3", "G11", "D28"


def first_stock_turn(cash: int, keep_privates: bool) -> BaseGame:
    """The starter with `cash` (and their privates, or none); every other player without money
    or privates, so that nobody else can bid."""
    game = position_in("109372", FIRST_STOCK_TURN)
    usa: Any = game
    for player in game.players:
        player.cash = cash if player.id == STARTER else 0
        for company in usa.companies_of(player):
            if player.id != STARTER or not keep_privates:
                company.closed = True
    return game


def act(game: BaseGame, kind: str, entity: object, **fields: Any) -> None:
    entity_type = "player" if isinstance(entity, int) else "corporation"
    game.process({"type": kind, "entity": entity, "entity_type": entity_type, **fields})


def home_city(game: BaseGame, coord: str) -> str:
    move = next(m for m in legal_moves(game) if m["type"] == "place_token")
    return str(next(c["city"] for c in move["choices"] if c["hex"] == coord))


def homes_offered(game: BaseGame) -> set[str]:
    move = next(m for m in legal_moves(game) if m["type"] == "place_token")
    return {c["hex"] for c in move["choices"]}


def refused(game: BaseGame, pattern: str, kind: str, entity: object, **fields: Any) -> None:
    """The move is refused with a message matching `pattern`, and nothing changes."""
    before = snapshot(game)
    with pytest.raises(GameError, match=pattern):
        act(game, kind, entity, **fields)
    assert snapshot(game) == before


def test_7326_portland_30_subsidy_the_appendix_example() -> None:
    """Appendix, Subsidy Tiles, $30: "a player may start a company in Portland at $106
    (resulting in a $53 share price) using $76 in equity from their hand and the $30 city
    subsidy. The new company's treasury would receive $30 from the bank and the $76 in equity
    from the player." """
    game = first_stock_turn(cash=76, keep_privates=False)
    bank = game.bank.cash
    act(game, "bid", STARTER, corporation="NYC", price=106)
    act(game, "place_token", "NYC", city=home_city(game, PORTLAND), slot=0)
    nyc = game.corporations["NYC"]
    assert nyc.president() is game.player(STARTER)  # type: ignore[attr-defined]
    assert game.share_price(nyc) == 53  # type: ignore[attr-defined]
    assert game.player(STARTER).cash == 0  # type: ignore[attr-defined]
    assert nyc.cash == 106
    assert game.bank.cash == bank - 30  # the bank's $30 is the subsidy
    assert PORTLAND not in game.umap.open_subsidies  # type: ignore[attr-defined]


def test_11100_a_cash_subsidy_lets_the_opening_bid_exceed_cash_and_privates() -> None:
    game = first_stock_turn(cash=76, keep_privates=False)
    # The best cash subsidy still open is Santa Fe's $40: $116 may be bid before the home is chosen.
    bid = next(m for m in legal_moves(game) if m["type"] == "bid")
    assert {c["max"] for c in bid["choices"]} == {116}
    act(game, "bid", STARTER, corporation="NYC", price=107)
    # $107 is more than $76 and Portland's $30: only the $40 and $50 cities may be the home.
    assert PORTLAND not in homes_offered(game) and SANTA_FE in homes_offered(game)
    assert NEW_YORK not in homes_offered(game)
    refused(game, r"with the home in C3 they can pay at most \$106", "place_token", "NYC",
            city=home_city_any(game, PORTLAND), slot=0)
    act(game, "place_token", "NYC", city=home_city(game, SANTA_FE), slot=0)
    assert game.player(STARTER).cash == 76 - (107 - 40)  # type: ignore[attr-defined]
    assert game.corporations["NYC"].cash == 2 * 53


def home_city_any(game: BaseGame, coord: str) -> str:
    """The city id of `coord` whether or not the legal moves offer it as a home."""
    state = game.board.hexes[coord]
    return f"{state.tile_id}-{state.tile.stop('city', 0).part_index}"


def test_9205_a_bid_no_mix_of_cash_privates_and_subsidy_could_fund_is_refused() -> None:
    # $55 and privates worth $280 (P1 30, P3 30, P4 40, P15 60, P30 120), the best open subsidy $40.
    game = first_stock_turn(cash=55, keep_privates=True)
    refused(game, r"can bid at most \$375", "bid", STARTER, corporation="NYC", price=376)
    act(game, "bid", STARTER, corporation="NYC", price=335)
    # Without a subsidy in the home $335 is the most: cash and every private.
    act(game, "place_token", "NYC", city=home_city(game, NEW_YORK), slot=0)
    starter = game.player(STARTER)  # type: ignore[attr-defined]
    assert starter.cash == 55 - 335
    # The winner may not pass while owing more than their cash; they contribute privates.
    refused(game, r"contribute private companies first \(11\.6\)", "pass", STARTER)


def test_7677_11995_privates_contributed_above_the_bid_go_to_the_bank_not_the_player() -> None:
    """11.6: "The player then gives the bank an amount equal to the winning bid minus the private
    companies contributed. The bank then gives the company treasury twice the share price minus
    the combined face value of all private companies given. If this amount is negative, the
    starting treasury is $0." """
    game = first_stock_turn(cash=55, keep_privates=True)
    act(game, "bid", STARTER, corporation="NYC", price=100)
    act(game, "place_token", "NYC", city=home_city(game, NEW_YORK), slot=0)
    bank = game.bank.cash
    act(game, "assign", STARTER, target="P30", target_type="company")  # face value $120
    act(game, "pass", STARTER)  # no more privates: the company is funded
    nyc = game.corporations["NYC"]
    # The player paid nothing for the $100 bid and gets nothing for the $20 over it; the
    # treasury's $100 less $120 is $0.
    assert game.player(STARTER).cash == 55  # type: ignore[attr-defined]
    assert nyc.cash == 0
    assert game.bank.cash == bank  # what the player did not pay the bank kept of the $100 it gave
    assert [c.id for c in game.companies_of(nyc)] == ["P30"]  # type: ignore[attr-defined]


# --- Free Station (S9): a full city, not a Company Town, and a merger -----------------------------
def test_7347_7345_7735_free_station_into_a_full_city() -> None:
    from test_usa_rules_12_3_stations import (
        test_free_station_goes_into_a_full_city_and_takes_a_real_slot_when_one_opens as covered,
    )
    covered()


def test_12318_free_station_not_onto_a_company_town() -> None:
    from test_usa_rules_12_3_stations import (
        test_free_station_not_onto_a_company_town_nor_p20_into_an_open_city as covered,
    )
    covered()


@pytest.mark.parametrize(("extra_holder", "city", "expected"), [
    ("NP", "C17", ["NP", "UP"]),  # the survivor's extra station in the target's full city
    ("B&O", "E11", ["NP"]),  # the target's extra station in the survivor's full city
], ids=["survivor-extra", "target-extra"])
def test_12772_after_a_merger_the_duplicate_station_goes_and_no_extra_slot_is_left(
        extra_holder: str, city: str, expected: list[str]) -> None:
    """14.3: "If this results in two station tokens on the same hex, return one to the company's
    charter." Free Station: the extra station "will immediately fill the new opening". Either
    way the city keeps one station of the merged company in its printed slots and no extra slot.
    s8403 at 283: NP (stations E11 and I13) takes in B&O (C17)."""
    from usa_positions import log_named, replayed

    game = replayed("s8403", 283)
    board = game.board
    if city == "C17":
        board.hexes["C17"].tokens[0][1] = "UP"  # C17's second slot taken: the city is full
    board.add_extra_slot(city, 0, extra_holder)
    game.apply(log_named("s8403")["actions"][283])
    assert board.hexes[city].tokens[0] == expected
    assert len(board.hexes[city].tokens[0]) == board.hexes[city].tile.cities[0].slots
    assert not any(m["type"] == "remove_token" for m in legal_moves(game))

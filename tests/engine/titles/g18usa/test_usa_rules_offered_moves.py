"""The legal moves offer what the rules allow at logged 18USA positions where they once did not:
the tiles a company can pay for on a hex holding dearer ones (12.2), lays by the company's
privates and subsidies (the appendix), the Free Station subsidy's station (S9); and a logged
action the site accepted out of turn stays out of the live moves."""

from __future__ import annotations

from typing import Any

import pytest
from usa_positions import logged_action
from usa_tracecheck import position_in

from engine.core.game import BaseGame
from engine.errors import GameError
from engine.legal import accepted_only_on_import, is_offered, legal_moves


def offered_choices(game: BaseGame, kind: str, entity: str) -> list[dict[str, Any]]:
    return [choice for move in legal_moves(game) if move["type"] == kind and move["entity"] == entity
            for choice in move.get("choices", [])]


def test_12_2_a_company_without_cash_is_offered_the_free_tiles_of_a_hex_that_also_has_dear_ones() -> None:
    game = position_in("109372", 983)
    action = logged_action("109372", 983)  # GN, $0 in its treasury, lays a plain 8 in F14
    assert game.corporations["GN"].cash == 0
    f14 = [choice for choice in offered_choices(game, "lay_tile", "GN") if choice["hex"] == "F14"]
    assert len(f14) == 1
    names = {tile["tile"].rsplit("-", 1)[0] for tile in f14[0]["tiles"]}
    assert {"7", "8", "9"} <= names
    assert not names & {"544", "545", "546", "80", "81", "82", "83"}  # the $10 and $20 upgrades
    assert all(tile["cost"] == 0 for tile in f14[0]["tiles"])
    assert is_offered(game, action)
    game.process(action)
    assert game.board.hexes["F14"].tile_id == "8-8"


# (log, index of a lay by a private or subsidy of the operating company)
SPECIAL_LAYS = [
    ("109372", 174),  # S8: a free green city upgrade (the subsidy's tile)
    ("109372", 238),  # P27: the Company Town tile
    ("s8503", 209),  # P26: a rural junction
    ("s8405", 382),  # P17: Great Northern's track in its own hexes
    ("s8401", 500),  # P9: a city upgrade
    ("s8403", 616),  # P16: the Regional HQ tile
]


@pytest.mark.parametrize(("log_name", "index"), SPECIAL_LAYS, ids=[f"{log}-{i}" for log, i in SPECIAL_LAYS])
def test_appendix_a_private_or_subsidy_lay_is_offered_under_the_company_that_lays(log_name: str, index: int) -> None:
    game = position_in(log_name, index)
    action = logged_action(log_name, index)
    company = str(action["entity"])
    assert company in game.companies
    choices = offered_choices(game, "lay_tile", company)
    assert any(choice["hex"] == action["hex"] and any(
        tile["tile"].rsplit("-", 1)[0] == action["tile"].rsplit("-", 1)[0] and action["rotation"] in tile["rotations"]
        for tile in choice["tiles"]) for choice in choices)
    assert is_offered(game, action)
    payer = game.companies[company].owner
    cash = payer.cash
    offered_cost = next(tile["cost"] for choice in choices if choice["hex"] == action["hex"]
                        for tile in choice["tiles"]
                        if tile["tile"].rsplit("-", 1)[0] == action["tile"].rsplit("-", 1)[0])
    game.process(action)
    assert game.board.hexes[action["hex"]].tile.name == action["tile"].rsplit("-", 1)[0]
    assert cash - payer.cash == offered_cost  # the company pays what was offered


def test_s9_free_station_is_offered_under_the_subsidy() -> None:
    game = position_in("109372", 369)
    action = logged_action("109372", 369)  # S9 places its station in the city 592-0-0
    assert action["entity"] == "S9"
    cities = {choice["city"] for choice in offered_choices(game, "place_token", "S9")}
    assert action["city"] in cities
    assert is_offered(game, action)
    owner = game.companies["S9"].owner
    game.process(action)
    assert game.companies["S9"].closed
    city = next(state for state in game.board.hexes.values() if state.tile_id == "592-0")
    assert owner.id in city.corporations_here()


def test_a_pass_taken_out_of_turn_on_the_site_is_accepted_only_on_import() -> None:
    game = position_in("109372", 1284)
    action = logged_action("109372", 1284)  # player 1463's pass while a friendly sale waits for another
    assert not is_offered(game, action)
    assert accepted_only_on_import(game, action)
    game.importing = False
    moves, done = legal_moves(game), len(game.raw_actions)
    with pytest.raises(GameError, match="turn|not allowed"):
        game.process(action)
    assert (legal_moves(game), len(game.raw_actions)) == (moves, done)
    assert not accepted_only_on_import(game, action)

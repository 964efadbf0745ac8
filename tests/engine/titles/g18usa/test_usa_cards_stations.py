"""18USA cards that place stations or markers: P6 Import/Export Hub, P8 Express Freight Service,
P20 Suem & Wynn Law Firm and the Free Station subsidy S9.

Played at s12045's first operating round: PRR (home Fargo, B14) at its track step with $300 and
four station tokens, given stations in Atlanta (H22, track through I23 to Florida, J24, and to
Jacksonville, MKT's full home I25), in E17 (track to Kansas City, E15, NP's full home) and track
from Fargo to Helena (B8, an open city).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import (
    PRR_TRACK,
    moves_of,
    only,
    played,
    position,
    put,
    refused,
    station,
)

from engine.titles.g18usa.operating import city_id
from engine.titles.g18usa.revenue import run_bonus, stop_value


def placed(*cards: str, site: bool = False) -> Any:
    game = position(*PRR_TRACK, site=site)
    prr = only(game, "PRR", *cards)
    prr.token_count = 4
    put(game, "B14", "57", {1, 4})
    put(game, "B12", "9", {1, 4})
    put(game, "B10", "9", {1, 4})
    put(game, "B8", "57", {1, 4})
    station(game, "PRR", "H22")
    put(game, "H22", "57", {2, 5})
    put(game, "I23", "9", {2, 5})
    station(game, "PRR", "E17")
    put(game, "E17", "57", {1, 4})
    put(game, "E15", "6", {2, 4})
    return game


def assign(card: str, coord: str) -> dict[str, Any]:
    return {"type": "assign", "entity": card, "entity_type": "company", "target": coord, "target_type": "hex"}


def token(game: Any, entity: str, coord: str, company: bool = True) -> dict[str, Any]:
    return {"type": "place_token", "entity": entity, "entity_type": "company" if company else "corporation",
            "city": city_id(game, coord, 0)}


def cities(game: Any, card: str) -> set[str]:
    return {choice["hex"] for move in moves_of(game, "place_token", card) for choice in move["choices"]}


# --- P6 --------------------------------------------------------------------------------------
def test_p6_revalues_a_reached_red_area_once_and_closes() -> None:
    game = placed("P6")
    florida = ("J24", "town", 0)
    refused(game, assign("P6", "B2"), "PRR has no route to the red area of B2")
    played(game, assign("P6", "J24"))
    assert [stop_value(game.umap, "PRR", florida, phase) for phase in ("2", "3", "5", "7")] == [30, 40, 50, 80]
    assert game.companies["P6"].closed
    assert not moves_of(game, "assign", "P6")


# --- P8 --------------------------------------------------------------------------------------
def test_p8_puts_a_marker_in_a_reached_red_area_once_worth_10_a_train_while_owned() -> None:
    game = placed("P8")
    refused(game, assign("P8", "B2"), "PRR has no route to the red area of B2")
    played(game, assign("P8", "J24"))
    assert [m.kind for m in game.board.hexes["J24"].markers] == ["freight"]
    assert game.owns(game.corporations["PRR"], "P8")
    refused(game, assign("P8", "J24"), "P8 \\(Express Freight Service\\) is used once")
    run = [("H22", "city", 0), ("J24", "town", 0)]
    assert run_bonus(game.umap, "PRR", {"P8"}, run) == 10
    assert run_bonus(game.umap, "PRR", set(), run) == 0  # once P8 is gone, so is the bonus
    assert run_bonus(game.umap, "PRR", {"P8"}, run[:1]) == 0


def test_p8s_marker_counts_as_a_token_and_may_be_removed_instead_of_a_station() -> None:
    """P8's card: over the most stations after a merger or acquisition the survivor may remove
    the marker instead (the site's "Remove"); P8 then closes (14.3's station choice itself is
    tested in test_usa_rules_14_3_freight_marker.py)."""
    game = placed("P8")
    prr = game.corporations["PRR"]
    assert game.tokens_off_the_map(prr) == 0 and game.off_map_token_choices(prr) == []
    played(game, assign("P8", "J24"))
    assert game.tokens_off_the_map(prr) == 1 and game.off_map_token_choices(prr) == ["Remove"]
    game.remove_off_map_token(prr, "Remove")
    assert not game.board.hexes["J24"].markers and game.companies["P8"].closed


# --- P20 and S9 ------------------------------------------------------------------------------
@pytest.mark.parametrize("card", ["P20", "S9"])
def test_p20_and_s9_put_a_station_in_a_full_reached_city_in_an_extra_slot(card: str) -> None:
    game = placed(card)
    prr = game.corporations["PRR"]
    prr.token_count = tokens = 5  # four placed after P20's: one left for PRR's own station step
    assert {"E15", "I25"} <= cities(game, card)
    played(game, token(game, card, "E15"))
    assert game.board.hexes["E15"].tokens[0] == ["NP", "PRR"]
    assert game.companies[card].closed
    assert prr.token_count == tokens + (1 if card == "S9" else 0)  # S9's station is an extra one
    refused(game, token(game, card, "I25"), f"{card} .* places one station; it has been used and has closed")
    # PRR's own station step is still to come.
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})
    assert moves_of(game, "place_token", "PRR")


@pytest.mark.parametrize("card", ["P20", "S9"])
def test_p20_and_s9_not_where_the_company_is_nor_on_a_company_town(card: str) -> None:
    game = placed(card)
    refused(game, token(game, card, "E17"), "PRR already has a station in E17")
    assert "E17" not in cities(game, card)


@pytest.mark.parametrize("site", [False, True], ids=["printed", "site_p20_open_city"])
def test_p20_into_an_open_city_only_by_the_sites_reading(site: bool) -> None:
    game = placed("P20", site=site)
    if site:
        assert "B8" in cities(game, "P20")
        played(game, token(game, "P20", "B8"))
    else:
        assert "B8" not in cities(game, "P20")
        refused(game, token(game, "P20", "B8"), "P20 places a station only in a city with no open slot")


def test_s9_may_go_in_an_open_city_too_and_at_any_time_of_the_turn() -> None:
    game = placed("S9")
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})  # the track step
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})  # the station step
    assert "B8" in cities(game, "S9")
    played(game, token(game, "S9", "B8"))
    assert game.board.hexes["B8"].tokens[0] == ["PRR"]


def test_p20_needs_an_unplaced_token() -> None:
    game = placed("P20")
    prr = game.corporations["PRR"]
    prr.token_count = 3  # Fargo, Atlanta and E17: none left
    assert not moves_of(game, "place_token", "P20")
    refused(game, token(game, "P20", "E15"), "P20 places one of PRR's unplaced stations; it has none left")

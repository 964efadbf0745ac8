"""18USA cards that lay or change tiles: P7 Track Engineers, P9 Boomtown, P11 Pettibone &
Mulliken, P16 Regional Headquarters, P17 Great Northern Railway, P26 Rural Junction, P27 Company
Town and the Boomtown subsidy S8.

Played at s12045's first operating round: PRR (home Fargo, B14, in the Great Northern hexes) at
its track step, with a yellow city at home whose track points at B12, B10 and Helena (B8).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import (
    PRR_TRACK,
    lay,
    lay_hexes,
    moves_of,
    offered_tiles,
    only,
    played,
    position,
    put,
    refused,
    rotation,
    station,
    tile_id,
)

from engine.titles.g18usa.revenue import great_northern_bonus, stop_value

PHASES = ("2", "2+", "3", "3+", "4", "4+", "5", "6", "7", "8")


def fargo(*cards: str, site: bool = False) -> Any:
    game = position(*PRR_TRACK, site=site)
    only(game, "PRR", *cards)
    put(game, "B14", "57", {1, 4})
    return game


def in_phase(game: Any, phase: str) -> None:
    """The game's phase, for the colours of tiles (a position's setup)."""
    game.phase_index = PHASES.index(phase)


def to_helena(game: Any) -> None:
    """Plain track from Fargo through B12 and B10 to Helena (B8)."""
    put(game, "B12", "9", {1, 4})
    put(game, "B10", "9", {1, 4})


def own_lay(game: Any, coord: str, tile: str, needs: set[int]) -> None:
    played(game, lay("PRR", coord, tile_id(game, tile), rotation(game, "PRR", coord, tile, needs)))


def card_lay(game: Any, card: str, coord: str, tile: str, needs: set[int]) -> None:
    played(game, lay(card, coord, tile_id(game, tile), rotation(game, card, coord, tile, needs), company=True))


def next_price(game: Any, coord: str = "B16", tile: str = "9") -> int:
    """What PRR's own next lay costs (its second tile action costs $20)."""
    return int(offered_tiles(game, "PRR", coord)[tile]["cost"])


# --- P7 and P11 ------------------------------------------------------------------------------
def test_p7_gives_three_tile_actions_free_20_free() -> None:
    game = fargo("P7")
    own_lay(game, "B12", "9", {1, 4})
    assert next_price(game, "B10") == 20
    own_lay(game, "B10", "9", {1, 4})
    assert next_price(game, "B16") == 0  # the third is free again
    own_lay(game, "B16", "9", {1, 4})
    assert game.corporations["PRR"].cash == 300 - 20
    # Its tile actions used, PRR's track step is over: it has no station to place, so it buys trains.
    refused(game, lay("PRR", "B18", tile_id(game, "9"), 1), "/lay is not possible now: PRR is to buy trains")


def test_without_p7_there_is_no_third_tile_action() -> None:
    game = fargo()
    own_lay(game, "B12", "9", {1, 4})
    own_lay(game, "B10", "9", {1, 4})
    refused(game, lay("PRR", "B16", tile_id(game, "9"), 1), "/lay is not possible now: PRR is to buy trains")


@pytest.mark.parametrize(("cards", "message"), [
    (("P7",), "at most one of the tile actions may be an upgrade"),
    (("P11",), "with P11 only one of the two upgrades may be on a city"),
])
def test_one_upgrade_a_turn_p11_a_second_if_not_both_on_cities(cards: tuple[str, ...], message: str) -> None:
    game = fargo(*cards)
    in_phase(game, "3")
    station(game, "PRR", "E23")
    put(game, "E23", "57", {1, 4})
    own_lay(game, "B14", "15", {1, 4})  # an upgrade of the home city
    piece = game.board.tiles["15"]
    turned = next(r for r in game.board.legal_rotations(game.board.hexes["E23"], piece) if {1, 4} <= piece.exits(r))
    refused(game, lay("PRR", "E23", tile_id(game, "15"), turned), message)


def test_p11_a_second_upgrade_on_plain_track() -> None:
    game = fargo("P11")
    in_phase(game, "3")
    put(game, "B12", "9", {1, 4})
    own_lay(game, "B14", "15", {1, 4})
    own_lay(game, "B12", "82", {1, 4})  # the $20 action, an upgrade too
    assert game.corporations["PRR"].cash == 280


@pytest.mark.parametrize(("phase", "ahead"), [("2", "green"), ("3", "brown"), ("5", "gray")])
def test_p11_lays_plain_track_one_colour_ahead_of_the_phase(phase: str, ahead: str) -> None:
    colours = ("yellow", "green", "brown", "gray")
    below = colours[colours.index(ahead) - 1]
    for cards, offered in (((), False), (("P11",), True)):
        game = fargo(*cards)
        in_phase(game, phase)
        station(game, "PRR", "H22")  # Atlanta, beside H24 (plain, six sides)
        put(game, "H22", "57", {1, 4})
        put(game, "H24", {"yellow": "9", "green": "82", "brown": "545"}[below], {1})
        tiles = offered_tiles(game, "PRR", "H24")
        assert any(game.board.tiles[name].color == ahead for name in tiles) is offered
        # Cities keep to the phase's colours.
        home = offered_tiles(game, "PRR", "B14")
        assert not any(game.board.tiles[name].color == "green" for name in home) or phase != "2"


# --- P9 and S8 -------------------------------------------------------------------------------
def test_p9_turns_a_reached_yellow_city_green_without_a_tile_action_and_closes() -> None:
    game = fargo("P9")
    assert set(offered_tiles(game, "P9", "B14")) == {"14", "15", "619"}  # before green is available
    card_lay(game, "P9", "B14", "15", {1, 4})
    assert game.board.hexes["B14"].tile.name == "15"
    assert not game.owns(game.corporations["PRR"], "P9")
    assert next_price(game, "B12") == 0  # PRR's first tile action is still to come


@pytest.mark.parametrize(("coord", "setup", "message"), [
    ("E23", "57", "E23 is not connected to PRR's track"),
    ("B12", "9", "P9 upgrades a yellow plain city"),
])
def test_p9_refuses_cities_out_of_reach_and_plain_track(coord: str, setup: str, message: str) -> None:
    game = fargo("P9")
    put(game, coord, setup, {1, 4})
    refused(game, lay("P9", coord, tile_id(game, "15"), 1, company=True), message)


def test_p9_not_on_a_metropolis() -> None:
    game = fargo("P9")
    station(game, "PRR", "H14")  # Dallas-Fort Worth, a metropolis in this game
    refused(game, lay("P9", "H14", tile_id(game, "15"), 0, company=True), "that is not a metropolis")


def test_s8_turns_the_home_green_in_the_first_turn_outside_the_tile_actions() -> None:
    game = fargo("S8")
    assert "B14" in lay_hexes(game, "S8")
    card_lay(game, "S8", "B14", "15", {1, 4})
    assert not game.owns(game.corporations["PRR"], "S8")
    assert next_price(game, "B12") == 0


def test_s8_upgrades_a_home_tile_laid_earlier_the_same_turn() -> None:
    """The subsidy's text: the yellow city on the home hex, "e.g. one laid earlier that turn"."""
    game = position(*PRR_TRACK)
    only(game, "PRR", "S8")
    own_lay(game, "B14", "57", {1, 4})  # PRR's first tile action
    assert set(offered_tiles(game, "S8", "B14")) == {"14", "15", "619"}
    card_lay(game, "S8", "B14", "15", {1, 4})
    assert game.board.hexes["B14"].tile.name == "15" and game.companies["S8"].closed
    assert next_price(game, "B12") == 20 and game.corporations["PRR"].cash == 300  # free, no action


def test_s8_only_at_home_and_gone_after_the_first_track_step() -> None:
    game = fargo("S8")
    station(game, "PRR", "E23")
    put(game, "E23", "57", {1, 4})
    refused(game, lay("S8", "E23", tile_id(game, "15"), 1, company=True),
            "the Boomtown subsidy upgrades the home city")
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})
    assert not game.owns(game.corporations["PRR"], "S8")


# --- P16 -------------------------------------------------------------------------------------
def test_p16_lays_the_regional_hq_from_phase_5_with_a_tile_action_and_closes() -> None:
    game = fargo("P16")
    put(game, "B14", "15", {1, 4})
    refused(game, lay("P16", "B14", tile_id(game, "X23"), 0, company=True), "from phase 5")
    in_phase(game, "5")
    assert offered_tiles(game, "P16", "B14")["X23"]["rotations"] == [0, 1, 2, 3, 4, 5]
    played(game, lay("P16", "B14", tile_id(game, "X23"), 3, company=True))
    state = game.board.hexes["B14"]
    assert state.tile.name == "X23" and "PRR" in state.corporations_here()
    assert len(state.tokens[0]) == 3
    assert not game.owns(game.corporations["PRR"], "P16")
    assert next_price(game, "B12") == 20  # it was PRR's first tile action


def test_p16_only_on_a_green_or_brown_city() -> None:
    game = fargo("P16")
    in_phase(game, "5")
    refused(game, lay("P16", "B14", tile_id(game, "X23"), 0, company=True),
            "the Regional HQ tile replaces a green or brown city")


# --- P17 -------------------------------------------------------------------------------------
def test_p17_lays_one_extra_yellow_tile_a_round_on_a_gn_hex_free_of_terrain() -> None:
    game = fargo("P17")
    to_helena(game)
    put(game, "B8", "57", {1, 4})  # Helena's track points at B6 (coal, $15 mountain)
    assert offered_tiles(game, "PRR", "B6")["7"]["cost"] == 15
    assert offered_tiles(game, "P17", "B6")["7"]["cost"] == 0
    assert "E23" not in lay_hexes(game, "P17")
    card_lay(game, "P17", "B6", "7", {4})
    assert next_price(game) == 0  # outside PRR's tile actions
    refused(game, lay("P17", "B16", tile_id(game, "9"), 1, company=True),
            "P17 lays one extra tile per operating round")
    assert game.owns(game.corporations["PRR"], "P17")  # it stays for the next round


def test_p17s_tile_may_carry_the_companys_resource_token() -> None:
    game = fargo("P17", "P1")
    card_lay(game, "P17", "B12", "9coal", {1, 4})
    assert not game.owns(game.corporations["PRR"], "P1")
    assert next_price(game, "B16") == 0


def test_p17s_route_bonus_goes_to_the_best_run_once() -> None:
    game = fargo("P17")
    fargo_stop, helena, seattle, chicago = (("B14", "city", 0), ("B8", "city", 0), ("B2", "offboard", 0),
                                            ("D20", "city", 0))
    runs = [("2-0", [fargo_stop, helena]), ("3-0", [seattle, helena, fargo_stop, chicago]),
            ("4-0", [helena, fargo_stop])]
    assert great_northern_bonus(game.umap, runs) == {"3-0": 60}
    assert great_northern_bonus(game.umap, [runs[0], runs[2]]) == {"2-0": 30}
    assert great_northern_bonus(game.umap, [("2-0", [fargo_stop, chicago])]) == {}


# --- P26 -------------------------------------------------------------------------------------
def test_p26_lays_rural_junctions_with_tile_actions_and_closes_after_the_third() -> None:
    game = fargo("P26")
    to_helena(game)
    assert "X07" in offered_tiles(game, "P26", "B8")
    card_lay(game, "P26", "B8", "X07", {4})
    assert next_price(game) == 20  # it used PRR's first tile action
    p26 = game.companies["P26"]
    assert game.owns(game.corporations["PRR"], "P26")
    p26.uses["junction"] = 2
    station(game, "PRR", "I19")  # New Orleans, whose track reaches Memphis-side H20
    played(game, lay("P26", "H20", tile_id(game, "X08"), offered_tiles(game, "P26", "H20")["X08"]["rotations"][0],
                     company=True))
    assert not game.owns(game.corporations["PRR"], "P26")


@pytest.mark.parametrize(("coord", "message"), [
    ("B14", "a rural junction goes on an empty city hex"),
    ("E15", "has a station"),
    ("C9", "a rural junction goes on an empty city hex"),
])
def test_p26_refuses_a_tiled_city_a_station_and_plain_hexes(coord: str, message: str) -> None:
    game = fargo("P26")
    station(game, "PRR", "E17")
    put(game, "E17", "57", {1, 4})
    refused(game, lay("P26", coord, tile_id(game, "X07"), 0, company=True), message)


def test_p26_not_next_to_another_rural_junction_nor_on_the_home() -> None:
    game = fargo("P26")
    refused(game, lay("P26", "B14", tile_id(game, "X08"), 0, company=True), "empty city hex")
    station(game, "PRR", "I19")  # New Orleans, whose track reaches H20
    assert "H20" in lay_hexes(game, "P26")
    junction = game.board.tiles["X07"]
    game.board.place_tile("H22", junction, "X07-0", 0)  # a rural junction beside H20
    refused(game, lay("P26", "H20", tile_id(game, "X08"), 0, company=True),
            "a rural junction may not be next to another \\(H22\\)")
    assert "H20" not in lay_hexes(game, "P26")


def test_p26_junction_is_a_10_stop_of_no_distance_that_takes_no_station() -> None:
    game = fargo("P26")
    to_helena(game)
    card_lay(game, "P26", "B8", "X07", {4})
    state = game.board.hexes["B8"]
    stop = state.tile.stops[0]
    assert (stop.revenue_in(("yellow",)), stop.distance_cost, list(state.tile.cities)) == (10, 0, [])
    junction, fargo_city = ("B8", "town", 0), ("B14", "city", 0)
    assert stop_value(game.umap, "PRR", junction, "5", pullman=True) == stop_value(game.umap, "PRR", junction, "5") == 10
    assert stop_value(game.umap, "PRR", fargo_city, "5", pullman=True) == stop_value(game.umap, "PRR", fargo_city, "5") + 20


# --- P27 -------------------------------------------------------------------------------------
def test_p27_lays_a_company_town_with_a_tile_action_and_a_bonus_station() -> None:
    game = fargo("P27")
    prr = game.corporations["PRR"]
    tokens = prr.token_count
    card_lay(game, "P27", "B16", "X20", {1})
    state = game.board.hexes["B16"]
    assert state.tile.name == "X20" and sorted(map(str, state.tokens[0])) == ["(neutral)", "PRR"]
    assert prr.token_count == tokens + 1
    assert not game.owns(prr, "P27")
    assert next_price(game, "B12") == 20
    # Others earn $10 less there.
    node = ("B16", "city", 0)
    assert stop_value(game.umap, "NP", node, "2") == stop_value(game.umap, "PRR", node, "2") - 10


def test_p27s_company_town_is_worth_30_40_50_by_phase() -> None:
    game = fargo("P27")
    card_lay(game, "P27", "B16", "X20", {1})
    node = ("B16", "city", 0)
    assert [stop_value(game.umap, "PRR", node, phase) for phase in ("2", "3", "4", "5", "8")] == [30, 40, 40, 50, 50]


def test_p27_no_bonus_station_for_a_company_with_eight() -> None:
    game = fargo("P27")
    game.corporations["PRR"].token_count = 8
    card_lay(game, "P27", "B16", "X20", {1})
    assert "PRR" not in game.board.hexes["B16"].corporations_here()
    assert game.corporations["PRR"].token_count == 8


@pytest.mark.parametrize("site", [False, True], ids=["printed", "site_company_town_stations"])
def test_no_ordinary_station_on_a_company_town_but_by_the_sites_reading(site: bool) -> None:
    """P27's card: other companies "cannot token there"; its slots are the neutral token's and
    the bonus station's. Here the bonus station was not placed (eight stations), so a slot is open."""
    game = fargo("P27", site=site)
    game.corporations["PRR"].token_count = 8
    to_helena(game)
    put(game, "B8", "57", {1, 4})  # an open city PRR reaches, so its station step is on
    card_lay(game, "P27", "B16", "X20", {1})
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})  # the track step
    offered = {choice["hex"] for move in moves_of(game, "place_token", "PRR") for choice in move["choices"]}
    assert offered == ({"B8", "B16"} if site else {"B8"})
    city = {"type": "place_token", "entity": "PRR", "entity_type": "corporation",
            "city": f"{game.board.hexes['B16'].tile_id}-0", "slot": 1}
    if site:
        played(game, city)
        assert "PRR" in game.board.hexes["B16"].corporations_here()
    else:
        refused(game, city, "no station may be placed on the Company Town in B16")


def test_p27_not_next_to_a_metropolis_nor_on_a_station() -> None:
    game = fargo("P27")
    station(game, "PRR", "H22")
    put(game, "H22", "57", {0, 3})  # toward I21, beside New Orleans (I19, a metropolis)
    refused(game, lay("P27", "I21", tile_id(game, "X20"), 0, company=True), "next to the metropolis I19")
    refused(game, lay("P27", "H22", tile_id(game, "X20"), 0, company=True), "an empty hex with no tile and no station")


# --- lays beyond the normal ones, together ---------------------------------------------------
def test_p17s_extra_lay_p7s_three_actions_and_p9s_free_upgrade_add_up_in_one_turn() -> None:
    """P17's tile and P9's upgrade are outside the tile actions (their cards), so with P7 the
    company lays five times in a turn, paying only P7's $20 for its second action."""
    game = fargo("P7", "P17", "P9")
    card_lay(game, "P17", "B12", "9", {1, 4})
    assert next_price(game, "B10") == 0  # PRR's own first action is still to come
    own_lay(game, "B10", "9", {1, 4})
    assert next_price(game, "B16") == 20
    own_lay(game, "B16", "9", {1, 4})
    assert next_price(game, "B18") == 0
    own_lay(game, "B18", "9", {1, 4})
    assert moves_of(game, "lay_tile", "P9") and not moves_of(game, "lay_tile", "PRR")
    card_lay(game, "P9", "B14", "619", {1, 4})
    assert game.board.hexes["B14"].tile.name == "619" and game.companies["P9"].closed
    assert game.corporations["PRR"].cash == 300 - 20

"""Rule 12.3 (station tokens) and the Free Station subsidy on the 18USA board."""

from __future__ import annotations

import pytest
from usa_map_helpers import PRINTED, station, usa_map

from engine.core.graph import reach_of
from engine.errors import GameError
from engine.titles.g18usa.stations import check_station, city_of, place_station


def test_12_3_one_station_per_hex_even_in_new_yorks_two_cities() -> None:
    umap = usa_map()
    station(umap, "PRR", "D28", 0)
    with pytest.raises(GameError, match="already has a station in D28"):
        check_station(umap, "PRR", "D28", 1, None)
    assert check_station(umap, "NYC", "D28", 1, None).slot == 0


def test_12_3_no_station_in_small_cities_or_rural_junctions() -> None:
    umap = usa_map()
    with pytest.raises(GameError, match="small cities and rural junctions"):
        check_station(umap, "PRR", "C23", 0, None)  # Detroit
    junction = umap.board.tiles["X07"]
    umap.board.place_tile("E23", junction, "X07-0", 0)
    with pytest.raises(GameError, match="is not a city"):
        city_of(umap, "X07-0-0")


def test_12_3_a_station_needs_a_route_and_an_open_slot() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    with pytest.raises(GameError, match="no route to the city in C29"):
        check_station(umap, "PRR", "C29", 0, reach_of(umap.board, "PRR"))
    station(umap, "NYC", "C29")
    with pytest.raises(GameError, match="no open slot"):
        check_station(umap, "PRR", "C29", 0, None)


def test_free_station_goes_into_a_full_city_and_takes_a_real_slot_when_one_opens() -> None:
    umap = usa_map()
    station(umap, "NYC", "E23")
    place = check_station(umap, "PRR", "E23", 0, None, source="S9")
    assert place.extra
    place_station(umap, "PRR", place)
    state = umap.board.hexes["E23"]
    assert state.tokens[0] == ["NYC", "PRR"]
    assert umap.board.city_is_blocked_for("E23", 0, "UP")
    five = umap.board.tiles["5"]
    umap.board.place_tile("E23", five, "5-0", 0)  # a yellow city still has one slot
    assert sorted(t for t in state.tokens[0] if t) == ["NYC", "PRR"]
    green = umap.board.tiles["14"]
    umap.board.place_tile("E23", green, "14-0", umap.board.legal_rotations(state, green)[0])
    assert state.tokens[0] == ["NYC", "PRR"] and len(state.tokens[0]) == green.cities[0].slots
    assert umap.board.city_is_blocked_for("E23", 0, "UP")


def test_free_station_not_onto_a_company_town_nor_p20_into_an_open_city() -> None:
    umap = usa_map(options=PRINTED)  # P20 as printed (site_p20_open_city lets it into an open city)
    town = umap.board.tiles["X20"]
    umap.board.place_tile("E25", town, "X20-0", 0)
    station(umap, "NYC", "E25")
    with pytest.raises(GameError, match="Company Town"):
        check_station(umap, "PRR", "E25", 0, None, source="S9")
    with pytest.raises(GameError, match="only in a city with no open slot"):
        check_station(umap, "PRR", "E23", 0, None, source="P20")
    # The site's reading (site_p20_open_city) lets P20 use an open slot as well.
    assert not check_station(usa_map(), "PRR", "E23", 0, None, source="P20").extra


def test_removing_a_station_lets_an_extra_one_move_into_the_slot() -> None:
    umap = usa_map()
    station(umap, "NYC", "E23")
    place_station(umap, "PRR", check_station(umap, "PRR", "E23", 0, None, source="S9"))
    assert umap.board.remove_token("E23", 0, 0) == "NYC"
    assert umap.board.hexes["E23"].tokens[0] == ["PRR"]


def test_two_stations_with_no_track_between_them_give_no_route() -> None:
    from engine.core.graph import can_run_a_route

    umap = usa_map()
    station(umap, "PRR", "E23")
    assert not can_run_a_route(umap.board, "PRR")
    station(umap, "PRR", "C29")  # far away, nothing laid between
    assert not can_run_a_route(umap.board, "PRR")

"""The 18USA map and tiles in the core board model, with a dealt setup on it."""

from __future__ import annotations

import pytest

from engine.core.board import Board, HexState
from engine.core.tiles import StopDef
from engine.titles.g18usa.board_setup import lay_metropolis_tiles, map_with_red_area_values
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import SETUP_OPTIONS, UsaSetup, setup_from_seed

PLAYERS = [{"id": n, "name": f"Player {n}"} for n in range(1, 5)]


def dealt(seed: int = 109372) -> UsaSetup:
    return setup_from_seed(seed, PLAYERS, SETUP_OPTIONS)


def board_for(setup: UsaSetup) -> Board:
    data = load_data()
    board = Board(map_with_red_area_values(data["map"], setup), data["tiles"])
    lay_metropolis_tiles(board, setup)
    return board


def phase_colors() -> dict[str, tuple[str, ...]]:
    return {raw["name"]: tuple(raw["tiles"]) for raw in load_data()["entities"]["phases"]}


def only_stop(state: HexState) -> StopDef:
    (stop,) = state.tile.stops
    return stop


def test_the_whole_map_and_every_tile_load() -> None:
    board = board_for(dealt())
    assert len(board.hexes) == 114 and len(board.tiles) == 96
    assert board.tiles["8"].count is None and board.tiles["X01"].count == 1
    # The map data itself is untouched by the filled-in copy.
    assert load_data()["map"]["hexes"][0]["coord"] == "A15"
    assert load_data()["map"]["hexes"][0]["towns"][0]["revenue"] == "from_value_token"


@pytest.mark.parametrize("seed", [109372, 8600, 1])
def test_2_6_red_areas_are_worth_their_token_in_each_phase(seed: int) -> None:
    setup = dealt(seed)
    board = board_for(setup)
    column = {"2": 0, "2+": 0, "3": 1, "3+": 1, "4": 1, "4+": 1, "5": 2, "6": 2, "7": 3, "8": 3}
    for area in setup.red_areas:
        for hex_id in area.hexes:
            stop = only_stop(board.hexes[hex_id])
            for phase, colors in phase_colors().items():
                assert stop.revenue_in(colors) == area.values[column[phase]], (hex_id, phase)
    mexico = [only_stop(board.hexes[h]) for h in ("I5", "I7", "I9", "I11", "J12", "K13")]
    assert all(stop.kind == "offboard" and stop.must_end_here and stop.groups == ("Mexico",) for stop in mexico)
    assert only_stop(board.hexes["A15"]).kind == "town"


def test_gray_small_cities_have_four_phase_values_and_the_sea_is_never_counted() -> None:
    board = board_for(dealt())
    detroit = only_stop(board.hexes["C23"])
    assert [detroit.revenue_in(colors) for colors in phase_colors().values()] == [30, 30, 40, 40, 40, 40, 50, 50, 60, 60]
    assert only_stop(board.hexes["F28"]).distance_cost == 99


@pytest.mark.parametrize("seed", [109372, 8600, 1, 2, 3])
def test_2_4_metropolis_tiles_are_laid_in_a_legal_rotation(seed: int) -> None:
    setup = dealt(seed)
    fresh = Board(load_data()["map"], load_data()["tiles"])
    board = board_for(setup)
    for metropolis in setup.metropolis_tiles:
        tile = board.tiles[metropolis.tile]
        assert metropolis.rotation in fresh.legal_rotations(fresh.hexes[metropolis.hex], tile)
        state = board.hexes[metropolis.hex]
        assert (state.tile.name, state.tile_id, state.rotation) == (
            metropolis.tile, f"{metropolis.tile}-0", metropolis.rotation)
        assert state.tile_laid and board.free_copy(metropolis.tile) is None
    for undrawn in setup.undrawn_metropolises:
        assert not board.hexes[undrawn.hex].tile_laid


def test_new_york_double_city_keeps_its_tokens_apart_when_upgraded() -> None:
    board = board_for(dealt())
    new_york = board.hexes["D28"]
    assert [city.slots for city in new_york.tile.cities] == [1, 1]
    assert board.upgrade_targets(new_york) == ("X12",)
    new_york.tokens[1][0] = "NYC"  # the city on the west edge
    rotations = board.legal_rotations(new_york, board.tiles["X12"])
    assert rotations
    board.place_tile("D28", board.tiles["X12"], "X12-0", rotations[0])
    west_city = next(index for index, city in enumerate(new_york.tile.cities)
                     if (("edge", 1), ("city", city.index)) in new_york.paths())
    assert new_york.tokens[west_city][0] == "NYC"
    assert [city.slots for city in new_york.tile.cities] == [2, 1]


def test_rural_junction_and_company_town_tiles() -> None:
    board = board_for(dealt())
    junction = board.tiles["X07"].towns[0]
    assert (junction.revenue, junction.distance_cost) == (10, 0)
    town = board.tiles["X20"].cities[0]
    assert town.slots == 2
    assert [town.revenue_in(colors) for colors in phase_colors().values()] == [30, 30, 40, 40, 40, 40, 50, 50, 50, 50]
    assert board.tiles["X20"].label == "C.T." and board.tiles["X23"].label == "RHQ"


def test_stub_edges_force_an_exit_toward_new_york() -> None:
    board = board_for(dealt())
    for name in ("7", "8", "9"):
        rotations = board.legal_rotations(board.hexes["E27"], board.tiles[name])
        assert rotations and all(3 in board.tiles[name].exits(r) for r in rotations)


def test_resource_variants_keep_their_base_track() -> None:
    board = board_for(dealt())
    for name, tile in board.tiles.items():
        raw = next(raw for raw in load_data()["tiles"]["tiles"] if raw["name"] == name)
        if raw["kind"] == "resource":
            assert tile.paths == board.tiles[raw["base_tile"]].paths and tile.stops == ()


def test_tiles_carry_several_labels_special_upgrades_and_neutral_slots() -> None:
    board = board_for(dealt())
    assert board.tiles["X03"].labels == ("DFW",)
    combined = next(tile for tile in board.tiles.values() if set(tile.labels) == {"coal", "ore"})
    assert combined.kind == "resource"
    assert board.tiles["7ore10"].upgrades_special == ("7ore20",)
    assert board.tiles["X01"].upgrades_special == ("592",) and board.tiles["X01"].upgrades_to == ()
    assert board.tiles["X20"].neutral_slots == (0,) and board.tiles["14"].neutral_slots == ()
    # A hex's printed resource icons are not labels of its printed tile.
    assert board.hexes["B10"].tile.labels == ()


def test_a_stop_revalued_in_play_changes_only_that_hex() -> None:
    board = board_for(dealt())
    board.revalue_stop("A27", "offboard", 0, (("yellow", 70), ("gray", 90)))
    assert only_stop(board.hexes["A27"]).revenue_in(("yellow",)) == 70
    assert only_stop(board.hexes["A27"]).revenue_in(("yellow", "green", "brown", "gray")) == 90
    assert board.hexes["A27"].hexdef.printed.stops[0].revenue != (("yellow", 70), ("gray", 90))

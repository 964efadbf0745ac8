"""Rule 13: resource tokens (coal, oil, ore) and bridges on the 18USA board."""

from __future__ import annotations

import pytest
from usa_map_helpers import PRINTED, SITE, lay, rotation_for, station, turn, usa_map
from usa_positions import logged_action
from usa_tracecheck import position_in

from engine.core.routes import rebuild_run
from engine.errors import GameError
from engine.titles.g18usa.resources import check_resource_lay
from engine.titles.g18usa.revenue import RunTrain, run_value, track_bonuses
from engine.titles.g18usa.stations import check_bridge, place_bridge
from engine.titles.g18usa.track import check_lay
from engine.titles.g18usa.usa_map import UsaMap


def cleveland_with_track(options: frozenset[str] = SITE) -> UsaMap:
    """PRR in Cleveland (D24) with track toward D26 (coal, mountain) and E25 (coal, mountain)."""
    umap = usa_map(options=options)
    station(umap, "PRR", "D24")
    state = umap.board.hexes["D24"]
    tile = umap.board.tiles["15"]
    rotation = next(r for r in umap.board.legal_rotations(state, tile) if {4, 5} <= tile.exits(r))
    umap.board.place_tile("D24", tile, "15-0", rotation)
    return umap


def test_13_1_coal_goes_with_a_yellow_lay_on_a_coal_hex_and_waives_15() -> None:
    umap = cleveland_with_track()
    rotation = rotation_for(umap, "D26", "9coal", {1, 4})  # into Cleveland and into New York
    coal = check_lay(umap, turn(companies=("P1",)), "PRR", "D26", "9coal-0", rotation)
    assert (coal.cost, coal.action, coal.nature) == (0, True, "resource")
    plain = check_lay(umap, turn(), "PRR", "D26", "9-0", rotation_for(umap, "D26", "9", {1, 4}))
    assert plain.cost == 15
    with pytest.raises(GameError, match="no coal token"):
        check_lay(umap, turn(), "PRR", "D26", "9coal-0", rotation)
    with pytest.raises(GameError, match="tiles that can: 7coal, 8coal, 9coal"):
        check_lay(umap, turn(companies=("P3",)), "PRR", "D26", "9oil-0", rotation)


def test_13_1_p5_gives_nothing_more_when_coal_already_waives_the_mountain() -> None:
    umap = cleveland_with_track()
    rotation = rotation_for(umap, "D26", "9coal", {1, 4})
    assert check_lay(umap, turn(companies=("P1", "P5")), "PRR", "D26", "9coal-0", rotation).cost == 0


@pytest.mark.parametrize("options", [SITE, PRINTED], ids=["site", "printed"])
def test_13_1_the_track_must_point_into_a_city_hex(options: frozenset[str]) -> None:
    umap = usa_map(options=options)
    state = umap.board.hexes["E25"]
    tile = umap.board.tiles["7coal"]
    # E25 touches Columbus (edge 1), Cleveland (2) and Norfolk-side F26 (5); D26 (3) and E27 (4)
    # are plain track hexes.
    away = next(r for r in umap.board.legal_rotations(state, tile) if tile.exits(r) == {3, 4})
    into = next(r for r in umap.board.legal_rotations(state, tile) if tile.exits(r) == {2, 3})
    with pytest.raises(GameError, match="must point into a city hex"):
        check_resource_lay(umap, turn(companies=("P1",)), state, tile, away, "PRR")
    check_resource_lay(umap, turn(companies=("P1",)), state, tile, into, "PRR")


def test_13_1_site_reading_counts_a_rural_junction_as_the_city() -> None:
    for options, accepted in ((SITE, True), (PRINTED, False)):
        umap = usa_map(options=options)
        junction = umap.board.tiles["X07"]
        cleveland = umap.board.hexes["D24"]
        rotation = next(r for r in range(6) if 5 in junction.exits(r)
                        and junction.exits(r) <= set(cleveland.hexdef.connectable))
        umap.board.place_tile("D24", junction, "X07-0", rotation)
        state = umap.board.hexes["E25"]
        tile = umap.board.tiles["7coal"]
        # Into the junction in Cleveland (edge 2) and the plain hex D26 (edge 3).
        toward = next(r for r in umap.board.legal_rotations(state, tile) if tile.exits(r) == {2, 3})
        if accepted:
            check_resource_lay(umap, turn(companies=("P1",)), state, tile, toward, "PRR")
        else:
            with pytest.raises(GameError, match="must point into a city hex"):
                check_resource_lay(umap, turn(companies=("P1",)), state, tile, toward, "PRR")


def test_13_1_coal_tiles_upgrade_to_coal_tiles_and_oil_doubles_from_phase_5() -> None:
    umap = cleveland_with_track()
    lay(umap, turn(companies=("P1",)), "D26", "9coal", rotation_for(umap, "D26", "9coal", {1, 4}))
    upgrade_rotation = rotation_for(umap, "D26", "82coal", {1, 4})
    with pytest.raises(GameError, match="tiles that can: 82coal, 83coal"):
        check_lay(umap, turn(phase="3"), "PRR", "D26", "82-0", upgrade_rotation)
    check_lay(umap, turn(phase="3"), "PRR", "D26", "82coal-0", upgrade_rotation)
    assert track_bonuses(umap, "2") == {"D26": 10}


def test_13_2_oil_is_worth_10_then_20_from_phase_5() -> None:
    umap = usa_map()
    state = umap.board.hexes["G15"]
    tile = umap.board.tiles["7oil"]
    umap.board.place_tile("G15", tile, "7oil-0", umap.board.legal_rotations(state, tile)[0])
    assert track_bonuses(umap, "4") == {"G15": 10}
    assert track_bonuses(umap, "5") == {"G15": 20}


def test_13_3_ore_is_upgraded_to_20_by_a_tile_action_from_phase_3_and_never_changes_colour() -> None:
    umap = usa_map()
    station(umap, "PRR", "E7")  # ore hex E5 is next to Salt Lake City? E7's edge 1 is E5
    state = umap.board.hexes["E7"]
    five = umap.board.tiles["5"]
    umap.board.place_tile("E7", five, "5-0", next(r for r in umap.board.legal_rotations(state, five)
                                                  if 1 in five.exits(r)))
    rotation = rotation_for(umap, "E5", "7ore10", {4})
    ore = lay(umap, turn(companies=("P4",)), "E5", "7ore10", rotation)
    assert ore.cost == 0  # E5's $15 mountain waived
    assert track_bonuses(umap, "3") == {"E5": 10}
    with pytest.raises(GameError, match="only from phase 3"):
        check_lay(umap, turn(), "PRR", "E5", "7ore20-0", rotation)
    with pytest.raises(GameError, match="tiles that can: 7ore20"):
        check_lay(umap, turn(phase="3"), "PRR", "E5", "80-0", rotation)
    upgrade = lay(umap, turn(phase="3"), "E5", "7ore20", rotation)
    assert upgrade.upgrade and upgrade.action
    assert track_bonuses(umap, "3") == {"E5": 20}


def test_13_resource_subsidy_lay_is_free_and_outside_the_tile_actions() -> None:
    umap = cleveland_with_track()
    rotation = rotation_for(umap, "D26", "9coal", {1, 4})
    assert "coal" in umap.setup.resource_subsidy_resources
    subsidy = check_lay(umap, turn(companies=("S16",)), "PRR", "D26", "9coal-0", rotation)
    assert (subsidy.cost, subsidy.action, subsidy.nature) == (0, False, "S16")


def test_13_4_bridges_add_10_to_a_river_city_not_new_orleans_while_a_metropolis() -> None:
    umap = usa_map()
    station(umap, "PRR", "D14")
    station(umap, "PRR", "I19")
    reach = None
    with pytest.raises(GameError, match="not a river hex"):
        check_bridge(umap, "PRR", "P2", "E23", reach)
    with pytest.raises(GameError, match="not on plain track"):
        check_bridge(umap, "PRR", "P2", "E21", reach)
    with pytest.raises(GameError, match="New Orleans while it is a metropolis"):
        check_bridge(umap, "PRR", "P2", "I19", reach)
    with pytest.raises(GameError, match="no bridge token"):
        check_bridge(umap, "PRR", "P5", "D14", reach)
    state = umap.board.hexes["D14"]
    five = umap.board.tiles["5"]
    umap.board.place_tile("D14", five, "5-0", umap.board.legal_rotations(state, five)[0])
    check_bridge(umap, "PRR", "P2", "D14", reach)
    place_bridge(umap, "P2", "D14")
    with pytest.raises(GameError, match="already has a bridge"):
        check_bridge(umap, "PRR", "P22", "D14", reach)


def test_13_4_a_bridged_city_is_worth_10_more_on_every_companys_run() -> None:
    umap = usa_map()
    for coord, edge in (("E15", 4), ("E17", 1)):
        state = umap.board.hexes[coord]
        five = umap.board.tiles["5"]
        rotation = next(r for r in umap.board.legal_rotations(state, five) if edge in five.exits(r))
        umap.board.place_tile(coord, five, f"5-{umap.board.free_copy('5')}", rotation)
    station(umap, "PRR", "E15")
    stops, paths = rebuild_run(umap.board, [["E15", "E17"]], set())
    train = RunTrain("2-0", 2)
    assert run_value(umap, "PRR", "2", train, stops, paths) == 40
    place_bridge(umap, "P2", "E17")
    assert run_value(umap, "PRR", "2", train, stops, paths) == 50
    # The bridge stays through an upgrade.
    state = umap.board.hexes["E17"]
    green = umap.board.tiles["15"]
    umap.board.place_tile("E17", green, "15-0", umap.board.legal_rotations(state, green)[0])
    assert [marker.kind for marker in state.markers] == ["bridge"]


def test_13_1_p17s_extra_lay_of_a_coal_tile_uses_the_companys_coal_token() -> None:
    """DRG lays 8coal with P17 (s8504, action 548): P1's one coal token is used and P1 closes;
    P18's two tokens wait."""
    game = position_in("s8504", 548)
    assert {"P1", "P17", "P18"} <= {c.id for c in game.companies_of(game.corporations["DRG"])}
    game.apply(logged_action("s8504", 548))
    held = {c.id for c in game.companies_of(game.corporations["DRG"])}
    assert "P1" not in held and {"P17", "P18"} <= held


def test_13_a_privates_token_is_used_before_the_resource_subsidys_lay() -> None:
    """MILW (S16 offering oil, P3 with one oil token) lays 8oil (s8504, action 653): P3's token
    is used and P3 closes; the subsidy stays for a later lay."""
    game = position_in("s8504", 653)
    milw = game.corporations["MILW"]
    assert {"P3", "S16"} <= {c.id for c in game.companies_of(milw)}
    game.apply(logged_action("s8504", 653))
    held = {c.id for c in game.companies_of(milw)}
    assert "P3" not in held and "S16" in held

"""Rule 12.2 (lay or upgrade track) on the 18USA board, both readings where they differ."""

from __future__ import annotations

import pytest
from usa_map_helpers import DENVER_SEED, PRINTED, SITE, lay, rotation_for, station, turn, usa_map

from engine.errors import GameError
from engine.titles.g18usa.track import LayRecord, check_lay, legal_lays
from engine.titles.g18usa.usa_map import UsaMap


def boston(phase: str = "2", companies: tuple[str, ...] = (), options: frozenset[str] = SITE) -> UsaMap:
    umap = usa_map(options=options)
    station(umap, "PRR", "C29")
    return umap


def put(umap: UsaMap, coord: str, tile: str, needs: set[int]) -> None:
    umap.board.place_tile(coord, umap.board.tiles[tile], f"{tile}-{umap.board.free_copy(tile)}",
                          rotation_for(umap, coord, tile, needs))


def test_12_2_a_second_tile_action_costs_20_and_there_is_no_third() -> None:
    umap = boston()
    first = lay(umap, turn(), "C29", "6", rotation_for(umap, "C29", "6", {1, 3}))
    assert (first.cost, first.action, first.upgrade) == (0, True, False)
    records = (first.record(umap, "PRR"),)
    second = lay(umap, turn(lays=records), "C27", "7", rotation_for(umap, "C27", "7", {4}))
    assert second.cost == 20 + 15  # the second action's fee and C27's mountain
    records += (second.record(umap, "PRR"),)
    with pytest.raises(GameError, match="used its 2 tile actions"):
        # B28 is reached through the gray track of B30.
        check_lay(umap, turn(lays=records), "PRR", "B28", f"7-{umap.board.free_copy('7')}",
                  rotation_for(umap, "B28", "7", {4}))


def test_12_2_only_one_action_may_be_an_upgrade_and_not_twice_in_one_hex() -> None:
    umap = boston()
    put(umap, "C29", "57", {0, 3})
    put(umap, "B28", "7", {5})
    upgrade = lay(umap, turn(phase="3"), "C29", "15", rotation_for(umap, "C29", "15", {0, 3}))
    assert upgrade.upgrade and upgrade.cost == 0
    records = (upgrade.record(umap, "PRR"),)
    with pytest.raises(GameError, match="at most one of the tile actions may be an upgrade"):
        check_lay(umap, turn(phase="3", lays=records), "PRR", "D28", "X12-0",
                  rotation_for(umap, "D28", "X12", set()))
    # P11: a second upgrade, but not a second city.
    with pytest.raises(GameError, match="only one of the two upgrades may be on a city"):
        check_lay(umap, turn(phase="3", companies=("P11",), lays=records), "PRR", "D28", "X12-0",
                  rotation_for(umap, "D28", "X12", set()))
    records_yellow = (LayRecord("B28", False, True, False, "PRR"),)
    with pytest.raises(GameError, match="already had a tile this turn"):
        check_lay(umap, turn(phase="3", lays=records_yellow), "PRR", "B28", "80-0",
                  rotation_for(umap, "B28", "80", {5}))


def test_12_2_p7_gives_three_actions_for_20() -> None:
    umap = boston()
    records = (LayRecord("C29", False, True, True, "PRR"), LayRecord("C27", False, True, False, "PRR"))
    put(umap, "C29", "57", {0, 3})
    put(umap, "C27", "7", {4, 3})
    seven = f"7-{umap.board.free_copy('7')}"
    third = check_lay(umap, turn(companies=("P7",), lays=records), "PRR", "B28", seven,
                      rotation_for(umap, "B28", "7", {5}))
    assert third.cost == 15  # free third action; B28's mountain
    with pytest.raises(GameError, match="used its 2"):
        check_lay(umap, turn(lays=records), "PRR", "B28", seven, rotation_for(umap, "B28", "7", {5}))


@pytest.mark.parametrize(("coord", "companies", "cost"), [
    ("C27", (), 15), ("C27", ("P5",), 0), ("B28", ("P2",), 15),
])
def test_12_2_1_terrain_is_paid_on_the_first_tile_less_the_privates_waivers(
        coord: str, companies: tuple[str, ...], cost: int) -> None:
    umap = boston()
    put(umap, "C29", "5", {1, 2})
    edge = {"C27": 4, "B28": 5}[coord]
    checked = check_lay(umap, turn(companies=companies), "PRR", coord, "7-0", rotation_for(umap, coord, "7", {edge}))
    assert checked.cost == cost


def test_12_2_1_water_waived_by_bridge_privates_lake_never_and_upgrades_pay_nothing() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    put(umap, "E23", "5", {1})
    rotation = rotation_for(umap, "E21", "7", {4})
    assert check_lay(umap, turn(), "PRR", "E21", "7-0", rotation).cost == 10
    assert check_lay(umap, turn(companies=("P22",)), "PRR", "E21", "7-0", rotation).cost == 0
    lay(umap, turn(), "E21", "7", rotation)
    upgrade = check_lay(umap, turn(phase="3"), "PRR", "E21", "80-0", rotation_for(umap, "E21", "80", {4}))
    assert upgrade.cost == 0


def test_12_2_1_track_must_extend_a_route_of_the_company() -> None:
    umap = boston()
    with pytest.raises(GameError, match="not connected to PRR's track"):
        check_lay(umap, turn(), "PRR", "E23", "5-0", 0)


def test_12_2_2_upgrades_keep_the_old_track() -> None:
    umap = boston()
    put(umap, "C29", "57", {0, 3})
    kept = rotation_for(umap, "C29", "15", {0, 3})
    broken = next(r for r in range(6) if not {0, 3} <= umap.board.tiles["15"].exits(r))
    check_lay(umap, turn(phase="3"), "PRR", "C29", "15-0", kept)
    with pytest.raises(GameError, match="keep the old track"):
        check_lay(umap, turn(phase="3"), "PRR", "C29", "15-0", broken)


def test_12_2_2_cleveland_goes_brown_only_with_its_own_tile() -> None:
    umap = usa_map()
    station(umap, "PRR", "D24")
    put(umap, "D24", "15", {0, 1})
    with pytest.raises(GameError, match="tiles that can: X13"):
        check_lay(umap, turn(phase="5"), "PRR", "D24", "63-0", 0)
    check_lay(umap, turn(phase="5"), "PRR", "D24", "X13-0", rotation_for(umap, "D24", "X13", {0, 1, 4, 5}))


@pytest.mark.parametrize("options", [SITE, PRINTED], ids=["site", "printed"])
def test_12_2_2_a_city_going_brown_takes_the_most_exits_that_fit(options: frozenset[str]) -> None:
    umap = usa_map(options=options)
    station(umap, "PRR", "E23")
    put(umap, "E23", "15", {0, 1})
    with pytest.raises(GameError, match="as many exits as fit"):
        check_lay(umap, turn(phase="5"), "PRR", "E23", "448-0", rotation_for(umap, "E23", "448", {0, 1}))
    check_lay(umap, turn(phase="5"), "PRR", "E23", "63-0", 0)


def test_12_2_2_plain_track_max_exits_only_in_the_sites_reading() -> None:
    for options, refused in ((SITE, True), (PRINTED, False)):
        umap = usa_map(options=options)
        station(umap, "PRR", "E23")
        put(umap, "E23", "5", {1})
        put(umap, "E21", "545", {4})
        rotation = rotation_for(umap, "E21", "X17", {4})
        if refused:
            with pytest.raises(GameError, match="as many exits as fit"):
                check_lay(umap, turn(phase="7"), "PRR", "E21", "X17-0", rotation)
        else:
            check_lay(umap, turn(phase="7"), "PRR", "E21", "X17-0", rotation)
        check_lay(umap, turn(phase="7"), "PRR", "E21", "60-0", 0)


def test_12_2_3_metropolises_use_b_tiles_or_their_own() -> None:
    umap = usa_map()
    station(umap, "PRR", "H22")  # Atlanta, X01
    with pytest.raises(GameError, match="tiles that can: 592"):
        check_lay(umap, turn(phase="3"), "PRR", "H22", "14-0", 0)
    check_lay(umap, turn(phase="3"), "PRR", "H22", "592-0", rotation_for(umap, "H22", "592", set()))
    station(umap, "NYC", "D28")
    assert check_lay(umap, turn("NYC", phase="3"), "NYC", "D28", "X12-0",
                     rotation_for(umap, "D28", "X12", set())).upgrade


def test_12_2_3_denver_orientation_is_chosen_free_by_a_company_that_reaches_it() -> None:
    umap = usa_map(seed=DENVER_SEED)
    assert umap.board.hexes["E11"].tile.name == "X04s"
    with pytest.raises(GameError, match="must reach Denver"):
        check_lay(umap, turn(), "PRR", "E11", "X04-0", 2)
    station(umap, "PRR", "E11")
    rotations = [r for r in range(6) if _legal(umap, r)]
    assert len(rotations) >= 2  # a real choice, not the setup's rotation only
    chosen = lay(umap, turn(), "E11", "X04-0", rotations[-1])
    assert (chosen.cost, chosen.action, chosen.nature) == (0, False, "denver")


def _legal(umap: UsaMap, rotation: int) -> bool:
    try:
        check_lay(umap, turn(), "PRR", "E11", "X04-0", rotation)
    except GameError:
        return False
    return True


def test_12_2_4_from_phase_5_an_empty_city_takes_a_green_city_as_a_yellow_lay() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    with pytest.raises(GameError, match="tiles that can: 14, 15, 619"):
        check_lay(umap, turn(phase="5"), "PRR", "E23", "5-0", 0)
    green = check_lay(umap, turn(phase="5"), "PRR", "E23", "14-0", 0)
    assert not green.upgrade and green.cost == 0


def test_12_2_4_plain_track_may_skip_levels_for_10_each_as_an_upgrade() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    put(umap, "E23", "5", {1})
    rotation = rotation_for(umap, "E21", "544", {4})
    brown = check_lay(umap, turn(phase="5"), "PRR", "E21", "544-0", rotation)
    assert (brown.cost, brown.upgrade) == (20 + 10, True)  # two levels skipped; E21's water
    with pytest.raises(GameError, match="cannot be laid"):
        check_lay(umap, turn(phase="4"), "PRR", "E21", "544-0", rotation)


@pytest.mark.parametrize(("options", "yellow_home_may_go_brown"), [(PRINTED, True), (SITE, False)],
                         ids=["printed", "site"])
def test_12_2_4_home_to_brown_in_the_first_turn_is_a_free_extra_action(
        options: frozenset[str], yellow_home_may_go_brown: bool) -> None:
    umap = usa_map(options=options)
    station(umap, "PRR", "E23")
    empty = check_lay(umap, turn(phase="5", home="E23", first_turn=True), "PRR", "E23", "63-0", 0)
    assert (empty.cost, empty.action, empty.nature) == (0, False, "home_brown")
    put(umap, "E23", "57", {0, 3})
    home = turn(phase="5", home="E23", first_turn=True)
    if yellow_home_may_go_brown:
        assert check_lay(umap, home, "PRR", "E23", "63-0", 0).nature == "home_brown"
    else:
        with pytest.raises(GameError, match="cannot be laid"):
            check_lay(umap, home, "PRR", "E23", "63-0", 0)
    with pytest.raises(GameError, match="cannot be laid"):
        check_lay(umap, turn(phase="5", home="E23"), "PRR", "E23", "63-0", 0)


def test_private_tiles_boomtown_regional_hq_rural_junction_and_company_town() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    put(umap, "E23", "57", {0, 3})
    # P9: a yellow city to green even in phase 2, outside the tile actions.
    boom = check_lay(umap, turn(companies=("P9",)), "P9", "E23", "15-0", rotation_for(umap, "E23", "15", {0, 3}))
    assert not boom.action and boom.cost == 0
    with pytest.raises(GameError, match="does not own P9"):
        check_lay(umap, turn(), "P9", "E23", "15-0", 0)
    # P16 only from phase 5, on a green or brown city.
    put(umap, "E23", "15", {0, 3})
    with pytest.raises(GameError, match="from phase 5"):
        check_lay(umap, turn(companies=("P16",)), "P16", "E23", "X23-0", 0)
    assert check_lay(umap, turn(phase="5", companies=("P16",)), "P16", "E23", "X23-0", 0).action
    # P26: not on the home, not next to another rural junction.
    with pytest.raises(GameError, match="empty city hex"):
        check_lay(umap, turn(companies=("P26",)), "P26", "E23", "X07-0", 0)
    with pytest.raises(GameError, match="home"):
        check_lay(umap, turn(companies=("P26",), home="D24"), "P26", "D24", "X07-0", 0)
    # P27: not next to a metropolis (D22 touches Chicago, D20).
    with pytest.raises(GameError, match="next to the metropolis D20"):
        check_lay(umap, turn(companies=("P27",)), "P27", "D22", "X20-0", 0)


def test_a_company_town_holds_a_neutral_token_and_never_closes_its_city() -> None:
    umap = usa_map()
    station(umap, "PRR", "E23")
    put(umap, "E23", "5", {4})
    rotation = rotation_for(umap, "E25", "X20", {1})
    lay(umap, turn(companies=("P27",)), "E25", "X20", rotation, entity="P27")
    slots = umap.board.hexes["E25"].tokens[0]
    assert slots == ["(neutral)", None]
    slots[1] = "NYC"
    assert not umap.board.city_is_blocked_for("E25", 0, "PRR")
    assert umap.board.hexes["E25"].corporations_here() == {"NYC"}


def test_legal_lays_lists_only_lays_the_check_accepts() -> None:
    umap = boston()
    choices = legal_lays(umap, turn())
    assert choices and {choice["hex"] for choice in choices} >= {"C29"}
    for choice in choices:
        for option in choice["tiles"]:  # type: ignore[attr-defined]
            for rotation in option["rotations"]:
                check_lay(umap, turn(), "PRR", str(choice["hex"]), option["tile"], rotation)
    boston_tiles = {t["tile"].split("-")[0] for c in choices if c["hex"] == "C29" for t in c["tiles"]}  # type: ignore[attr-defined]
    assert boston_tiles == {"5", "6", "57"}


@pytest.mark.parametrize(("options", "limited"), [(PRINTED, True), (SITE, False)])
def test_12_2_3_the_b_tiles_run_out_after_the_manifests_four_but_by_the_sites_reading(
        options: frozenset[str], limited: bool) -> None:
    """The manifest has four of each B tile (592, 593, 597) and one X30, the default; the site's
    are unlimited (site_tile_counts). Rule 12.2 makes only plain city and plain track tiles
    unlimited. A game never has more than four B metropolises (three drawn, P10's fourth), so the
    position puts two of the four green copies on cities that are not metropolises, as stand-ins:
    with every copy out of the supply, Atlanta's upgrade is not offered and a fifth copy is refused."""
    umap = usa_map(options=options)
    assert [umap.board.tiles[name].count for name in ("592", "593", "597", "X30")] == (
        [4, 4, 4, 1] if limited else [None] * 4)
    station(umap, "PRR", "H22")  # Atlanta, X01
    for coord in ("D20", "I19", "E11", "G17"):  # Chicago, New Orleans; Denver and Memphis as stand-ins
        put(umap, coord, "592", set())
    offered = {tile["tile"] for choice in legal_lays(umap, turn(phase="3")) if choice["hex"] == "H22"
               for tile in choice["tiles"]}
    rotation = rotation_for(umap, "H22", "592", set())
    if limited:
        assert umap.board.free_copy("592") is None and not offered
        with pytest.raises(GameError, match="tile 592-4 is not in the supply; all copies are in use"):
            check_lay(umap, turn(phase="3"), "PRR", "H22", "592-4", rotation)
    else:
        assert offered == {"592-4"}
        lay(umap, turn(phase="3"), "H22", "592-4", rotation)
        assert umap.board.hexes["H22"].tile_id == "592-4"

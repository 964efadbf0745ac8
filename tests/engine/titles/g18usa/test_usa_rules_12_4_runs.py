"""Rule 12.4 (runs) on the 18USA board: red areas, Mexico, rural junctions, bonuses."""

from __future__ import annotations

import pytest
from usa_map_helpers import PRINTED, SITE, station, usa_map

from engine.core.graph import Node
from engine.errors import GameError
from engine.titles.g18usa.revenue import (
    RunTrain,
    check_run_set,
    great_northern_bonus,
    run_value,
    stop_value,
    switcher_drop,
)
from engine.titles.g18usa.stations import place_freight_marker, revalue_red_area
from engine.titles.g18usa.usa_map import UsaMap

MEXICO: Node = ("I9", "offboard", 0)
SAN_ANTONIO: Node = ("I13", "city", 0)


def test_12_4_1_mexico_and_the_ports_end_a_run_and_only_two_runs_may_use_mexico() -> None:
    umap = usa_map()
    station(umap, "PRR", "I13")
    with pytest.raises(GameError, match="must end at the off-board area I9"):
        run_value(umap, "PRR", "2", RunTrain("3-0", 3), [SAN_ANTONIO, MEXICO, ("I11", "offboard", 0)], [])
    with pytest.raises(GameError, match="stop in Mexico only once"):
        run_value(umap, "PRR", "2", RunTrain("3-0", 3), [MEXICO, SAN_ANTONIO, ("I11", "offboard", 0)], [])
    to_mexico = [SAN_ANTONIO, MEXICO]
    check_run_set(umap, [to_mexico, to_mexico])
    with pytest.raises(GameError, match="at most 2 of a company's runs"):
        check_run_set(umap, [to_mexico, to_mexico, [MEXICO, SAN_ANTONIO]])


def test_12_4_1_red_areas_are_worth_their_token_by_phase_and_p6_replaces_it() -> None:
    umap = usa_map()
    values = umap.setup.red_area_of("I9").values  # type: ignore[union-attr]
    assert [stop_value(umap, "PRR", MEXICO, phase) for phase in ("2", "3", "5", "7")] == list(values)
    revalue_red_area(umap, "I11")
    for hex_id in ("I5", "I9", "K13"):
        node = (hex_id, "offboard", 0)
        assert [stop_value(umap, "PRR", node, phase) for phase in ("2", "3", "5", "7")] == [30, 40, 50, 80]


def junction_map(options: frozenset[str]) -> UsaMap:
    umap = usa_map(options=options)
    junction = umap.board.tiles["X07"]
    umap.board.place_tile("E23", junction, "X07-0", 0)
    station(umap, "PRR", "D24")
    return umap


@pytest.mark.parametrize(("options", "may_end"), [(PRINTED, True), (SITE, False)], ids=["printed", "site"])
def test_12_4_a_rural_junction_is_a_10_stop_of_no_distance_and_maybe_a_run_end(
        options: frozenset[str], may_end: bool) -> None:
    umap = junction_map(options)
    cleveland: Node = ("D24", "city", 0)
    junction: Node = ("E23", "town", 0)
    train = RunTrain("2-0", 2, pullman=True)
    # Through: Cleveland - junction - Cleveland is not a run; check the value of the junction alone.
    assert stop_value(umap, "PRR", junction, "2", pullman=True) == 10  # no Pullman bonus on it
    if may_end:
        assert run_value(umap, "PRR", "2", train, [cleveland, junction], []) == 0 + 20 + 10
    else:
        with pytest.raises(GameError, match="not start or end there"):
            run_value(umap, "PRR", "2", train, [cleveland, junction], [])
    # A 1-stop budget still fits a junction in the middle: it costs no distance.
    run_value(umap, "PRR", "2", RunTrain("2-0", 2), [cleveland, junction, ("C23", "town", 0)], [])


def test_12_4_company_town_earns_outsiders_10_less() -> None:
    umap = usa_map()
    town = umap.board.tiles["X20"]
    umap.board.place_tile("E25", town, "X20-0", 0)
    umap.board.hexes["E25"].tokens[0][1] = "PRR"
    node: Node = ("E25", "city", 0)
    assert stop_value(umap, "PRR", node, "3") == 40
    assert stop_value(umap, "NYC", node, "3") == 30


def test_p8_adds_10_to_runs_into_its_area_while_owned() -> None:
    umap = usa_map()
    station(umap, "PRR", "I13")
    place_freight_marker(umap, "PRR", "K13")
    assert umap.board.hexes["I9"].markers_of("freight")
    run = [SAN_ANTONIO, MEXICO]
    base = run_value(umap, "PRR", "2", RunTrain("2-0", 2), run, [])
    assert run_value(umap, "PRR", "2", RunTrain("2-0", 2), run, [], owned=("P8",)) == base + 10


def test_p17_bonus_goes_to_one_run_only() -> None:
    umap = usa_map()
    helena, fargo, chicago, seattle = (("B8", "city", 0), ("B14", "city", 0), ("D20", "city", 0),
                                       ("B2", "town", 0))
    bonus = great_northern_bonus(umap, [("4-0", [helena, fargo]), ("8-0", [seattle, helena, fargo, chicago]),
                                        ("4-1", [fargo, helena])])
    assert bonus == {"8-0": 60}
    assert great_northern_bonus(umap, [("4-0", [helena, chicago])]) == {}


def test_p19_switcher_drops_a_blocked_city_but_never_the_only_own_station() -> None:
    umap = usa_map()
    for coord, corporation in (("D24", "NYC"), ("D28", "PRR")):
        station(umap, corporation, coord)
    run: list[Node] = [("D28", "city", 0), ("D24", "city", 0), ("E23", "city", 0)]
    assert switcher_drop(umap, "PRR", run, "2", 3) == 1
    station(umap, "UP", "E23")
    short: list[Node] = [("D28", "city", 0), ("E23", "city", 0)]
    assert switcher_drop(umap, "PRR", short, "2", 2) == 1  # never D28, PRR's only station

"""The 18USA map marks the pictures draw (engine/titles/g18usa/map_facts.py): what each mark is
worth in the phase, from the map rules (11.6.1 subsidies, 13 resources and bridges, P6, P8, P27)."""

from __future__ import annotations

from usa_map_helpers import usa_map

from engine.core.map_marks import MapMark
from engine.titles.g18usa.map_facts import map_marks, terrain_to_pay
from engine.titles.g18usa.stations import (
    claim_subsidy,
    place_bridge,
    place_freight_marker,
    revalue_red_area,
)
from engine.titles.g18usa.usa_map import UsaMap


def marks_of(umap: UsaMap, coord: str, kind: str, phase: str = "2",
             private_owners: dict[str, str] | None = None) -> list[MapMark]:
    return [mark for mark in map_marks(umap, phase, private_owners).get(coord, ()) if mark.kind == kind]


def lay_plain(umap: UsaMap, coord: str, tile: str) -> None:
    """A tile put on the board as the facts see it (its legality is the track rules' business)."""
    umap.board.place_tile(coord, umap.board.tiles[tile], f"{tile}-{umap.board.free_copy(tile)}", 0)


def test_metropolises_are_new_york_and_the_three_drawn() -> None:
    umap = usa_map()
    marked = {coord for coord, marks in map_marks(umap, "2").items()
              if any(mark.kind == "metropolis" for mark in marks)}
    assert marked == set(umap.setup.metropolis_hexes) == {"D28", "H22", "D20", "I19"}


def test_11_6_1_each_subsidy_city_shows_its_subsidy_until_claimed_or_dropped() -> None:
    umap = usa_map()
    shown = {coord: marks[0] for coord in umap.board.hexes if (marks := marks_of(umap, coord, "subsidy"))}
    assert set(shown) == {deal.hex for deal in umap.setup.subsidies}
    assert all(shown[deal.hex].label == deal.name and shown[deal.hex].source == deal.subsidy
               for deal in umap.setup.subsidies)
    assert shown["G11"].value == 40 and shown["B14"].value == 30 and shown["D14"].value == 0  # S14, S12, S9
    claim_subsidy(umap, "G11")
    assert marks_of(umap, "G11", "subsidy") == []
    assert marks_of(umap, "B14", "subsidy")
    umap.drop_unclaimed_subsidies()
    assert not any(mark.kind == "subsidy" for marks in map_marks(umap, "2").values() for mark in marks)


def test_13_printed_resources_show_until_any_tile_is_laid() -> None:
    umap = usa_map()
    assert [mark.label for mark in marks_of(umap, "B12", "resource_site")] == ["coal", "oil"]
    sites = {coord for coord, marks in map_marks(umap, "2").items()
             if any(mark.kind == "resource_site" for mark in marks)}
    assert sites == {raw["coord"] for raw in umap.map_data["hexes"] if raw.get("resources")}
    lay_plain(umap, "B12", "7")  # a plain tile: no token can go there any more (13)
    assert marks_of(umap, "B12", "resource_site") == [] == marks_of(umap, "B12", "resource")


def test_13_resource_tokens_are_worth_what_a_run_earns_now() -> None:
    umap = usa_map()
    lay_plain(umap, "B12", "7coaloil")
    lay_plain(umap, "C7", "9ore20")
    coal, oil = marks_of(umap, "B12", "resource")
    assert (coal.label, coal.value, coal.sides) == ("coal", 10, ())
    assert (oil.label, oil.value, oil.sides, oil.side) == ("oil", 10, (("2", 10), ("5", 20)), 0)
    late_oil = marks_of(umap, "B12", "resource", phase="5")[1]
    assert (late_oil.value, late_oil.side) == (20, 1)  # 13.2: oil pays $20 from phase 5
    (ore,) = marks_of(umap, "C7", "resource", phase="8")
    assert (ore.label, ore.value, ore.sides) == ("ore", 20, ())


def test_city_value_markers_show_the_side_in_force() -> None:
    umap = usa_map()  # seed 109372: S11 (+10 / +20) on Boise (D6), S10 (+10) on Tucson (H8)
    claim_subsidy(umap, "D6")
    claim_subsidy(umap, "H8")
    (s11,) = marks_of(umap, "D6", "city_bonus", phase="4+")
    assert (s11.value, s11.sides, s11.side, s11.source) == (10, (("2", 10), ("5", 20)), 0, "S11")
    (s11,) = marks_of(umap, "D6", "city_bonus", phase="5")
    assert (s11.value, s11.side) == (20, 1)
    (s10,) = marks_of(umap, "H8", "city_bonus", phase="8")
    assert (s10.value, s10.sides, s10.source) == (10, (), "S10")


def test_13_4_a_bridge_shows_its_bonus_and_its_private() -> None:
    umap = usa_map()
    place_bridge(umap, "P21", "D14")
    (bridge,) = marks_of(umap, "D14", "bridge")
    assert (bridge.value, bridge.source) == (10, "P21")


def test_p8_marker_belongs_to_whoever_holds_p8_now() -> None:
    umap = usa_map()
    place_freight_marker(umap, "MP", "I11")  # Mexico: the marker goes on I9
    assert marks_of(umap, "I11", "freight") == []
    (marker,) = marks_of(umap, "I9", "freight")
    assert (marker.owner, marker.value, marker.source) == ("MP", 10, "P8")
    (merged,) = marks_of(umap, "I9", "freight", private_owners={"P8": "TP"})
    assert merged.owner == "TP"


def test_p6_value_token_marks_every_hex_of_its_area() -> None:
    umap = usa_map()
    revalue_red_area(umap, "I5")
    marked = {coord for coord, marks in map_marks(umap, "2").items()
              if any(mark.kind == "value_token" for mark in marks)}
    assert marked == set(umap.red_area_hexes("I5")) and len(marked) == 6


def test_company_town_charges_other_companies() -> None:
    umap = usa_map()
    lay_plain(umap, "F10", "X20")
    (town,) = marks_of(umap, "F10", "company_town")
    assert (town.value, town.label) == (10, "X20")


def test_terrain_is_paid_only_by_the_first_tile() -> None:
    umap = usa_map()
    assert terrain_to_pay(umap.hex("B22")) == 20  # the lake
    lay_plain(umap, "B22", "7")
    assert terrain_to_pay(umap.hex("B22")) == 0

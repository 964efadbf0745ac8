"""The 18USA map drawn from real board positions of fixture 109372 and from small hand-built
boards: every hex once, stations and marks where the rules put them, values in force marked."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from PIL import Image
from usa_map_helpers import usa_map
from usa_states import USA_STATES, usa_position

from engine.titles.g18usa.stations import (
    StationPlace,
    claim_subsidy,
    place_station,
    revalue_red_area,
)
from engine.titles.g18usa.usa_map import UsaMap
from render import png
from render.from_usa_map import company_tokens, usa_map_view
from render.map_svg import map_svg

STATES = list(USA_STATES.values())
IDS = list(USA_STATES)


@cache
def svg_text(upto: int | None) -> str:
    return map_svg(usa_position(upto).map_view())


@cache
def svg_root(upto: int | None) -> ET.Element:
    return ET.fromstring(svg_text(upto))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def plates(root: ET.Element, kind: str) -> dict[str, list[ET.Element]]:
    found: dict[str, list[ET.Element]] = {}
    for plate in by_class(root, f"marker-{kind}"):
        found.setdefault(plate.get("data-coord", ""), []).append(plate)
    return found


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter() if t.tag.endswith("text")]


def draw(umap: UsaMap, phase: str) -> ET.Element:
    return ET.fromstring(map_svg(usa_map_view(umap, phase)))


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_every_hex_once(upto: int | None) -> None:
    coords = [e.get("data-coord") for e in by_class(svg_root(upto), "hex")]
    assert len(coords) == len(set(coords)) == 114
    assert set(coords) == set(usa_position(upto).umap.board.hexes)


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_each_station_where_the_board_has_it(upto: int | None) -> None:
    """Companies' stations, the Company Town's neutral token and stations in extra slots."""
    board = usa_position(upto).umap.board
    expected = sorted((coord, city, slot, corp) for coord, h in board.hexes.items()
                      for city, slots in enumerate(h.tokens) for slot, corp in enumerate(slots) if corp)
    drawn = sorted((t.get("data-coord"), int(t.get("data-city", -1)), int(t.get("data-slot", -1)),
                    t.get("data-corp")) for t in by_class(svg_root(upto), "token"))
    assert drawn == expected
    assert len(expected) >= {112: 3, 676: 25, None: 30}[upto]


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_phase_values_mark_the_value_in_force(upto: int | None) -> None:
    """Red areas, Detroit, Toronto and the Company Town: one box inverted, the engine's value."""
    pos = usa_position(upto)
    colors = pos.umap.phase(pos.phase).colors
    root = svg_root(upto)
    groups = {g.get("data-coord"): g for g in by_class(root, "revenue") + by_class(root, "offboard-values")
              if len(by_class(g, "phase-value")) > 1}
    expected = {coord: stop for coord, h in pos.umap.board.hexes.items() for stop in h.tile.stops
                if len(stop.all_revenues()) > 1}
    assert set(groups) == set(expected)
    assert len(expected) >= 14  # 12 red-area hexes, Detroit, Toronto
    for coord, stop in expected.items():
        boxes = [e for e in groups[coord].iter() if "phase-value" in (e.get("class") or "")]
        inverted = [e for e in boxes if e.get("data-current") == "1"]
        assert len(boxes) == len(stop.all_revenues()) and len(inverted) == 1, coord
        assert int(groups[coord].get("data-current", -1)) == stop.revenue_in(colors), coord
        in_force = texts(groups[coord])[boxes.index(inverted[0])]
        assert int(in_force) == stop.revenue_in(colors), coord
        bands = [e.get("data-color") for e in groups[coord].iter() if "phase-band" in (e.get("class") or "")]
        assert bands == [color for color, _ in stop.all_revenues()], coord


def test_unclaimed_subsidies_only_in_the_first_stock_round() -> None:
    early = usa_position(USA_STATES["usa_early"])
    shown = plates(svg_root(USA_STATES["usa_early"]), "subsidy")
    assert set(shown) == set(early.umap.open_subsidies)
    assert 0 < len(shown) < 14  # some companies have started and taken theirs
    for coord, (plate,) in shown.items():
        assert texts(plate) == [early.umap.setup.subsidy_on(coord).name]  # type: ignore[union-attr]
    assert plates(svg_root(USA_STATES["usa_middle"]), "subsidy") == {}


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_marks_where_the_rules_put_them(upto: int | None) -> None:
    """Every bridge, city-value marker, resource token and site, P8 marker and Company Town."""
    pos = usa_position(upto)
    root = svg_root(upto)
    board = pos.umap.board
    bridges = {coord for coord, h in board.hexes.items() if h.markers_of("bridge")}
    assert set(plates(root, "bridge")) == bridges
    bonuses = {coord for coord, h in board.hexes.items() if h.markers_of("city_bonus")}
    assert set(plates(root, "city-bonus")) == bonuses
    tokens = {coord for coord, h in board.hexes.items() if h.tile_laid and pos.umap.tile_resources(h.tile)}
    assert set(plates(root, "resource")) == tokens
    sites = {coord for coord, h in board.hexes.items() if not h.tile_laid and pos.umap.resources_printed(coord)}
    assert set(plates(root, "resource-site")) == sites
    towns = {coord for coord, h in board.hexes.items() if h.tile.kind == "company_town"}
    assert set(plates(root, "company-town")) == towns
    if upto != USA_STATES["usa_early"]:
        assert bridges == {"F20", "D14", "E17", "F18"}  # P2, P21, P22 twice
        assert tokens and towns and bonuses == {"H8"}


def test_p8_marker_in_the_colours_of_p8s_holder() -> None:
    pos = usa_position(USA_STATES["usa_middle"])
    (plate,) = plates(svg_root(USA_STATES["usa_middle"]), "freight")["A27"]
    holder = pos.private_owners()["P8"]
    assert plate.get("data-owner") == holder
    rect = next(e for e in plate.iter() if e.tag.endswith("rect"))
    assert rect.get("fill") == company_tokens()[holder].fill_color


def test_resource_values_in_force() -> None:
    """Coal and ore show their bonus; oil shows both sides with phase 5's in force late on."""
    for upto in STATES:
        pos = usa_position(upto)
        for coord, found in plates(svg_root(upto), "resource").items():
            tile = pos.umap.hex(coord).tile
            for plate in found:
                words = texts(plate)
                if words[0] == "oil":
                    late = pos.umap.phase(pos.phase).at_least("5", pos.umap.phase_order)
                    assert words[1:] == ["+10", "+20"] and plate.get("data-current") == ("20" if late else "10")
                else:
                    resource, bonus = words[0].split(" +")
                    assert resource in pos.umap.tile_resources(tile)
                    assert int(bonus) == (10 if resource == "coal" else pos.umap.ore_value(tile))


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_metropolises_are_ringed(upto: int | None) -> None:
    root = svg_root(upto)
    ringed = {city.get("data-coord") for city in by_class(root, "city")
              if any("metropolis" in (e.get("class") or "") for e in city.iter())}
    assert ringed == usa_position(upto).umap.metropolises


@pytest.mark.parametrize("upto", STATES[1:], ids=IDS[1:])
def test_last_move_and_last_runs(upto: int | None) -> None:
    pos = usa_position(upto)
    root = svg_root(upto)
    assert [e.get("data-coord") for e in by_class(root, "highlight")] == pos.last_hexes
    routes = by_class(root, "route")
    assert [int(r.get("data-revenue", -1)) for r in routes] == [run.revenue for _, run in pos.runs]
    assert {r.get("data-corp") for r in routes} == {corp for corp, _ in pos.runs}
    assert all(len(r) == len(run.paths) for r, (_, run) in zip(routes, pos.runs, strict=True))


@pytest.mark.parametrize("upto", [None], ids=["usa_end"])
def test_png_fits_discord_and_stays_legible(upto: int | None) -> None:
    data = png.map_png(svg_text(upto))
    image = Image.open(io.BytesIO(data))
    assert max(image.size) <= 2400 and len(data) < 8 * 1024 * 1024
    scale = image.size[0] / png.svg_width(svg_text(upto))
    assert png.min_font_size(svg_text(upto)) * scale >= png.MIN_FONT_PX - 0.05


def test_free_station_in_an_extra_slot() -> None:
    umap = usa_map()
    place_station(umap, "PRR", StationPlace("H22", 0, 0, False))  # Atlanta: one slot
    place_station(umap, "UP", StationPlace("H22", 0, 1, True))
    root = draw(umap, "2")
    tokens = {(t.get("data-coord"), t.get("data-slot")): t.get("data-corp") for t in by_class(root, "token")}
    assert tokens == {("H22", "0"): "PRR", ("H22", "1"): "UP"}
    (extra,) = by_class(root, "extra-slot")
    assert extra.get("data-slot") == "1"


def test_city_value_marker_turns_at_phase_5() -> None:
    umap = usa_map()
    claim_subsidy(umap, "D6")  # S11: +10, +20 from phase 5
    for phase, in_force in (("4+", "10"), ("5", "20")):
        (plate,) = plates(draw(umap, phase), "city-bonus")["D6"]
        assert texts(plate) == ["+10", "+20"] and plate.get("data-current") == in_force


def test_p6_revalues_the_area_and_marks_it() -> None:
    umap = usa_map()
    before = {g.get("data-coord"): g.get("data-current") for g in by_class(draw(umap, "7"), "offboard-values")}
    revalue_red_area(umap, "I5")  # Mexico's 30 / 40 / 50 / 60 becomes P6's 30 / 40 / 50 / 80
    root = draw(umap, "7")
    assert set(plates(root, "value-token")) == set(umap.red_area_hexes("I5"))
    after = {g.get("data-coord"): g for g in by_class(root, "offboard-values")}
    for coord in umap.red_area_hexes("I5"):
        assert [int(t) for t in texts(after[coord])] == [30, 40, 50, 80]
        assert after[coord].get("data-current") == "80" and before[coord] == "60"  # gray in phase 7


def test_the_key_names_the_signs_the_map_uses() -> None:
    (early,) = by_class(svg_root(USA_STATES["usa_early"]), "map-key")
    assert early.text == ("Key: black box: value in force \u00b7 colour band: the tiles' phase \u00b7 dashed "
                          "plate: resource not yet placed \u00b7 dark red ring: metropolis")
    (middle,) = by_class(svg_root(USA_STATES["usa_middle"]), "map-key")
    assert (middle.text or "").endswith("magenta: last tile laid")

"""Structural tests of the map SVG, built from the 18Texas JSON data."""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET

import pytest
from texas_views import SAMPLE_TOKENS, load, sample_map, texas_map

from render import geometry as g
from render.map_svg import map_svg

NS = "{http://www.w3.org/2000/svg}"


def _tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def _by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _hex_origin(root: ET.Element, coord: str) -> tuple[float, float]:
    """Hex centre from the fill polygon's corners (their mean)."""
    (group,) = [e for e in _by_class(root, "hex") if e.get("data-coord") == coord]
    poly = group.find(f"{NS}polygon")
    assert poly is not None
    pts = [tuple(map(float, p.split(","))) for p in poly.get("points", "").split()]
    return (sum(p[0] for p in pts) / 6, sum(p[1] for p in pts) / 6)


def _path_points(d: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in re.findall(r"-?[0-9.]+", d)]
    # M x y (L x y | A rx ry rot large sweep x y): start and end points.
    return [(nums[0], nums[1]), (nums[-2], nums[-1])]


@pytest.fixture(scope="module")
def sample_svg() -> str:
    return map_svg(sample_map())


def test_svg_is_well_formed_and_deterministic(sample_svg: str) -> None:
    _tree(sample_svg)
    assert map_svg(sample_map()) == sample_svg


def test_every_hex_present_exactly_once(sample_svg: str) -> None:
    coords = [e.get("data-coord") for e in _by_class(_tree(sample_svg), "hex")]
    expected = [h["coord"] for h in load("map")["hexes"]]
    assert sorted(coords) == sorted(expected)
    assert len(coords) == len(set(coords)) == 94


def test_each_token_drawn_where_the_view_has_one(sample_svg: str) -> None:
    tokens = _by_class(_tree(sample_svg), "token")
    drawn = sorted((t.get("data-coord"), int(t.get("data-city", -1)), int(t.get("data-slot", -1)),
                    t.get("data-corp")) for t in tokens)
    expected = sorted((coord, city, slot, corp) for (coord, city), corps in SAMPLE_TOKENS.items()
                      for slot, corp in enumerate(corps))
    assert drawn == expected


def test_reserved_homes_shown_faintly_only_in_empty_slots(sample_svg: str) -> None:
    reserved = {(e.get("data-coord"), e.get("data-corp")) for e in _by_class(_tree(sample_svg), "reserved")}
    assert ("D15", "SSW") in reserved and ("G10", "MP") not in reserved  # MP is on G10 already


@pytest.mark.parametrize("rotation", range(6))
def test_rotated_tile_track_ends_on_rotated_edges(rotation: int) -> None:
    """Tile 7 (edge 0 - edge 1) laid with rotation r touches map edges r and r+1."""
    svg = map_svg(texas_map({"C12": ("7", rotation)}))
    root = _tree(svg)
    (track,) = [t for t in _by_class(root, "track") if t.get("data-coord") == "C12"]
    want = {rotation % 6, (rotation + 1) % 6}
    assert {int(e) for e in track.get("data-edges", "").split(",")} == want
    cx, cy = _hex_origin(root, "C12")
    ends = _path_points(track.get("d", ""))
    for e in want:
        mx, my = g.edge_midpoint(e)
        assert any(math.hypot(px - cx - mx, py - cy - my) < 0.05 for px, py in ends), (e, ends)


def test_tile_7_rotation_2_touches_nw_and_ne_midpoints() -> None:
    root = _tree(map_svg(texas_map({"C12": ("7", 2)})))
    (track,) = [t for t in _by_class(root, "track") if t.get("data-coord") == "C12"]
    cx, cy = _hex_origin(root, "C12")
    ends = {(round(px - cx, 1), round(py - cy, 1)) for px, py in _path_points(track.get("d", ""))}
    nw, ne = g.edge_midpoint(2), g.edge_midpoint(3)
    assert ends == {(round(nw[0], 1), round(nw[1], 1)), (round(ne[0], 1), round(ne[1], 1))}
    assert " A 25 25 " in track.get("d", "")  # sharp curve: radius half the hex size


@pytest.mark.parametrize(("tile", "kind"), [("7", "A 25 25"), ("8", "A 75 75"), ("9", " L ")])
def test_track_shapes(tile: str, kind: str) -> None:
    root = _tree(map_svg(texas_map({"C12": (tile, 0)})))
    (track,) = [t for t in _by_class(root, "track") if t.get("data-coord") == "C12"]
    assert kind in track.get("d", "")


def test_neighbouring_track_meets_at_shared_edge(sample_svg: str) -> None:
    """I12 (straight W-E) and I14 (511) share I12's edge 4 / I14's edge 1 point exactly."""
    root = _tree(sample_svg)
    ends = {}
    for t in _by_class(root, "track"):
        if t.get("data-coord") in ("I12", "I14"):
            ends.setdefault(t.get("data-coord"), []).extend(_path_points(t.get("d", "")))
    shared = [p for p in ends["I12"] if any(math.hypot(p[0] - q[0], p[1] - q[1]) < 0.05 for q in ends["I14"])]
    assert shared


def test_offboards_show_all_values_with_current_marked() -> None:
    for phase, current in (("2", "20"), ("5", "40")):
        root = _tree(map_svg(texas_map(phase=phase)))
        hexes = [e for e in _by_class(root, "hex") if e.get("data-coord") == "A12"]
        assert hexes[0].get("data-color") == "red"
        boxes = [e for e in _by_class(root, "offboard-values")]
        assert len(boxes) == 6
        okc = [b for b in boxes if b.get("data-current") == current]
        assert okc
        marks = [r.get("data-current") for r in okc[0].iter(f"{NS}rect")]
        assert sorted(marks) == ["0", "1"]


def test_terrain_labels_blocked_and_highlights(sample_svg: str) -> None:
    root = _tree(sample_svg)
    terrain = {e.get("data-coord"): e.get("data-cost") for e in _by_class(root, "terrain")}
    assert terrain["D3"] == "60" and terrain["K12"] == "40" and "I14" not in terrain  # tile laid
    labels = [e.text for e in _by_class(root, "label")]
    assert labels.count("Y") == 4
    assert {e.get("data-private") for e in _by_class(root, "blocked")} == {"BBBCRC", "IGN"}
    assert {e.get("data-coord") for e in _by_class(root, "highlight")} == {"I14", "I12"}


def test_routes_drawn_with_legend(sample_svg: str) -> None:
    root = _tree(sample_svg)
    routes = _by_class(root, "route")
    assert [r.get("data-train") for r in routes] == ["3", "2"]
    assert len(_by_class(routes[0], "route-segment")) == 5
    legend = "".join(e.text or "" for e in _by_class(root, "legend")[0].iter())
    assert "SP 3-train: $60" in legend and "Total: $120" in legend


def test_coordinates_on_border(sample_svg: str) -> None:
    root = _tree(sample_svg)
    rows = [e.text for e in _by_class(root, "coord-row")]
    cols = [e.text for e in _by_class(root, "coord-col")]
    assert rows.count("A") == 2 and rows.count("N") == 2
    assert sorted(set(cols), key=int) == [str(n) for n in range(1, 20)]


def test_two_city_hex_draws_both_cities() -> None:
    root = _tree(map_svg(texas_map(tokens={("D9", 1): ["T&P"]})))
    cities = [e for e in _by_class(root, "city") if e.get("data-coord") == "D9"]
    assert [c.get("data-city") for c in cities] == ["0", "1"]
    ends = [t.get("data-ends") for t in _by_class(root, "track") if t.get("data-coord") == "D9"]
    assert "city0 city1" in ends


def test_view_is_plain_data() -> None:
    view = sample_map()
    json.dumps([h.coord for h in view.hexes])
    with pytest.raises(AttributeError):
        view.title = "x"  # type: ignore[misc]

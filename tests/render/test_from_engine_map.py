"""The map drawn from real engine positions of the 18Texas fixture: structure of the SVG."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from engine_states import state_after

from engine.core.board import opposite
from render import geometry as g
from render.from_engine import map_view
from render.map_svg import map_svg

NS = "{http://www.w3.org/2000/svg}"
STATES = (40, 200, None)


@cache
def svg_root(upto: int | None) -> ET.Element:
    return ET.fromstring(map_svg(map_view(state_after(upto))))


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def hex_centre(root: ET.Element, coord: str) -> tuple[float, float]:
    (group,) = [e for e in by_class(root, "hex") if e.get("data-coord") == coord]
    poly = group.find(f"{NS}polygon")
    assert poly is not None
    pts = [tuple(map(float, p.split(","))) for p in poly.get("points", "").split()]
    return (sum(p[0] for p in pts) / 6, sum(p[1] for p in pts) / 6)


def path_ends(d: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in re.findall(r"-?[0-9.]+", d)]
    return [(nums[0], nums[1]), (nums[-2], nums[-1])]


@pytest.mark.parametrize("upto", STATES)
def test_every_hex_once(upto: int | None) -> None:
    coords = [e.get("data-coord") for e in by_class(svg_root(upto), "hex")]
    assert sorted(coords) == sorted(state_after(upto).board.hexes)
    assert len(coords) == len(set(coords))


@pytest.mark.parametrize("upto", STATES)
def test_each_token_where_the_engine_has_it(upto: int | None) -> None:
    state = state_after(upto)
    expected = sorted((coord, city, slot, corp) for coord, h in state.board.hexes.items()
                      for city, slots in enumerate(h.tokens) for slot, corp in enumerate(slots) if corp)
    drawn = sorted((t.get("data-coord"), int(t.get("data-city", -1)), int(t.get("data-slot", -1)),
                    t.get("data-corp")) for t in by_class(svg_root(upto), "token"))
    assert drawn == expected
    assert len(expected) >= {40: 3, 200: 15, None: 24}[upto]


@pytest.mark.parametrize("upto", STATES)
def test_laid_tiles_track_ends_on_rotated_edges(upto: int | None) -> None:
    """Edges from the unrotated tile definition turned by the hex's rotation, checked on the
    drawn path end points (not just the data attributes)."""
    state = state_after(upto)
    root = svg_root(upto)
    tracks: dict[str, list[ET.Element]] = {}
    for t in by_class(root, "track"):
        tracks.setdefault(t.get("data-coord", ""), []).append(t)
    laid = [h for h in state.board.hexes.values() if h.tile_laid]
    assert laid
    for h in laid:
        want = {(i + h.rotation) % 6 for path in h.tile.paths for kind, i in path if kind == "edge"}
        cx, cy = hex_centre(root, h.coord)
        reached = set()
        for t in tracks[h.coord]:
            for px, py in path_ends(t.get("d", "")):
                for e in range(6):
                    mx, my = g.edge_midpoint(e)
                    if math.hypot(px - cx - mx, py - cy - my) < 0.05:
                        reached.add(e)
        assert reached == want, (h.coord, h.tile.name, h.rotation)
        (group,) = [e for e in by_class(root, "hex") if e.get("data-coord") == h.coord]
        assert group.get("data-tile") == h.tile.name


def test_neighbouring_track_meets_on_the_shared_edge() -> None:
    """Wherever two hexes both have track on their common edge, the drawn ends coincide."""
    state = state_after(None)
    root = svg_root(None)
    ends: dict[str, list[tuple[float, float]]] = {}
    for t in by_class(root, "track"):
        ends.setdefault(t.get("data-coord", ""), []).extend(path_ends(t.get("d", "")))
    pairs = 0
    for coord, h in state.board.hexes.items():
        for edge, other in h.hexdef.neighbors.items():
            if edge in h.exits() and opposite(edge) in state.board.hexes[other].exits():
                cx, cy = hex_centre(root, coord)
                mx, my = g.edge_midpoint(edge)
                point = (cx + mx, cy + my)
                assert any(math.hypot(point[0] - q[0], point[1] - q[1]) < 0.1 for q in ends[coord])
                assert any(math.hypot(point[0] - q[0], point[1] - q[1]) < 0.1 for q in ends[other])
                pairs += 1
    assert pairs > 60


@pytest.mark.parametrize(("upto", "ok_city", "label"), [(200, "20", "2\u20134"), (None, "40", "5+")])
def test_current_phase_value_marked(upto: int | None, ok_city: str, label: str) -> None:
    """Oklahoma City (A12) 20 in phases 2-4, 40 from phase 5: the engine's colours pick it."""
    root = svg_root(upto)
    (okc,) = [e for e in by_class(root, "offboard-values") if _near_hex(root, e, "A12")]
    assert okc.get("data-current") == ok_city
    marks = {(r.get("data-phase"), r.get("data-current")) for r in okc.iter(f"{NS}rect")}
    assert marks == {("2\u20134", "1" if label == "2\u20134" else "0"), ("5+", "1" if label == "5+" else "0")}
    # Gray towns (Galveston J15: 20 / 50) follow the same phases.
    (gal,) = [e for e in by_class(root, "revenue") if e.get("data-current") and _near_hex(root, e, "J15")]
    assert gal.get("data-current") == ("20" if upto == 200 else "50")


def _near_hex(root: ET.Element, group: ET.Element, coord: str) -> bool:
    rect = group.find(f"{NS}rect")
    assert rect is not None
    x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
    cx, cy = hex_centre(root, coord)
    return math.hypot(x - cx, y - cy) < g.HEX_SIZE


@pytest.mark.parametrize("upto", [200, None])
def test_last_run_drawn_on_its_track(upto: int | None) -> None:
    state = state_after(upto)
    root = svg_root(upto)
    routes = by_class(root, "route")
    assert len(routes) == len(state.last_runs) == 1
    run = state.last_runs[0]
    segments = by_class(routes[0], "route-segment")
    assert [s.get("data-coord") for s in segments] == [coord for coord, _ in run.paths]
    assert routes[0].get("data-revenue") == str(run.revenue)
    # Each run segment lies on the drawn track piece of the same path.
    tracks = {(t.get("data-coord"), t.get("d")) for t in by_class(root, "track")}
    for s in segments:
        assert (s.get("data-coord"), s.get("d")) in tracks
    legend = "".join(e.text or "" for e in by_class(root, "legend")[0].iter())
    assert f"${run.revenue}" in legend


def test_runs_can_be_left_out() -> None:
    svg = map_svg(map_view(state_after(None), show_last_runs=False))
    assert 'class="route"' not in svg and 'class="legend"' not in svg


@pytest.mark.parametrize("upto", STATES)
def test_last_lay_highlighted_and_terrain_costs_from_engine(upto: int | None) -> None:
    state = state_after(upto)
    root = svg_root(upto)
    assert {e.get("data-coord") for e in by_class(root, "highlight")} == set(state.last_tile_hexes)
    costs = {e.get("data-coord"): int(e.get("data-cost", 0)) for e in by_class(root, "terrain")}
    for coord, h in state.board.hexes.items():
        cost = state.terrain_cost(h)
        if cost:
            assert costs[coord] == cost
        elif coord in costs:
            assert costs[coord] == 0


def test_blocked_hexes_only_while_the_private_is_open() -> None:
    early = {e.get("data-private") for e in by_class(svg_root(40), "blocked")}
    assert early == {"IGN", "BBBCRC"}
    assert by_class(svg_root(None), "blocked") == []  # phase 5 closed the privates


def test_home_reservation_until_the_home_token() -> None:
    state = state_after(40)
    assert not state.corporations["SSW"].floated
    reserved = {(e.get("data-coord"), e.get("data-corp")) for e in by_class(svg_root(40), "reserved")}
    assert ("D15", "SSW") in reserved
    assert not any(corp == "SSW" for _, corp in
                   {(e.get("data-coord"), e.get("data-corp")) for e in by_class(svg_root(None), "reserved")})


def test_caption_names_phase_and_round() -> None:
    title = "".join(e.text or "" for e in by_class(svg_root(200), "title"))
    assert "Phase 4" in title and "Operating Round 4.2" in title and "SP operating" in title


def test_adapter_leaves_the_state_alone() -> None:
    state = state_after(200)
    before = ([list(map(list, h.tokens)) for h in state.board.hexes.values()],
              {k: list(v) for k, v in state.market.stacks.items()}, state.bank.cash, list(state.last_runs))
    map_view(state)
    after = ([list(map(list, h.tokens)) for h in state.board.hexes.values()],
             {k: list(v) for k, v in state.market.stacks.items()}, state.bank.cash, list(state.last_runs))
    assert before == after

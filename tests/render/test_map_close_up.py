"""A close-up of the 18USA map (fixture 109372 in its fourth operating round of phase 4, with a
run): the hexes within a radius of a centre, as the engine's board counts neighbours; the runs cut
to them in the colours the whole map gives them; captions and keys that fit the narrower picture;
and a PNG a Discord preview (about 550 px wide) shows legibly."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from PIL import Image
from usa_states import USA_STATES, usa_position

from render import png
from render.closeup import close_up
from render.geometry import route_color
from render.map_svg import MARGIN, map_svg
from render.svgkit import text_width
from render.view import MapView

MIDDLE = USA_STATES["usa_middle"]


@cache
def whole() -> MapView:
    return usa_position(MIDDLE).map_view()


def within(center: str, radius: int) -> set[str]:
    """The hexes `radius` steps from `center`, walking the board's own neighbour lists."""
    board = usa_position(MIDDLE).umap.board
    reached = {center}
    for _ in range(radius):
        reached |= {n for coord in reached for n in board.hexes[coord].hexdef.neighbors.values() if n in board.hexes}
    return reached


@pytest.mark.parametrize(("center", "radius"), [("D20", 1), ("D20", 2), ("B2", 2), ("H22", 3)])
def test_a_close_up_keeps_the_hexes_a_radius_walks_to(center: str, radius: int) -> None:
    shown = {h.coord for h in close_up(whole(), [center], radius).hexes}
    assert shown == within(center, radius)


def test_around_several_centres_the_close_up_is_their_union() -> None:
    shown = {h.coord for h in close_up(whole(), ["D20", "H22"], 1).hexes}
    assert shown == within("D20", 1) | within("H22", 1)


def test_runs_are_cut_to_the_close_up_and_keep_their_colours() -> None:
    view = whole()
    assert view.routes, "the position has a run to draw"
    colours = {route.train: route_color(route.color, k) for k, route in enumerate(view.routes)}
    route = view.routes[0]
    center = route.segments[0].coord
    part = close_up(view, [center], 1)
    shown = {h.coord for h in part.hexes}
    kept = {r.train: r for r in part.routes}
    assert route.train in kept
    assert {s.coord for s in kept[route.train].segments} == {s.coord for s in route.segments} & shown
    for train, cut in kept.items():
        assert cut.color == colours[train]
        assert all(segment.coord in shown for segment in cut.segments)
    # A run that passes nowhere near is left out of the legend.
    far = next(h.coord for h in view.hexes
               if not any(s.coord in within(h.coord, 1) for r in view.routes for s in r.segments))
    assert close_up(view, [far], 1).routes == ()


def test_the_caption_and_key_fit_the_narrow_picture_and_it_previews_legibly() -> None:
    part = close_up(whole(), ["D20"], 2)
    svg = map_svg(part)
    root = ET.fromstring(svg)
    width = float(root.get("width") or 0)
    lines = [(e.text or "", float(e.get("font-size") or 0), e.get("font-weight") == "bold")
             for e in root.iter() if (e.get("class") or "") in ("title", "map-key")]
    assert len(lines) > 2  # the caption and the key each needed more than one line
    assert "around D20" in " ".join(text for text, _, _ in lines)
    for text, size, bold in lines:
        assert text_width(text, size, bold) <= width - 2 * MARGIN + 0.01, text
    picture = Image.open(io.BytesIO(png.map_png(svg)))
    full_width = Image.open(io.BytesIO(png.map_png(map_svg(whole())))).size[0]
    # Drawn at the map's scale: less than half the whole map's width, so Discord's ~550 px preview
    # shows the smallest text (12 px in the PNG at the least) at more than twice the whole map's size.
    assert picture.size[0] * 2 < full_width


@pytest.mark.parametrize("radius", [0, 9])
def test_a_radius_out_of_range_says_which_are_allowed(radius: int) -> None:
    with pytest.raises(ValueError, match=f"Radius {radius} is not allowed: give 1 to 8 hexes"):
        close_up(whole(), ["D20"], radius)


def test_a_centre_off_the_map_is_refused() -> None:
    with pytest.raises(ValueError, match="Z99 is not a hex of this map"):
        close_up(whole(), ["Z99"], 2)

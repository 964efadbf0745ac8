"""A close-up of the map: the hexes within a few steps of some centre hexes, drawn as the map is.

The whole 18USA map is about 2,400 px wide, and Discord previews pictures about 550 px wide, so in
the preview its text is 3 px high. A close-up of two hexes around a centre is five hexes wide:
drawn at the map's scale, its smallest text is about 8 px in the preview and 17 px when opened.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from render import geometry as g
from render.view import HexView, MapView

RADII = range(1, 9)  # steps around the centre a close-up may show
DEFAULT_RADIUS = 2


def steps_apart(a: HexView, b: HexView) -> int:
    """Hexes walked from `a` to `b` (doubled columns: neighbours in a row are 2 apart in x)."""
    dx, dy = abs(a.x - b.x), abs(a.y - b.y)
    return dy + max(0, (dx - dy) // 2)


def close_up(view: MapView, centers: Iterable[str], radius: int = DEFAULT_RADIUS) -> MapView:
    """The part of `view` within `radius` steps of any of the `centers` (hex coordinates of the
    view); its runs keep only the track they use there, and runs that do not pass there are left
    out of the legend. Raises ValueError for a radius outside RADII or a centre not on the map."""
    if radius not in RADII:
        raise ValueError(f"Radius {radius} is not allowed: give {RADII.start} to {RADII.stop - 1} hexes.")
    by_coord = {h.coord: h for h in view.hexes}
    wanted = list(dict.fromkeys(centers))
    missing = [coord for coord in wanted if coord not in by_coord]
    if missing or not wanted:
        raise ValueError(f"{', '.join(missing) or 'no hex'} is not a hex of this map")
    middles = [by_coord[coord] for coord in wanted]
    kept = tuple(h for h in view.hexes if any(steps_apart(h, middle) <= radius for middle in middles))
    shown = {h.coord for h in kept}
    routes = []
    for k, route in enumerate(view.routes):
        segments = tuple(segment for segment in route.segments if segment.coord in shown)
        if segments:
            # The colour the whole map gives it, not the next one left in the palette.
            color = g.route_color(route.color, k)
            routes.append(replace(route, segments=segments, color=color))
    around = ", ".join(wanted[:4]) + (f" and {len(wanted) - 4} more" if len(wanted) > 4 else "")
    caption = f"{view.caption} \u2014 around {around}" if view.caption else f"around {around}"
    return replace(view, hexes=kept, highlight_hexes=view.highlight_hexes & shown, routes=tuple(routes),
                   caption=caption)

"""Drawing one hex: its pieces go into named layers that map_svg stacks in a fixed order.

Small decorations (revenue circles, labels, terrain costs, names, marker plates) are placed
with a `Placer` (render/placer.py), so a token or a curve never hides a revenue.
"""

from __future__ import annotations

import math

from render import geometry as g
from render.geometry import FONT_REV, FONT_SMALL, Point
from render.placer import A, Placer, R
from render.plates import Layers, marker_plates, phase_boxes
from render.svgkit import attrs, esc, text, text_width
from render.view import CityView, HexView, PathView, TokenView, TownView

LAYERS = ("fill", "terrain", "track", "route", "city", "token", "text", "marker", "revenue")

TRACK_W = R * 0.17
REV_R = R * 0.16
FONT_NAME = 7.0
FONT_TOKEN = 7.5
METROPOLIS_RING = "#8b0000"
LABEL_ANGLES = (210, 150, 270, 330, 30, 90)  # the tile label goes in a corner, upper left first
LABEL_FONTS = (12.0, 9.0)  # the label's size, and the smaller one a crowded hex may need
ARROW_BASE = 0.66  # red-area track: fraction of the way in where the arrow head starts
ARROW_TIP = 0.42


def endpoint_point(h: HexView, end: tuple[str, int]) -> Point:
    kind, i = end
    if kind == "edge":
        return g.edge_midpoint(i)
    if kind == "city":
        return g.city_center(i, len(h.cities))
    if kind == "town":
        return g.town_center(i, len(h.towns))
    return (0.0, 0.0)  # junction and off-board centre


def path_geometry(h: HexView, path: PathView, origin: Point) -> tuple[str, list[Point]]:
    """SVG path data (absolute) and a relative polyline of the same track piece."""
    (ka, ia), (kb, ib) = path
    if ka == "edge" and kb == "edge":
        return g.edge_edge_track(ia, ib, origin), _edge_edge_polyline(ia, ib)
    if kb == "edge":  # normalise so that an edge, if any, comes first
        (ka, ia), (kb, ib) = (kb, ib), (ka, ia)
    p1 = endpoint_point(h, (ka, ia))
    p2 = endpoint_point(h, (kb, ib))
    if ka == "edge" and kb == "offboard":
        p2 = g.inset_point(ia, ARROW_BASE)  # track into a red area stops at its arrow head
    return g.line_path(g.add(origin, p1), g.add(origin, p2)), [p1, p2]


def _edge_edge_polyline(e1: int, e2: int) -> list[Point]:
    """Sampled points of an edge-to-edge curve, for collision checks only."""
    p1, p2 = g.edge_midpoint(e1), g.edge_midpoint(e2)
    diff = (e2 - e1) % 6
    if diff == 3:
        return [p1, p2]
    mid_edge = (e1 + 1) % 6 if diff == 2 else (e1 - 1) % 6
    if diff in (2, 4):
        centre, radius = g.toward((0.0, 0.0), g.edge_angle(mid_edge), R * g.SQRT3), R * 1.5
    else:
        corner_angle = g.edge_angle(e1) + (30.0 if diff == 1 else -30.0)
        centre, radius = g.toward((0.0, 0.0), corner_angle, R), R * 0.5
    a1 = math.atan2(p1[1] - centre[1], p1[0] - centre[0])
    a2 = math.atan2(p2[1] - centre[1], p2[0] - centre[0])
    delta = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi
    return [
        (centre[0] + radius * math.cos(a1 + delta * k / 8), centre[1] + radius * math.sin(a1 + delta * k / 8))
        for k in range(9)
    ]


def draw_hex(h: HexView, origin: Point) -> Layers:
    out: Layers = {name: [] for name in LAYERS}
    ox, oy = origin
    placer = Placer()
    pts = g.corner_offsets()
    fill = g.HEX_FILL.get(h.color, h.color)
    out["fill"].append(
        f'<polygon {attrs(cls="hex-fill", points=g.polygon_points(pts, ox, oy), fill=fill)} '
        f'stroke="#6e6e6e" stroke-width="1"/>'
    )
    # Track first in the bookkeeping so that decorations avoid it.
    for path in h.paths:
        d, poly = path_geometry(h, path, origin)
        placer.take_polyline(poly, TRACK_W / 2)
        out["track"].append(_track_element(h, path, d))
        if "offboard" in (path[0][0], path[1][0]):
            edge = path[0][1] if path[0][0] == "edge" else path[1][1]
            out["track"].append(_arrow_head(edge, origin))
            placer.take_polyline([g.inset_point(edge, ARROW_BASE), g.inset_point(edge, ARROW_TIP)], TRACK_W * 1.2)
    # The tile number goes in the lower right corner, where printed tiles carry it; its spot
    # is taken before revenues are placed so that a revenue circle never covers it.
    if h.tile_name:
        p = g.toward((0.0, 0.0), 30.0, R * 0.72)
        placer.take(p, 6.0)
        out["text"].append(text(ox + p[0], oy + p[1], h.tile_name, FONT_SMALL, cls="tile-name",
                                fill="#333333"))
    for i, city in enumerate(h.cities):
        _draw_city(h, i, city, origin, placer, out)
    for i, town in enumerate(h.towns):
        _draw_town(h, i, town, origin, placer, out)
    # A red area has nothing else to place: its name takes the free side first (top or bottom,
    # away from the arrows), then the values fill the middle.
    named = bool(h.location_name and h.offboard is not None)
    if named and h.location_name:
        _name(h.location_name, origin, placer, out)
    if h.offboard is not None and h.offboard.values:
        phase_boxes(h.offboard.values, h.offboard.current_index, origin, placer, out,
                    [(0.0, 0.0), (0.0, -R * 0.3), (0.0, R * 0.3), (-R * 0.25, 0.0), (R * 0.25, 0.0)],
                    cls="offboard-values", colors=h.offboard.value_colors, coord=h.coord)
    if h.location_name and not named:
        _name(h.location_name, origin, placer, out)
    if h.terrain_cost or h.terrain_types:
        # Icon and cost side by side: a flat box fits between track better than a stack.
        p = placer.place_box([(0.0, -R * 0.62), (0.0, R * 0.62), (0.0, -R * 0.5), (0.0, R * 0.5)], 32.0, 11.0)
        _terrain(h, (ox + p[0], oy + p[1]), out)
    if h.blocked_by:
        p = placer.place([(0.0, R * 0.45), (0.0, -R * 0.45), (0.0, 0.0)], 10.0)
        _blocked(h.blocked_by, (ox + p[0], oy + p[1]), out)
    marker_plates(h.markers, h.coord, origin, placer, out)
    if h.label:  # last: it may go smaller, the plates may not
        _label(h.label, origin, placer, out)
    return out


def _label(label: str, origin: Point, placer: Placer, out: Layers) -> None:
    """The tile label in a free corner, as a box of its text ("NY" is narrow, "RHQ" or "C.T."
    are not). A four-slot metropolis leaves no corner for 12-unit text: the label goes smaller
    where that fits, rather than over the city and its stations. A white halo keeps it legible
    where it must cross track."""
    spots = _ring(R * 0.6, LABEL_ANGLES) + _ring(R * 0.7, LABEL_ANGLES) + _ring(R * 0.78, LABEL_ANGLES)
    crowded = False
    for size in LABEL_FONTS:
        w = max(12.0, text_width(label, size, bold=True) + 2.0)
        p = placer.free_box(spots, w, size)
        if p is not None:
            placer.take_box(p, w, size)
            break
    else:  # no free room even so: the spot that touches least, haloed to stay legible there
        crowded = True
        size = LABEL_FONTS[-1]
        p = placer.place_box(spots, max(12.0, text_width(label, size, bold=True) + 2.0), size)
    out["text"].append(text(origin[0] + p[0], origin[1] + p[1], label, size, bold=True, cls="label",
                            halo=crowded))


def _ring(dist: float, angles: tuple[int, ...]) -> list[Point]:
    return [g.toward((0.0, 0.0), float(a), dist) for a in angles]


def _track_element(h: HexView, path: PathView, d: str) -> str:
    edges = ",".join(str(i) for kind, i in path if kind == "edge")
    ends = " ".join(f"{kind}{i}" for kind, i in path)
    a = attrs(cls="track", data_coord=h.coord, data_edges=edges, data_ends=ends, d=d)
    return (f'<path {a} fill="none" stroke="{g.TRACK_COLOR}" '
            f'stroke-width="{g.fmt(TRACK_W)}" stroke-linecap="butt"/>')


def _arrow_head(edge: int, origin: Point) -> str:
    """A red area's track ends in an arrow pointing into the area, as on printed maps."""
    ang = g.edge_angle(edge)
    base = g.inset_point(edge, ARROW_BASE)
    tip = g.inset_point(edge, ARROW_TIP)
    left = g.toward(base, ang + 90.0, TRACK_W * 1.2)
    right = g.toward(base, ang - 90.0, TRACK_W * 1.2)
    pts = g.polygon_points([left, tip, right], *origin)
    return f'<polygon class="offboard-arrow" points="{pts}" fill="{g.TRACK_COLOR}"/>'


def _draw_city(h: HexView, i: int, city: CityView, origin: Point, placer: Placer, out: Layers) -> None:
    c = g.city_center(i, len(h.cities))
    sr = g.slot_radius(slots=city.slots)
    ring = g.city_extent(city.slots) + 2.5
    extent = ring + 1.5 if h.metropolis else g.city_extent(city.slots)  # what decorations keep clear of
    placer.take_city(c, extent)
    cx, cy = origin[0] + c[0], origin[1] + c[1]
    shape = ""
    if h.metropolis:  # a heavy ring marks a metropolis, whatever tile it has now
        shape += (f'<circle class="metropolis" cx="{g.fmt(cx)}" cy="{g.fmt(cy)}" r="{g.fmt(ring)}" '
                  f'fill="none" stroke="{METROPOLIS_RING}" stroke-width="3"/>')
    if city.slots == 2:  # printed two-slot cities are a white stadium around both slots
        shape += (f'<rect x="{g.fmt(cx - 2 * sr)}" y="{g.fmt(cy - sr)}" width="{g.fmt(4 * sr)}" '
                  f'height="{g.fmt(2 * sr)}" rx="{g.fmt(sr)}" fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.5"/>')
    elif city.slots > 2:
        shape += (f'<circle cx="{g.fmt(cx)}" cy="{g.fmt(cy)}" r="{g.fmt(g.city_extent(city.slots))}" '
                  f'fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.5"/>')
    slots = []
    for s, (sx, sy) in enumerate(g.slot_centers((cx, cy), city.slots)):
        slots.append(f'<circle class="slot" data-slot="{s}" cx="{g.fmt(sx)}" cy="{g.fmt(sy)}" '
                     f'r="{g.fmt(sr)}" fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.5"/>')
        token = city.tokens[s] if s < len(city.tokens) else None
        reserved = city.reserved[s] if s < len(city.reserved) else None
        if token is not None:
            out["token"].append(_token(token, (sx, sy), sr, h.coord, i, s))
        elif reserved:
            out["token"].append(
                f'<g {attrs(cls="reserved", data_corp=reserved, data_coord=h.coord, data_city=i, data_slot=s)}>'
                + text(sx, sy, reserved, _token_font(reserved, sr), bold=True, fill="#000000", opacity=0.35)
                + "</g>")
    # Stations beyond the printed slots (18USA's Free Station) sit in a dashed slot beside the city.
    for s in range(city.slots, len(city.tokens)):
        token = city.tokens[s]
        if token is None:
            continue
        p = placer.place(_around(c, extent + sr + 1.0), sr)
        ex, ey = origin[0] + p[0], origin[1] + p[1]
        slots.append(f'<circle class="slot extra-slot" data-slot="{s}" cx="{g.fmt(ex)}" cy="{g.fmt(ey)}" '
                     f'r="{g.fmt(sr)}" fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.2" stroke-dasharray="3 2"/>')
        out["token"].append(_token(token, (ex, ey), sr, h.coord, i, s))
    out["city"].append(f'<g {attrs(cls="city", data_coord=h.coord, data_city=i, data_slots=city.slots)}>'
                       + shape + "".join(slots) + "</g>")
    if city.values:
        phase_boxes(city.values, city.current_index, origin, placer, out, _around(c, extent + 9.0),
                    cls="revenue", colors=city.value_colors, coord=h.coord)
    elif city.revenue > 0:
        _revenue(city.revenue, c, extent, origin, placer, out)


def _token(token: TokenView, p: Point, sr: float, coord: str, city: int, slot: int) -> str:
    sx, sy = p
    label = text(sx, sy, token.text, _token_font(token.text, sr), bold=True, fill=token.text_color) if token.text else ""
    return (f'<g {attrs(cls="token", data_corp=token.corporation, data_coord=coord, data_city=city, data_slot=slot)}>'
            f'<circle cx="{g.fmt(sx)}" cy="{g.fmt(sy)}" r="{g.fmt(sr - 1.5)}" fill="{esc(token.fill_color)}" '
            f'stroke="#000" stroke-width="1"/>' + label + "</g>")


def _token_font(label: str, sr: float) -> float:
    # Three-letter ids fill the disc; shrink longer ones rather than let them spill out.
    width = text_width(label, FONT_TOKEN, bold=True)
    limit = sr * 2 - 3
    return FONT_TOKEN if width <= limit else max(FONT_SMALL, FONT_TOKEN * limit / width)


def _draw_town(h: HexView, i: int, town: TownView, origin: Point, placer: Placer, out: Layers) -> None:
    c = g.town_center(i, len(h.towns))
    placer.take(c, R * 0.13)
    out["city"].append(f'<circle {attrs(cls="town", data_coord=h.coord, data_town=i)} '
                       f'cx="{g.fmt(origin[0] + c[0])}" cy="{g.fmt(origin[1] + c[1])}" r="{g.fmt(R * 0.13)}" fill="#000"/>')
    if town.values:
        phase_boxes(town.values, town.current_index, origin, placer, out, _around(c, R * 0.45),
                    cls="revenue", colors=town.value_colors, coord=h.coord)
    elif town.revenue > 0:
        _revenue(town.revenue, c, R * 0.13, origin, placer, out)


def _around(c: Point, dist: float) -> list[Point]:
    angles = (330, 30, 210, 150, 270, 90, 0, 180)
    return [g.toward(c, float(a), d) for d in (dist, dist + 6.0) for a in angles]


def _revenue(value: int, c: Point, extent: float, origin: Point, placer: Placer, out: Layers) -> None:
    p = placer.place(_around(c, extent + REV_R + 2.0), REV_R)
    x, y = origin[0] + p[0], origin[1] + p[1]
    out["revenue"].append(
        f'<g class="revenue" data-value="{value}"><circle cx="{g.fmt(x)}" cy="{g.fmt(y)}" r="{g.fmt(REV_R)}" '
        f'fill="#fff" stroke="#000" stroke-width="1"/>' + text(x, y, str(value), FONT_REV, bold=True) + "</g>")


def _terrain(h: HexView, p: Point, out: Layers) -> None:
    x, y = p
    ix = x - 8.0 if h.terrain_cost else x  # icon on the left of the cost
    kinds = set(h.terrain_types)
    icon = ""
    if kinds & {"water", "lake"}:
        icon = (f'<path d="M {g.fmt(ix - 8)} {g.fmt(y + 1)} q 2.7 -4 5.3 0 t 5.3 0 t 5.3 0" fill="none" '
                f'stroke="#1e64c8" stroke-width="1.8"/>')
    elif "desert" in kinds:
        icon = (f'<path d="M {g.fmt(ix - 8)} {g.fmt(y + 3)} q 4 -8 8 -1.5 q 4 -6 8 1.5 z" fill="#d9a441" '
                f'stroke="#8a5a12" stroke-width="1"/>')
    elif "mountain" in kinds:
        icon = (f'<polygon points="{g.fmt(ix - 7)},{g.fmt(y + 4)} {g.fmt(ix)},{g.fmt(y - 5)} '
                f'{g.fmt(ix + 7)},{g.fmt(y + 4)}" fill="#8b5a2b" stroke="#000" stroke-width="0.8"/>')
    out["terrain"].append(f'<g {attrs(cls="terrain", data_coord=h.coord, data_types=" ".join(h.terrain_types), data_cost=h.terrain_cost)}>'
                          + icon + "</g>")
    if h.terrain_cost:
        out["text"].append(f'<g class="terrain-cost" data-coord="{esc(h.coord)}">'
                           + text(x + 1.0, y, f"${h.terrain_cost}", FONT_SMALL, anchor="start", bold=True)
                           + "</g>")


def _blocked(private: str, p: Point, out: Layers) -> None:
    w = text_width(private, FONT_SMALL, bold=True) + 6
    out["text"].append(
        f'<g class="blocked" data-private="{esc(private)}"><rect x="{g.fmt(p[0] - w / 2)}" y="{g.fmt(p[1] - 6)}" '
        f'width="{g.fmt(w)}" height="12" rx="3" fill="#444" />'
        + text(p[0], p[1], private, FONT_SMALL, bold=True, fill="#fff") + "</g>")


def _name(name: str, origin: Point, placer: Placer, out: Layers) -> None:
    lines = _wrap(name, FONT_NAME, A * 1.4)
    line_h = FONT_NAME * 1.15
    w = max(text_width(ln, FONT_NAME) for ln in lines) + 2.0
    h = line_h * len(lines)
    low, high = R * 0.62 - h / 2 + line_h / 2, -R * 0.62 + h / 2 - line_h / 2
    # Last, over the bottom and top corners: only a hex with no free room uses them, when the
    # spots above and below its city would cover the city's stations.
    cands = [(0.0, low), (0.0, high), (0.0, low - 4), (0.0, high + 4),
             (-R * 0.2, low - 3), (R * 0.2, low - 3), (-R * 0.2, high + 3), (R * 0.2, high + 3),
             (0.0, R * 0.8), (0.0, -R * 0.8)]
    c = placer.place_box(cands, w, h)
    for k, ln in enumerate(lines):
        y = c[1] - h / 2 + line_h * (k + 0.5)
        out["text"].append(text(origin[0] + c[0], origin[1] + y, ln, FONT_NAME, cls="location-name",
                                fill="#111", halo=True))


def _wrap(name: str, size: float, max_width: float) -> list[str]:
    """One line if it fits, else two lines split at the space nearest the middle."""
    if text_width(name, size) <= max_width or " " not in name:
        return [name]
    words = name.split(" ")
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]

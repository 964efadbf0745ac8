"""Drawing one hex: its pieces go into named layers that map_svg stacks in a fixed order.

Small decorations (revenue circles, labels, terrain costs, names) are placed by a tiny
collision check against track, cities and the hex outline, so a token or a curve never
hides a revenue: the first free spot in a fixed candidate list wins, which keeps the
output deterministic.
"""

from __future__ import annotations

import functools
import math

from render import geometry as g
from render.geometry import Point
from render.svgkit import attrs, esc, text, text_width
from render.view import CityView, HexView, PathView, TownView

LAYERS = ("fill", "terrain", "track", "route", "city", "token", "text", "revenue")
Layers = dict[str, list[str]]

R = g.HEX_SIZE
A = R * g.SQRT3 / 2  # centre to edge midpoint
TRACK_W = R * 0.17
REV_R = R * 0.16
FONT_SMALL = 6.5  # the smallest text on the map; png.py keeps it >= 12 px
FONT_NAME = 7.0
FONT_REV = 8.0
FONT_TOKEN = 7.5
PHASE_LABEL_H = 8.5  # the row of phase names above phase-dependent values
ARROW_BASE = 0.66  # red-area track: fraction of the way in where the arrow head starts
ARROW_TIP = 0.42


class Placer:
    """Free-space bookkeeping inside one hex, in coordinates relative to its centre."""

    def __init__(self) -> None:
        self.circles: list[tuple[float, float, float]] = []
        self.segments: list[tuple[Point, Point, float]] = []

    def take(self, p: Point, r: float) -> None:
        self.circles.append((p[0], p[1], r))

    def take_polyline(self, pts: list[Point], half_width: float) -> None:
        for a, b in zip(pts, pts[1:], strict=False):
            self.segments.append((a, b, half_width))

    def fits(self, p: Point, r: float) -> bool:
        # Early-exit version of clash() == 0: the free-spot search calls this thousands of times.
        if any(A - (p[0] * cx + p[1] * sy) < r + 1.0 for cx, sy in _SIDE_NORMALS):
            return False
        if any(math.hypot(p[0] - x, p[1] - y) < r + cr + 1.0 for x, y, cr in self.circles):
            return False
        return all(_seg_dist(p, a, b) >= r + hw + 1.0 for a, b, hw in self.segments)

    def clash(self, p: Point, r: float) -> int:
        """How many things a circle at p would touch (hex sides, circles, track)."""
        n = 0
        for e in range(6):  # stay inside the hex: distance to every side line
            ang = math.radians(g.edge_angle(e))
            if A - (p[0] * math.cos(ang) + p[1] * math.sin(ang)) < r + 1.0:
                n += 1
        n += sum(math.hypot(p[0] - x, p[1] - y) < r + cr + 1.0 for x, y, cr in self.circles)
        n += sum(_seg_dist(p, a, b) < r + hw + 1.0 for a, b, hw in self.segments)
        return n

    def fits_box(self, c: Point, w: float, h: float) -> bool:
        rows = max(1, round(h / (FONT_NAME * 1.15)))
        rh = h / rows
        return all(self.fits((c[0] + dx, c[1] - h / 2 + rh * (k + 0.5)), rh / 2)
                   for k in range(rows) for dx in _spread(max(0.0, w / 2 - rh / 2), rh / 2))

    def box_clash(self, c: Point, w: float, h: float) -> int:
        """A w x h box, probed as a row of circles of radius h/2 along each text line."""
        rows = max(1, round(h / (FONT_NAME * 1.15)))
        rh = h / rows
        n = 0
        for k in range(rows):
            y = c[1] - h / 2 + rh * (k + 0.5)
            for dx in _spread(max(0.0, w / 2 - rh / 2), rh / 2):
                n += self.clash((c[0] + dx, y), rh / 2)
        return n

    def take_box(self, c: Point, w: float, h: float) -> None:
        rows = max(1, round(h / (FONT_NAME * 1.15)))
        rh = h / rows
        for k in range(rows):
            for dx in _spread(max(0.0, w / 2 - rh / 2), rh / 2):
                self.take((c[0] + dx, c[1] - h / 2 + rh * (k + 0.5)), rh / 2)

    def place(self, candidates: list[Point], r: float) -> Point:
        return self.place_box(candidates, 2 * r, 2 * r, circle=True)

    def place_box(self, candidates: list[Point], w: float, h: float, circle: bool = False) -> Point:
        """First free candidate; else the free grid point nearest the first candidate; in a
        hex too crowded for either, the spot that touches the fewest things."""
        def free(p: Point) -> bool:
            return self.fits(p, w / 2) if circle else self.fits_box(p, w, h)

        def cost(p: Point) -> int:
            return self.clash(p, w / 2) if circle else self.box_clash(p, w, h)

        probe = w / 2 if circle else h / max(1, round(h / (FONT_NAME * 1.15))) / 2
        grid = (q for q in _grid_near(candidates[0]) if _inside(q, w / 2, h / 2, probe))
        best = next((p for p in candidates if free(p)), None) or next((p for p in grid if free(p)), None)
        if best is None:  # crowded hex: least-bad candidate, first one on ties
            best = min(candidates, key=lambda p: (cost(p), candidates.index(p)))
        if circle:
            self.take(best, w / 2)
        else:
            self.take_box(best, w, h)
        return best


_SIDE_NORMALS = [(math.cos(math.radians(g.edge_angle(e))), math.sin(math.radians(g.edge_angle(e))))
                 for e in range(6)]
_GRID = [(x * 3.0, y * 3.0) for x in range(-14, 15) for y in range(-15, 16)]


@functools.lru_cache(maxsize=64)
def _grid_near(pref: Point) -> tuple[Point, ...]:
    """The search grid, nearest to `pref` first (cached: candidates are a few fixed points)."""
    return tuple(sorted(_GRID, key=lambda q: (math.hypot(q[0] - pref[0], q[1] - pref[1]), q)))


def _inside(p: Point, half_w: float, half_h: float, probe: float) -> bool:
    """Cheap pre-test that the probe circles of a box at p stay inside the hex.

    Exactly the hex-side part of fits()/fits_box() for the outermost probes, done once per
    grid point instead of once per probe, so it rejects nothing those would accept.
    """
    for nx, ny in _SIDE_NORMALS:
        reach = (half_w - probe) * abs(nx) + (half_h - probe) * abs(ny) + probe
        if A - (p[0] * nx + p[1] * ny) < reach + 1.0:
            return False
    return True


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


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
        _phase_boxes(h.offboard.values, h.offboard.current_index, origin, placer, out,
                     [(0.0, 0.0), (0.0, -R * 0.3), (0.0, R * 0.3), (-R * 0.25, 0.0), (R * 0.25, 0.0)],
                     cls="offboard-values")
    if h.location_name and not named:
        _name(h.location_name, origin, placer, out)
    if h.terrain_cost or h.terrain_types:
        # Icon and cost side by side: a flat box fits between track better than a stack.
        p = placer.place_box([(0.0, -R * 0.62), (0.0, R * 0.62), (0.0, -R * 0.5), (0.0, R * 0.5)], 32.0, 11.0)
        _terrain(h, (ox + p[0], oy + p[1]), out)
    if h.label:
        p = placer.place(_ring(R * 0.6, (210, 150, 270, 330, 30, 90)), 8.0)
        out["text"].append(text(ox + p[0], oy + p[1], h.label, 12.0, bold=True, cls="label"))
    if h.blocked_by:
        p = placer.place([(0.0, R * 0.45), (0.0, -R * 0.45), (0.0, 0.0)], 10.0)
        _blocked(h.blocked_by, (ox + p[0], oy + p[1]), out)
    return out


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
    extent = g.city_extent(city.slots)
    placer.take(c, extent)
    sr = g.slot_radius(slots=city.slots)
    cx, cy = origin[0] + c[0], origin[1] + c[1]
    shape = ""
    if city.slots == 2:  # printed two-slot cities are a white stadium around both slots
        shape = (f'<rect x="{g.fmt(cx - 2 * sr)}" y="{g.fmt(cy - sr)}" width="{g.fmt(4 * sr)}" '
                 f'height="{g.fmt(2 * sr)}" rx="{g.fmt(sr)}" fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.5"/>')
    elif city.slots > 2:
        shape = (f'<circle cx="{g.fmt(cx)}" cy="{g.fmt(cy)}" r="{g.fmt(extent)}" fill="{g.CITY_FILL}" '
                 f'stroke="#000" stroke-width="1.5"/>')
    slots = []
    for s, (sx, sy) in enumerate(g.slot_centers((cx, cy), city.slots)):
        slots.append(f'<circle class="slot" data-slot="{s}" cx="{g.fmt(sx)}" cy="{g.fmt(sy)}" '
                     f'r="{g.fmt(sr)}" fill="{g.CITY_FILL}" stroke="#000" stroke-width="1.5"/>')
        token = city.tokens[s] if s < len(city.tokens) else None
        reserved = city.reserved[s] if s < len(city.reserved) else None
        if token is not None:
            out["token"].append(
                f'<g {attrs(cls="token", data_corp=token.corporation, data_coord=h.coord, data_city=i, data_slot=s)}>'
                f'<circle cx="{g.fmt(sx)}" cy="{g.fmt(sy)}" r="{g.fmt(sr - 1.5)}" fill="{esc(token.fill_color)}" '
                f'stroke="#000" stroke-width="1"/>'
                + text(sx, sy, token.corporation, _token_font(token.corporation, sr), bold=True, fill=token.text_color)
                + "</g>")
        elif reserved:
            out["token"].append(
                f'<g {attrs(cls="reserved", data_corp=reserved, data_coord=h.coord, data_city=i, data_slot=s)}>'
                + text(sx, sy, reserved, _token_font(reserved, sr), bold=True, fill="#000000", opacity=0.35)
                + "</g>")
    out["city"].append(f'<g {attrs(cls="city", data_coord=h.coord, data_city=i, data_slots=city.slots)}>'
                       + shape + "".join(slots) + "</g>")
    if city.values:
        _phase_boxes(city.values, city.current_index, origin, placer, out, _around(c, extent + 9.0), cls="revenue")
    elif city.revenue > 0:
        _revenue(city.revenue, c, extent, origin, placer, out)


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
        _phase_boxes(town.values, town.current_index, origin, placer, out, _around(c, R * 0.45), cls="revenue")
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


def _phase_boxes(values: tuple[tuple[str, int], ...], current: int, origin: Point, placer: Placer,
                 out: Layers, candidates: list[Point], cls: str) -> None:
    """Phase-dependent values side by side, each under the phases it holds in ("2–4",
    "5+"); the one in force is inverted (black box) so it reads at a glance."""
    labelled = any(label for label, _ in values)
    label_h = PHASE_LABEL_H if labelled else 0.0
    height = 14.0 + label_h
    widths = [max(14.0, text_width(str(v), FONT_REV, bold=True) + 5.0,
                  text_width(label, FONT_SMALL, bold=True) + 4.0) for label, v in values]
    total = sum(widths)
    p = placer.place_box(candidates, total, height)
    x = origin[0] + p[0] - total / 2
    top = origin[1] + p[1] - height / 2
    parts = [f'<g {attrs(cls=cls, data_current=values[current][1] if values else None)}>']
    for k, ((label, v), w) in enumerate(zip(values, widths, strict=True)):
        now = k == current
        ink = "#fff" if now else "#555"
        parts.append(f'<rect class="phase-value" data-phase="{esc(label)}" data-current="{int(now)}" '
                     f'x="{g.fmt(x)}" y="{g.fmt(top)}" width="{g.fmt(w)}" height="{g.fmt(height)}" '
                     f'fill="{"#000" if now else "#fff"}" stroke="#000" stroke-width="1"/>')
        if labelled:
            parts.append(text(x + w / 2, top + label_h / 2 + 0.5, label, FONT_SMALL, bold=True, fill=ink,
                              cls="phase-label"))
        parts.append(text(x + w / 2, top + label_h + 7.0, str(v), FONT_REV, bold=True, fill=ink))
        x += w
    out["revenue"].append("".join(parts) + "</g>")


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
    cands = [(0.0, low), (0.0, high), (0.0, low - 4), (0.0, high + 4),
             (-R * 0.2, low - 3), (R * 0.2, low - 3), (-R * 0.2, high + 3), (R * 0.2, high + 3)]
    c = placer.place_box(cands, w, h)
    for k, ln in enumerate(lines):
        y = c[1] - h / 2 + line_h * (k + 0.5)
        out["text"].append(text(origin[0] + c[0], origin[1] + y, ln, FONT_NAME, cls="location-name",
                                fill="#111", halo=True))


def _spread(half: float, step: float = 4.0) -> list[float]:
    n = max(1, math.ceil(half / max(step, 1.0)))
    return [half * (k / n) for k in range(-n, n + 1)]


def _wrap(name: str, size: float, max_width: float) -> list[str]:
    """One line if it fits, else two lines split at the space nearest the middle."""
    if text_width(name, size) <= max_width or " " not in name:
        return [name]
    words = name.split(" ")
    best = min(range(1, len(words)), key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]

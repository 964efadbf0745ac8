"""Hex geometry and palette: the one place that knows where things sit in a hex.

Layout is pointy-top with doubled columns (reference data README section 1): a hex at
(x, y) has x = column number - 1 and y = row index; neighbours in a row are 2 apart in x.
Screen coordinates have y growing downwards, so a growing angle turns clockwise. Edge e
faces the direction 120 + 60*e degrees: 0=SW, 1=W, 2=NW, 3=NE, 4=E, 5=SE, which is the
data's clockwise numbering starting lower-left.

All offsets are relative to the hex centre and scale with the circumradius `size`.
"""

from __future__ import annotations

import math

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)
HEX_SIZE = 50.0  # circumradius in SVG units; the PNG step scales the whole picture

# Hex fills close to the printed tiles (and to the 18xx.games palette players know).
HEX_FILL: dict[str, str] = {
    "white": "#eae0c8",
    "yellow": "#fde900",
    "green": "#71bf44",
    "brown": "#cb7745",
    "gray": "#bcbdc0",
    "red": "#ec232a",
    "blue": "#35a7ff",
}
TRACK_COLOR = "#000000"
CITY_FILL = "#ffffff"
HIGHLIGHT_COLOR = "#ff00c8"  # magenta: distinct from every hex fill and corporation colour
ROUTE_PALETTE: tuple[str, ...] = ("#e6194b", "#0066ff", "#00a86b", "#ff8c00", "#8000ff", "#00b5c8")
FONT_FAMILY = "DejaVu Sans, Liberation Sans, Arial, sans-serif"
# The smallest text on the map. png.py keeps every text >= 12 px and a map <= 2400 px wide, so
# this bounds how wide a board can be drawn: 18USA's 30 columns need 7 units.
FONT_SMALL = 7.0
FONT_REV = 8.0  # revenue values


def route_color(color: str | None, index: int) -> str:
    """A run's colour: its own, or the palette's for the run's place among the map's runs."""
    return color or ROUTE_PALETTE[index % len(ROUTE_PALETTE)]


def hex_center(x: int, y: int, size: float = HEX_SIZE) -> Point:
    """Centre of the hex at data coordinates (x, y), with hex (0, 0) at the origin."""
    return (x * SQRT3 * size / 2.0, y * 1.5 * size)


def corner_offsets(size: float = HEX_SIZE) -> list[Point]:
    """The six corners, starting at the top (north) corner, clockwise."""
    return [_polar(size, -90.0 + 60.0 * i) for i in range(6)]


def edge_angle(edge: int) -> float:
    """Direction (degrees, screen coordinates) from the centre to the middle of `edge`."""
    return (120.0 + 60.0 * edge) % 360.0


def edge_midpoint(edge: int, size: float = HEX_SIZE) -> Point:
    return _polar(size * SQRT3 / 2.0, edge_angle(edge))


def edge_corners(edge: int, size: float = HEX_SIZE) -> tuple[Point, Point]:
    """The two corners bounding `edge`, in clockwise order."""
    a = edge_angle(edge)
    return (_polar(size, a - 30.0), _polar(size, a + 30.0))


def toward(point: Point, angle: float, dist: float) -> Point:
    return _polar(dist, angle, point)


def inset_point(edge: int, frac: float, size: float = HEX_SIZE) -> Point:
    """A point on the line from the centre to the middle of `edge`, `frac` of the way out."""
    return _polar(size * SQRT3 / 2.0 * frac, edge_angle(edge))


# Where the slots of one city sit, in units of the slot radius, indexed by slot count.
# A table rather than one branch per size (the 18xx-maker City.jsx counter-example).
CITY_SLOT_OFFSETS: dict[int, tuple[Point, ...]] = {
    1: ((0.0, 0.0),),
    2: ((-1.0, 0.0), (1.0, 0.0)),
    3: ((0.0, -1.155), (1.0, 0.577), (-1.0, 0.577)),
    4: ((-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)),
    5: ((0.0, -1.7), (1.62, -0.53), (1.0, 1.38), (-1.0, 1.38), (-1.62, -0.53)),
    6: ((0.0, -2.0), (1.732, -1.0), (1.732, 1.0), (0.0, 2.0), (-1.732, 1.0), (-1.732, -1.0)),
}

# Where several cities sit in one hex, in units of the hex size, indexed by city count.
# Two cities sit west and east (18Texas D9: city 0 takes the west track, city 1 the NE).
CITY_POSITIONS: dict[int, tuple[Point, ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.42, 0.05), (0.42, 0.05)),
    3: ((0.0, -0.45), (0.42, 0.28), (-0.42, 0.28)),
    4: ((-0.4, -0.35), (0.4, -0.35), (0.4, 0.35), (-0.4, 0.35)),
}
# Same for towns when a hex has several (none in 18Texas, some 18USA tiles have two).
TOWN_POSITIONS: dict[int, tuple[Point, ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.35, 0.0), (0.35, 0.0)),
}


def slot_radius(size: float = HEX_SIZE, slots: int = 1) -> float:
    # Cities of three or more slots use smaller slots so the city still leaves room in the hex.
    return size * (0.27 if slots <= 2 else 0.23)


def city_center(index: int, count: int, size: float = HEX_SIZE) -> Point:
    table = CITY_POSITIONS.get(count, CITY_POSITIONS[1])
    px, py = table[index] if index < len(table) else (0.0, 0.0)
    return (px * size, py * size)


def town_center(index: int, count: int, size: float = HEX_SIZE) -> Point:
    table = TOWN_POSITIONS.get(count, TOWN_POSITIONS[1])
    px, py = table[index] if index < len(table) else (0.0, 0.0)
    return (px * size, py * size)


def slot_centers(center: Point, slots: int, size: float = HEX_SIZE) -> list[Point]:
    r = slot_radius(size, slots)
    offsets = CITY_SLOT_OFFSETS.get(slots, CITY_SLOT_OFFSETS[1])
    return [(center[0] + dx * r, center[1] + dy * r) for dx, dy in offsets]


def city_extent(slots: int, size: float = HEX_SIZE) -> float:
    """Radius of the circle that encloses a city of `slots` slots."""
    r = slot_radius(size, slots)
    offsets = CITY_SLOT_OFFSETS.get(slots, CITY_SLOT_OFFSETS[1])
    return r + max(math.hypot(dx, dy) for dx, dy in offsets) * r


def edge_edge_track(e1: int, e2: int, origin: Point = (0.0, 0.0), size: float = HEX_SIZE) -> str:
    """SVG path data for plain track between two edges, as printed tiles draw it.

    Opposite edges: a straight line. Edges two apart: the gentle curve, an arc of radius
    1.5*size centred where the two edge lines meet outside the hex. Neighbouring edges: the
    sharp curve, an arc of radius size/2 centred on the shared corner. Both arcs leave the
    edges at right angles, so track meets the neighbour's track without a kink.
    """
    p1, p2 = _add(origin, edge_midpoint(e1, size)), _add(origin, edge_midpoint(e2, size))
    diff = (e2 - e1) % 6
    if diff == 3:
        return f"M {_f(p1[0])} {_f(p1[1])} L {_f(p2[0])} {_f(p2[1])}"
    radius = size * 1.5 if diff in (2, 4) else size * 0.5
    # Sweep: clockwise (1) when going from e1 to e2 turns right around the arc centre, i.e.
    # when e2 follows e1 counter-clockwise around the hex (diff 4 or 5).
    sweep = 1 if diff in (4, 5) else 0
    return (
        f"M {_f(p1[0])} {_f(p1[1])} "
        f"A {_f(radius)} {_f(radius)} 0 0 {sweep} {_f(p2[0])} {_f(p2[1])}"
    )


def line_path(p1: Point, p2: Point) -> str:
    return f"M {_f(p1[0])} {_f(p1[1])} L {_f(p2[0])} {_f(p2[1])}"


def polygon_points(points: list[Point], dx: float = 0.0, dy: float = 0.0) -> str:
    return " ".join(f"{_f(px + dx)},{_f(py + dy)}" for px, py in points)


def _add(a: Point, b: Point) -> Point:
    return (a[0] + b[0], a[1] + b[1])


add = _add


def _polar(dist: float, angle_deg: float, origin: Point = (0.0, 0.0)) -> Point:
    a = math.radians(angle_deg)
    return (origin[0] + dist * math.cos(a), origin[1] + dist * math.sin(a))


def _f(v: float) -> str:
    """Short, deterministic number formatting for SVG attributes."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


fmt = _f

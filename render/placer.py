"""Free-space bookkeeping inside one hex, so that small decorations never cover each other.

Decorations (revenue circles, labels, terrain costs, names, marker plates) are placed by a tiny
collision check against track, cities and the hex outline: the first free spot in a fixed
candidate list wins, which keeps the output deterministic.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from render import geometry as g
from render.geometry import Point

R = g.HEX_SIZE
A = R * g.SQRT3 / 2  # centre to edge midpoint
LINE_H = 7.0 * 1.15  # height of one line of place names: boxes are probed one line at a time
CITY_WEIGHT = 4  # what covering a city adds to a crowded spot's cost, above the 1 any clash costs


class Placer:
    """Free-space bookkeeping inside one hex, in coordinates relative to its centre."""

    def __init__(self) -> None:
        self.circles: list[tuple[float, float, float]] = []
        self.segments: list[tuple[Point, Point, float]] = []
        self.cities: list[tuple[float, float, float]] = []  # also in circles

    def take(self, p: Point, r: float) -> None:
        self.circles.append((p[0], p[1], r))

    def take_city(self, p: Point, r: float) -> None:
        """A city and its stations: taken like any circle, and in a hex too crowded for a free
        spot, covering it costs more than crossing track or the hex side (a covered station
        hides whose it is; text over track stays legible with its halo)."""
        self.take(p, r)
        self.cities.append((p[0], p[1], r))

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
        """How many things a circle at p would touch (hex sides, circles, track), a city
        counting CITY_WEIGHT more."""
        # Stay inside the hex: distance to every side line.
        n = sum(A - (p[0] * nx + p[1] * ny) < r + 1.0 for nx, ny in _SIDE_NORMALS)
        n += sum(math.hypot(p[0] - x, p[1] - y) < r + cr + 1.0 for x, y, cr in self.circles)
        n += sum(_seg_dist(p, a, b) < r + hw + 1.0 for a, b, hw in self.segments)
        n += CITY_WEIGHT * sum(math.hypot(p[0] - x, p[1] - y) < r + cr + 1.0 for x, y, cr in self.cities)
        return n

    def fits_box(self, c: Point, w: float, h: float) -> bool:
        return all(self.fits((c[0] + dx, c[1] + dy), r) for dx, dy, r in _box_probes(w, h))

    def first_free(self, grid: np.ndarray, probes: tuple[tuple[float, float, float], ...]) -> int | None:
        """Index of the first grid point where every probe circle fits; fits() for a whole
        grid at once (the fallback search would otherwise test hundreds of points one by one)."""
        ok = np.ones(len(grid), dtype=bool)
        xs, ys = grid[:, 0:1], grid[:, 1:2]  # columns, to broadcast against the obstacles
        circles = np.array(self.circles, dtype=float).reshape(-1, 3)
        segments = np.array([(a[0], a[1], b[0], b[1], hw) for a, b, hw in self.segments],
                            dtype=float).reshape(-1, 5)
        ax, ay, sx, sy = segments[:, 0], segments[:, 1], segments[:, 2] - segments[:, 0], segments[:, 3] - segments[:, 1]
        length2 = sx * sx + sy * sy
        safe = np.where(length2 == 0, 1.0, length2)
        for dx, dy, r in probes:
            px, py = xs + dx, ys + dy
            ok &= (A - (px * _NORMALS[:, 0] + py * _NORMALS[:, 1]) >= r + 1.0).all(axis=1)
            ok &= (np.hypot(px - circles[:, 0], py - circles[:, 1]) >= r + circles[:, 2] + 1.0).all(axis=1)
            t = np.where(length2 == 0, 0.0, np.clip(((px - ax) * sx + (py - ay) * sy) / safe, 0.0, 1.0))
            ok &= (np.hypot(px - (ax + t * sx), py - (ay + t * sy)) >= r + segments[:, 4] + 1.0).all(axis=1)
        hits = np.flatnonzero(ok)
        return int(hits[0]) if len(hits) else None

    def box_clash(self, c: Point, w: float, h: float) -> int:
        """A w x h box, probed as a row of circles of radius h/2 along each text line."""
        rows = max(1, round(h / (LINE_H)))
        rh = h / rows
        n = 0
        for k in range(rows):
            y = c[1] - h / 2 + rh * (k + 0.5)
            for dx in spread(max(0.0, w / 2 - rh / 2), rh / 2):
                n += self.clash((c[0] + dx, y), rh / 2)
        return n

    def take_box(self, c: Point, w: float, h: float) -> None:
        rows = max(1, round(h / (LINE_H)))
        rh = h / rows
        for k in range(rows):
            for dx in spread(max(0.0, w / 2 - rh / 2), rh / 2):
                self.take((c[0] + dx, c[1] - h / 2 + rh * (k + 0.5)), rh / 2)

    def place(self, candidates: list[Point], r: float) -> Point:
        return self.place_box(candidates, 2 * r, 2 * r, circle=True)

    def free_box(self, candidates: list[Point], w: float, h: float, circle: bool = False) -> Point | None:
        """First free candidate, else the free grid point nearest the first candidate, else
        None (nothing is taken)."""
        def free(p: Point) -> bool:
            return self.fits(p, w / 2) if circle else self.fits_box(p, w, h)

        probes = ((0.0, 0.0, w / 2),) if circle else _box_probes(w, h)
        best = next((p for p in candidates if free(p)), None)
        if best is None:
            points, array = _grid_inside(candidates[0], w / 2, h / 2, probes[0][2])
            found = self.first_free(array, probes) if points else None
            best = points[found] if found is not None else None
        return best

    def place_box(self, candidates: list[Point], w: float, h: float, circle: bool = False) -> Point:
        """First free candidate; else the free grid point nearest the first candidate; in a
        hex too crowded for either, the spot that touches the fewest things."""
        def cost(p: Point) -> int:
            return self.clash(p, w / 2) if circle else self.box_clash(p, w, h)

        best = self.free_box(candidates, w, h, circle)
        if best is None:  # crowded hex: least-bad candidate, first one on ties
            best = min(candidates, key=lambda p: (cost(p), candidates.index(p)))
        if circle:
            self.take(best, w / 2)
        else:
            self.take_box(best, w, h)
        return best


_SIDE_NORMALS = [(math.cos(math.radians(g.edge_angle(e))), math.sin(math.radians(g.edge_angle(e))))
                 for e in range(6)]
_NORMALS = np.array(_SIDE_NORMALS, dtype=float)
_GRID = [(x * 3.0, y * 3.0) for x in range(-14, 15) for y in range(-15, 16)]


@functools.lru_cache(maxsize=64)
def _grid_near(pref: Point) -> tuple[Point, ...]:
    """The search grid, nearest to `pref` first (cached: candidates are a few fixed points)."""
    return tuple(sorted(_GRID, key=lambda q: (math.hypot(q[0] - pref[0], q[1] - pref[1]), q)))


@functools.lru_cache(maxsize=2048)
def _grid_inside(pref: Point, half_w: float, half_h: float, probe: float) -> tuple[tuple[Point, ...], np.ndarray]:
    """The grid points where a box of this size stays inside the hex, nearest `pref` first,
    also as an array (cached: the same plates and circles come back in hex after hex)."""
    points = tuple(q for q in _grid_near(pref) if _inside(q, half_w, half_h, probe))
    return points, np.array(points, dtype=float).reshape(-1, 2)


@functools.lru_cache(maxsize=2048)
def _box_probes(w: float, h: float) -> tuple[tuple[float, float, float], ...]:
    """A w x h box as circles (dx, dy, radius) from its centre: a row along each text line."""
    rows = max(1, round(h / LINE_H))
    rh = h / rows
    return tuple((dx, -h / 2 + rh * (k + 0.5), rh / 2)
                 for k in range(rows) for dx in spread(max(0.0, w / 2 - rh / 2), rh / 2))


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


def spread(half: float, step: float = 4.0) -> list[float]:
    n = max(1, math.ceil(half / max(step, 1.0)))
    return [half * (k / n) for k in range(-n, n + 1)]

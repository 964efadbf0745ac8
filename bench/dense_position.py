"""A dense synthetic late-game network for the route optimizer's benchmark and tests.

About 200 hexes laid out as an 18USA-sized map (14 rows of 14 hexes, doubled columns, pointy
hexes, the same edge numbering as the real maps): cities with brown and gray tiles and several
station slots, small cities, red areas on the border that must end a run, and plain gray and
brown junction track on every other hex, so almost every hex side carries track. The company has
many stations; other companies fill a few cities, which then block. Everything is drawn from a
seeded random generator, so a seed names a position.

The tiles are written here, not read from any title's data: the optimizer must not depend on one
title's map.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.board import Board

ROWS = 14
PER_ROW = 14
OFFSETS = {0: (-1, 1), 1: (-2, 0), 2: (-1, -1), 3: (1, -1), 4: (2, 0), 5: (1, 1)}
COMPANY = "USA"
OTHERS = ("B&O", "PRR", "NYC", "ATSF", "SP", "UP")


def _to_city(edges: list[int], kind: str = "city") -> list[dict[str, Any]]:
    return [{"a": {"edge": edge}, "b": {kind: 0}} for edge in edges]


def _junction(edges: list[int]) -> list[dict[str, Any]]:
    return [{"a": {"edge": edge}, "b": {"junction": True}} for edge in edges]


TILES: list[dict[str, Any]] = [
    {"name": "J6", "color": "gray", "junction": True, "paths": _junction([0, 1, 2, 3, 4, 5])},
    {"name": "J5", "color": "gray", "junction": True, "paths": _junction([0, 1, 2, 3, 4])},
    {"name": "J4a", "color": "brown", "junction": True, "paths": _junction([0, 1, 3, 4])},
    {"name": "J4b", "color": "brown", "junction": True, "paths": _junction([0, 1, 2, 3])},
    {"name": "X", "color": "green", "paths": [{"a": {"edge": 0}, "b": {"edge": 3}},
                                              {"a": {"edge": 1}, "b": {"edge": 4}}]},
    {"name": "C70", "color": "gray", "paths": _to_city([0, 1, 2, 3, 4, 5]),
     "cities": [{"index": 0, "part_index": 0, "revenue": 70, "slots": 3}]},
    {"name": "C50", "color": "brown", "paths": _to_city([0, 1, 2, 3, 4, 5]),
     "cities": [{"index": 0, "part_index": 0, "revenue": 50, "slots": 2}]},
    {"name": "C40", "color": "brown", "paths": _to_city([0, 1, 3, 4]),
     "cities": [{"index": 0, "part_index": 0, "revenue": 40, "slots": 2}]},
    {"name": "T30", "color": "brown", "paths": _to_city([0, 2, 4], "town"),
     "towns": [{"index": 0, "part_index": 0, "revenue": 30}]},
]
CITY_TILES = ("C70", "C50", "C50", "C40")
PLAIN_TILES = ("J6", "J6", "J5", "J4a", "J4b", "X")
RED_VALUES = ({"yellow": 20, "green": 30, "brown": 50, "gray": 60},
              {"yellow": 30, "green": 40, "brown": 60, "gray": 80},
              {"yellow": 20, "green": 30, "brown": 60, "gray": 90},
              {"yellow": 40, "green": 50, "brown": 40, "gray": 40})


def _coords() -> dict[tuple[int, int], str]:
    """(x, y) -> coord, with numbers of one parity per row as on the real maps."""
    found = {}
    for y in range(ROWS):
        for i in range(PER_ROW):
            x = 2 * i + (y % 2)
            found[(x, y)] = f"{chr(ord('A') + y)}{x + 1}"
    return found


def dense_board(seed: int = 1) -> Board:
    """The board of a dense position: every hex tiled (a few left empty), tokens placed."""
    rng = random.Random(seed)
    coords = _coords()
    hexes = []
    kinds: dict[str, str] = {}
    for (x, y), coord in coords.items():
        border = y in (0, ROWS - 1) or x < 2 or x >= 2 * PER_ROW - 2
        roll = rng.random()
        if border and roll < 0.12:
            kinds[coord] = "red"
        elif not border and roll < 0.22:
            kinds[coord] = "city"
        elif roll < 0.30:
            kinds[coord] = "town"
        elif roll < 0.95:
            kinds[coord] = "plain"
        else:
            kinds[coord] = "empty"
    for (x, y), coord in coords.items():
        neighbors = {str(edge): coords[(x + dx, y + dy)] for edge, (dx, dy) in OFFSETS.items()
                     if (x + dx, y + dy) in coords}
        raw: dict[str, Any] = {
            "coord": coord, "x": x, "y": y, "color": "white", "engine_tile_id": coord,
            "neighbors": neighbors, "connectable_neighbors": neighbors, "accepts_tiles": True,
            "paths": [], "cities": [], "towns": [], "offboards": [],
        }
        if kinds[coord] == "red":
            edges = [int(edge) for edge in neighbors]
            raw.update(color="red", accepts_tiles=False, paths=_to_city(edges, "offboard"),
                       offboards=[{"index": 0, "part_index": 0, "revenue": rng.choice(RED_VALUES),
                                   "route_must_end_here": True}])
        hexes.append(raw)
    board = Board({"hexes": hexes}, {"tiles": TILES})
    for coord, kind in kinds.items():
        if kind in ("red", "empty"):
            continue
        name = {"city": rng.choice(CITY_TILES), "town": "T30"}.get(kind) or rng.choice(PLAIN_TILES)
        tile = board.tiles[name]
        state = board.hexes[coord]
        rotations = [r for r in range(6) if all(e in state.hexdef.neighbors for e in tile.exits(r))]
        rotation = rng.choice(rotations) if rotations else rng.randrange(6)
        board.place_tile(coord, tile, f"{name}-{board.free_copy(name)}", rotation)
    cities = sorted(coord for coord, kind in kinds.items() if kind == "city")
    rng.shuffle(cities)
    # Eight stations of the company; others fill some cities to the brim.
    for coord in cities[:8]:
        board.hexes[coord].tokens[0][0] = COMPANY
    for coord in cities[8:]:
        slots = board.hexes[coord].tokens[0]
        if rng.random() < 0.35:
            for index in range(len(slots)):
                slots[index] = OTHERS[(index + len(coord)) % len(OTHERS)]
        elif rng.random() < 0.5:
            slots[0] = rng.choice(OTHERS)
    return board

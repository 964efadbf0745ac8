"""The real 18USA map as a dense late-game position, for the route optimizer's benchmark.

A setup dealt from a seed (red-area values, metropolises), then every hex that takes tiles gets
brown or gray track: plain hexes a junction tile (gray 60 or X17, brown 544-546), cities the
brown or gray city tile of their label (unlabelled ones brown 63 or 611), each turned so that
as many exits as the map allows point at a neighbour. The company gets eight stations; other
companies fill some cities. Tile counts and upgrade paths are not followed: only the shape of
the network matters here.
"""

from __future__ import annotations

import random

from engine.core.board import Board, HexState
from engine.core.tiles import TileDef
from engine.titles.g18usa.board_setup import lay_metropolis_tiles, map_with_red_area_values
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import SETUP_OPTIONS, setup_from_seed

COMPANY = "PRR"
OTHERS = ("B&O", "NYC", "ATSF", "SP", "UP", "GN")
PLAYERS = [{"id": n, "name": f"Player {n}"} for n in range(1, 5)]
PLAIN = ("60", "60", "X17", "544", "545", "546")
CITY = ("63", "63", "611", "448")
MEXICO = ("I5", "I7", "I9", "I11", "J12", "K13")


def _turned(board: Board, state: HexState, tile: TileDef) -> int | None:
    """The legal rotation with the most exits, if any."""
    rotations = board.legal_rotations(state, tile)
    if not rotations:
        return None
    return max(rotations, key=lambda r: (len(tile.exits(r)), -r))


def _lay(board: Board, rng: random.Random, coord: str, names: list[str]) -> None:
    state = board.hexes[coord]
    rng.shuffle(names)
    for name in names:
        tile = board.tiles.get(name)
        if tile is None:
            continue
        rotation = _turned(board, state, tile)
        if rotation is not None:
            board.place_tile(coord, tile, f"{name}-{len(board.used_copies[name])}", rotation)
            return


def dense_usa_board(seed: int = 1) -> Board:
    rng = random.Random(seed)
    data = load_data()
    setup = setup_from_seed(seed, PLAYERS, SETUP_OPTIONS)
    board = Board(map_with_red_area_values(data["map"], setup), data["tiles"])
    lay_metropolis_tiles(board, setup)
    by_label: dict[str, list[str]] = {}
    for name, tile in board.tiles.items():
        if tile.color in ("brown", "gray") and tile.cities and tile.label:
            by_label.setdefault(tile.label, []).append(name)
    for coord, state in sorted(board.hexes.items()):
        if not state.hexdef.accepts_tiles:
            continue
        if state.tile.cities:
            label = state.tile.label or state.hexdef.label
            names = list(by_label.get(label, ())) if label else []
            _lay(board, rng, coord, names or list(CITY))
        elif not state.tile.stops:
            _lay(board, rng, coord, list(PLAIN))
    cities = sorted((coord, index) for coord, state in board.hexes.items()
                    for index in range(len(state.tokens)) if state.tile_laid and state.tile.paths)
    rng.shuffle(cities)
    placed = 0
    for coord, index in cities:
        slots = board.hexes[coord].tokens[index]
        if placed < 8 and None in slots:
            slots[slots.index(None)] = COMPANY
            placed += 1
        elif rng.random() < 0.3:
            for position, slot in enumerate(slots):
                if slot is None:
                    slots[position] = OTHERS[(position + len(coord)) % len(OTHERS)]
    return board

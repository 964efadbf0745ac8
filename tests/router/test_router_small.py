"""The route optimizer against the brute-force reference on small generated 18Texas maps.

Each map starts from a new 18Texas game: a random phase, station tokens of several companies in
random cities (so some cities are full and block), then random tiles laid next to existing track
with the engine's own upgrade chart and legal rotations, and a random set of trains.
"""

from __future__ import annotations

import random

import pytest
from test_router_reference import reference_best

from engine import new_game
from engine.core.entities import Train
from engine.core.game import BaseGame
from engine.core.graph import reach_of
from engine.core.most_earnings import best_runs
from engine.core.track import lay_candidates

PLAYERS = [{"id": n, "name": f"p{n}"} for n in range(1, 5)]
CORPS = ("T&P", "MKT", "SP", "MP", "SSW", "SAA")


def random_position(seed: int, tiles: int = 30) -> tuple[BaseGame, str]:
    """A company's network grown from one station, with stations of others in its cities."""
    rng = random.Random(seed)
    state = new_game("18Texas", PLAYERS, seed).state
    board = state.board
    state.phase_index = rng.randrange(1, len(state.phases))
    mover = rng.choice(CORPS)
    homes = sorted(coord for coord, hexstate in board.hexes.items()
                   if hexstate.tile.cities and hexstate.hexdef.accepts_tiles)
    home = rng.choice(homes)
    if not board.hexes[home].tile.paths:
        _try_lay(state, rng, home, None)
    board.hexes[home].tokens[0][0] = mover
    for _ in range(tiles):
        _lay_random_tile(state, rng, mover)
    # More stations: the company's own, and others' that fill cities so they block.
    cities = [(coord, index) for coord in sorted(reach_of(board, mover).hexes)
              for index in range(len(board.hexes[coord].tokens))]
    for corp in (mover, *rng.choices(CORPS, k=5)):
        coord, index = rng.choice(cities)
        slots = board.hexes[coord].tokens[index]
        if None in slots and corp not in board.hexes[coord].corporations_here():
            slots[slots.index(None)] = corp
    corp = state.corporations[mover]
    corp.trains = [Train(f"{d}-{i}", str(d), d, 0, None) for i, d in
                   enumerate(sorted(rng.choices((2, 3, 4, 5, 6, 8), k=rng.randint(1, 3))))]
    return state, mover


def _lay_random_tile(state: BaseGame, rng: random.Random, corporation: str) -> None:
    """Extend an open track end of the company's network, or now and then upgrade a tile there."""
    board = state.board
    network = sorted(reach_of(board, corporation).hexes)
    if rng.random() < 0.3:
        laid = [coord for coord in network if board.hexes[coord].tile_laid]
        if laid and _try_lay(state, rng, rng.choice(laid), None):
            return
    ends = []
    for coord in network:
        hexstate = board.hexes[coord]
        for edge in hexstate.exits():
            neighbor = hexstate.hexdef.connectable.get(edge)
            if neighbor is not None and (edge + 3) % 6 not in board.hexes[neighbor].exits():
                ends.append((neighbor, (edge + 3) % 6))
    rng.shuffle(ends)
    for coord, edge in ends[:10]:
        if board.hexes[coord].hexdef.accepts_tiles and _try_lay(state, rng, coord, edge):
            return


def _try_lay(state: BaseGame, rng: random.Random, coord: str, edge: int | None) -> bool:
    board = state.board
    hexstate = board.hexes[coord]
    names = lay_candidates(state, hexstate)
    rng.shuffle(names)
    for name in names:
        tile = board.tiles[name]
        rotations = [r for r in board.legal_rotations(hexstate, tile) if edge is None or edge in tile.exits(r)]
        if rotations:
            board.place_tile(coord, tile, f"{name}-{board.free_copy(name)}", rng.choice(rotations))
            return True
    return False


@pytest.mark.parametrize("seed", range(40))
def test_optimizer_equals_brute_force_on_a_generated_map(seed: int) -> None:
    state, mover = random_position(seed)
    corp = state.corporations[mover]
    result = best_runs(state, corp)
    assert result.proven_optimal
    assert result.engine_disagreements == 0
    assert result.total == reference_best(state, corp)
    model = best_runs(state, corp, method="model")
    assert model.proven_optimal and model.engine_disagreements == 0
    assert model.total == result.total


@pytest.mark.parametrize("seed", range(100, 110))
def test_cached_answer_is_the_same_and_follows_board_changes(seed: int) -> None:
    state, mover = random_position(seed, tiles=20)
    corp = state.corporations[mover]
    first = best_runs(state, corp)
    again = best_runs(state, corp)
    assert again.runs == first.runs and again.total == first.total
    rng = random.Random(seed)
    for _ in range(5):
        _lay_random_tile(state, rng, mover)
    assert best_runs(state, corp).total == reference_best(state, corp)

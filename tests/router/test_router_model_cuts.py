"""The route model's valid inequalities (router_model.stops_apart) against every legal run.

The model forbids two stops on one run when a run through both takes more distance than the
train has, and asks a visited stop to have a city with the company's station within reach. Both
hold for every run the brute-force reference lists (it shares no code with the model), on
generated 18Texas maps (a rural junction-free map, cities full of others' stations) and regions
of the 18USA map (off-boards, towns that take no distance, rural junctions). A cut that removed
a legal run would fail here, and the optimizer tests would then miss answers.
"""

from __future__ import annotations

import pytest
from test_router_reference import PrintedBoard, reference_runs
from test_router_small import random_position
from test_router_usa import COMPANY, usa_position

from engine.core.game import BaseGame
from engine.core.most_earnings import problem_from_game
from engine.router.model import stops_apart
from engine.router.model_input import model_input


def _check_every_run(state: BaseGame, corporation: str, distances: list[int]) -> int:
    """Checks every reference run of each distance against the cuts; returns the pairs they cut."""
    corp = state.corporations[corporation]
    problem = problem_from_game(state, corp)
    prepared = model_input(problem, list(problem.trains), ())
    graph = prepared.graph
    apart = stops_apart(prepared)
    board = PrintedBoard(state)
    cut = 0
    for distance in distances:
        stops = list(graph.stop_of)
        cut += sum(1 for u in stops for v in stops if u < v and apart[u].get(v, distance + 1) > distance)
        for run, _, _ in reference_runs(board, corporation, distance):
            vertices = [graph.stop_vertex(node) for node in run]
            assert None not in vertices, run
            counted = sum(board.stops[node].cost for node in run)
            for position, u in enumerate(vertices):
                assert u is not None
                for v in vertices[position + 1:]:
                    assert v is not None and apart[u][v] <= counted, (run, distance)
                stations = [k for k, node in zip(vertices, run, strict=True) if board.has_station(corporation, node)]
                assert u in stations or any(apart[u][k] <= counted for k in stations if k is not None), run
    return cut


@pytest.mark.parametrize("first", range(0, 40, 10))
def test_no_legal_run_on_a_generated_18texas_map_breaks_the_cuts(first: int) -> None:
    cut = 0
    for seed in range(first, first + 10):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        distances = sorted({train.distance for train in state.corporations[mover].trains if train.distance})
        cut += _check_every_run(state, mover, distances)
    assert cut > 0  # the cuts do forbid pairs of stops on these maps


def test_no_legal_run_in_an_18usa_region_breaks_the_cuts() -> None:
    cut = 0
    for seed in range(12):
        state = usa_position(seed)
        distances = sorted({train.distance for train in state.corporations[COMPANY].trains if train.distance})
        cut += _check_every_run(state, COMPANY, distances)
    assert cut > 0

"""The stop-circuit model (router_stopcircuit) against the brute-force reference on small positions.

Every model search is answered by the stop-circuit model alone (with the optimizer's own engine
check of the runs it returns): generated 18Texas maps with hooks of every kind (track bonuses,
bonus stops, a stop that may not end a run, a red area of two hexes, an end limit, a Pullman and a
route bonus), and regions of the 18USA map with the title's own hooks. The budget is generous: a
proof, not speed, is checked here.
"""

from __future__ import annotations

import time

import pytest
from test_router_hooks import hook
from test_router_reference import reference_best
from test_router_small import random_position
from test_router_usa import COMPANY, usa_position

from engine.core.most_earnings import best_runs, problem_from_game
from engine.router import model_search as router_modelsearch
from engine.router import stopcircuit as router_stopcircuit
from engine.router.model import ModelInput, ModelOutcome
from engine.router.model_input import model_input
from engine.router.track import OutOfTime


@pytest.fixture
def circuits_only(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the problems the stop-circuit model answered (each with its trains)."""
    answered: list[int] = []

    def search(problem: ModelInput, deadline: float) -> ModelOutcome:
        outcome = router_stopcircuit.solve(problem, deadline - time.perf_counter())
        assert outcome is not None
        answered.append(len(problem.trains))
        return outcome

    monkeypatch.setattr(router_modelsearch, "search_model", search)
    return answered


@pytest.mark.parametrize("first", range(0, 120, 40))
def test_stop_circuits_equal_brute_force_with_hooks(first: int, circuits_only: list[int]) -> None:
    for seed in range(first, first + 40):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        hooked = hook(state, mover, seed)
        corp = hooked.corporations[mover]
        result = best_runs(hooked, corp, method="model", time_budget=60.0)
        assert result.proven_optimal and result.engine_disagreements == 0, seed
        assert result.total == reference_best(hooked, corp), seed
    assert sum(1 for trains in circuits_only if trains > 1) >= 10


def test_stop_circuits_equal_brute_force_on_18usa_regions(circuits_only: list[int]) -> None:
    for seed in range(40):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        runners = [train for train in corp.trains if train.distance > 0]
        result = best_runs(state, corp, method="model", time_budget=60.0)
        assert result.proven_optimal and result.engine_disagreements == 0, seed
        assert result.total == reference_best(state, corp, runners), seed
    assert len(circuits_only) >= 20


def test_too_many_segments_is_no_model_and_a_past_deadline_raises() -> None:
    state, mover = random_position(3, tiles=40)
    problem = problem_from_game(state, state.corporations[mover])
    prepared = model_input(problem, sorted(problem.trains, key=lambda train: -train.distance), ())
    assert router_stopcircuit.build(prepared, limit=1) is None
    with pytest.raises(OutOfTime):
        router_stopcircuit.build(prepared, deadline=time.perf_counter() - 1, limit=10**9)

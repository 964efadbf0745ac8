"""The conflict search (router_joint) against the brute-force reference on small positions.

The joint CP-SAT model is switched off here (it answers "nothing found"), so every proof of two
trains comes from the conflict search: the single-train models, the branching on shared track,
branching hex sides and narrow junctions, attachments (a Pullman and a route bonus each go to
one train), end limits (at most one run may end in a group of hexes), and the mirror cut for
identical trains. The budget is generous: a proof, not speed, is checked here.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_router_hooks import hook
from test_router_reference import reference_best
from test_router_small import random_position
from test_router_usa import COMPANY, usa_position

from engine.core.most_earnings import best_runs
from engine.router import model_search as router_modelsearch
from engine.router.model import ModelOutcome


@pytest.fixture
def no_joint_model(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the multi-train problems the joint model was asked (and refused)."""
    asked: list[int] = []
    real_solve = router_modelsearch.solve

    def single_trains_only(problem: Any, *args: Any, **options: Any) -> ModelOutcome:
        if len(problem.trains) > 1:
            asked.append(len(problem.trains))
            return ModelOutcome((), 0, False, False)
        return real_solve(problem, *args, **options)

    monkeypatch.setattr(router_modelsearch, "solve", single_trains_only)
    return asked


@pytest.mark.parametrize("first", range(0, 160, 40))
def test_conflict_search_equals_brute_force_with_hooks(first: int, no_joint_model: list[int]) -> None:
    checked = 0
    for seed in range(first, first + 40):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        hooked = hook(state, mover, seed)
        corp = hooked.corporations[mover]
        if len(corp.trains) != 2:
            continue
        result = best_runs(hooked, corp, method="model", time_budget=60.0)
        assert result.proven_optimal and result.engine_disagreements == 0, seed
        assert result.total == reference_best(hooked, corp), seed
        checked += 1
    assert checked >= 5 and no_joint_model


def test_conflict_search_equals_brute_force_on_18usa_regions(no_joint_model: list[int]) -> None:
    checked = 0
    for seed in range(40):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        runners = [train for train in corp.trains if train.distance > 0]
        if len(runners) != 2:
            continue
        result = best_runs(state, corp, method="model", time_budget=60.0)
        assert result.proven_optimal and result.engine_disagreements == 0, seed
        assert result.total == reference_best(state, corp, runners), seed
        checked += 1
    assert checked >= 5 and no_joint_model

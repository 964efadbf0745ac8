"""The optimizer's answer carries its bound: the total when proven, else the most any runs could
earn as far as the search got, which no legal runs exceed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_router_reference import reference_best
from test_router_small import random_position

from engine.core.most_earnings import best_runs
from engine.router import joint as router_joint
from engine.router import model_search as router_modelsearch
from engine.router.model import ModelOutcome
from engine.router_cli import run_positions

DATA = Path(__file__).resolve().parent.parent / "data" / "fixtures"


def test_a_proven_answer_is_its_own_bound() -> None:
    for state, action in run_positions(json.loads((DATA / "18Texas" / "65394.json").read_text())):
        if action["id"] == 101:  # MP runs three trains
            result = best_runs(state, "MP")
            assert result.proven_optimal and result.bound == result.total
            return
    raise AssertionError("no run at action 101")


def test_an_open_answer_is_bounded_above_the_best_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The conflict search stopped after its first branching (the joint CP-SAT model switched
    off, so the bound is the conflict search's own): its bound lies at or above what the
    brute-force reference finds on small two-train positions, and above the answer when open."""
    real_solve = router_modelsearch.solve

    def single_trains_only(problem: Any, *args: Any, **options: Any) -> ModelOutcome:
        if len(problem.trains) > 1:
            return ModelOutcome((), 0, False, False)
        return real_solve(problem, *args, **options)

    monkeypatch.setattr(router_modelsearch, "solve", single_trains_only)
    monkeypatch.setattr(router_joint, "MAX_NODES", 1)
    checked = open_answers = 0
    for seed in range(40):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        corp = state.corporations[mover]
        if len(corp.trains) != 2:
            continue
        result = best_runs(state, corp, method="model", time_budget=30.0)
        best = reference_best(state, corp)
        assert result.bound is not None and result.bound >= best >= result.total, (seed, result.bound, best)
        assert result.proven_optimal == (result.bound == result.total), seed
        open_answers += not result.proven_optimal
        checked += 1
    assert checked >= 5 and open_answers >= 1, (checked, open_answers)

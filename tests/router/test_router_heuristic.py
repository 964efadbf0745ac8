"""The beam search that gives the route model its first answer (router_heuristic).

Its answers are never proven, but they must always be legal: the model starts from them, and when
the model finds nothing in time they are what the player is offered. With the solver taken away,
the optimizer's answer is the beam search's own, and the engine's run check must accept it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from test_router_hooks import hook
from test_router_reference import reference_best
from test_router_small import random_position
from test_router_usa import COMPANY, usa_position

from engine.core.entities import Company
from engine.core.most_earnings import _engine_agrees, best_runs
from engine.router import model_search as router_modelsearch
from engine.router.joint import Proof
from engine.router.model import ModelOutcome
from engine.titles.g18usa.operating_trains import check_runs as usa_check_runs


def _no_solver(*args: Any, **options: Any) -> ModelOutcome:
    return ModelOutcome((), 0, False, False)


def _no_proof(*args: Any, **options: Any) -> Proof:
    return Proof(None, False, {})


@pytest.mark.parametrize("hooked", [False, True], ids=["plain", "hooked"])
def test_beam_answers_are_legal_moves_and_mostly_the_best(monkeypatch: pytest.MonkeyPatch, hooked: bool) -> None:
    monkeypatch.setattr(router_modelsearch, "solve", _no_solver)
    monkeypatch.setattr(router_modelsearch, "prove", _no_proof)
    best = 0
    for seed in range(0, 120, 4):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        if hooked:
            state = hook(state, mover, seed)
        corp = state.corporations[mover]
        expected = reference_best(state, corp)
        result = best_runs(state, corp, method="model")
        assert not result.proven_optimal and result.engine_disagreements == 0, seed
        assert result.total <= expected, seed
        # The engine's own run check: same track, same revenue (these games are still in their
        # auction, so the move cannot be played).
        assert _engine_agrees(state, corp, result), seed
        best += result.total == expected
    # Measured (the search is deterministic): the beam alone finds the best runs in 23 of these 30
    # plain positions and in 20 hooked ones; fewer means the first answers got worse.
    assert best >= (20 if hooked else 23)


def test_a_first_answer_that_meets_the_single_train_bounds_is_proven_without_the_joint_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two trains that never want the same track: each earns its best alone, which proves the pair."""
    joint_searches = 0
    real_solve = router_modelsearch.solve

    def counting(problem: Any, *args: Any, **options: Any) -> ModelOutcome:
        nonlocal joint_searches
        if len(problem.trains) > 1:
            joint_searches += 1
            return ModelOutcome((), 0, False, False)  # the joint search never proves here
        return real_solve(problem, *args, **options)

    monkeypatch.setattr(router_modelsearch, "solve", counting)
    proven = 0
    for seed in range(0, 60, 3):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        corp = state.corporations[mover]
        if len(corp.trains) < 2:
            continue
        result = best_runs(state, corp, method="model")
        if result.proven_optimal:
            assert result.total == reference_best(state, corp), seed
            proven += 1
    assert joint_searches > 0 and proven >= 3


def test_the_beam_puts_an_extender_on_a_train_that_gains_by_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """P30's extender (+1 distance for one train): with the solver taken away, the beam's answer
    carries it on a train whose run needs it, the title's own run step accepts the runs at their
    value with the extender on that train, and they earn more than any runs without it (fails if
    the beam plans every train at its bare distance)."""
    monkeypatch.setattr(router_modelsearch, "solve", _no_solver)
    monkeypatch.setattr(router_modelsearch, "prove", _no_proof)
    longer = 0
    for seed in range(24):
        state = usa_position(seed)
        state.importing = False
        corp = state.corporations[COMPANY]
        without = reference_best(state, corp, [train for train in corp.trains if train.distance > 0])
        state.companies["P30"] = Company(id="P30", name="P30", value=0, revenue=0, owner=corp)
        result = best_runs(state, corp, method="model")
        assert not result.proven_optimal and result.engine_disagreements == 0, seed
        holders = {name: run.train for run in result.runs for name in run.attachments}
        routes = tuple(result.to_action(corp.id)["routes"])
        runs = usa_check_runs(state, corp, SimpleNamespace(attachments=holders), routes)  # type: ignore[arg-type]
        assert sum(run.revenue for run in runs) == result.total, seed
        longer += result.total > without and "P30" in holders
    # Measured (the search is deterministic): in 8 of these 24 positions the best runs need the
    # extender (the model, given time, proves no more), and the beam finds all 8. (Before a train
    # took one upgrade at most, 12: the extender stacked on the Pullman's train; choosing the
    # train that gains most alone found 9 of those.)
    assert longer >= 8

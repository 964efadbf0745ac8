"""The stop-circuit model (router_stopcircuit) on late positions of the fixture 109372 that the
optimizer could not prove in 2 s before it (issue 12): ATSF's 5+4 at action 1234 and B&O's 6+4
at action 1290. With only that model answering, the runs are proven the best, the engine's own
run check accepts them, and they earn at least what the players' runs earned. The budget is
generous: a proof, not speed (bench/router.py measures that)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from usa_positions import logged_action
from usa_tracecheck import position_in

from engine.core.most_earnings import _engine_agrees, best_runs
from engine.router import model_search as router_modelsearch
from engine.router import stopcircuit as router_stopcircuit
from engine.router.heuristic import Plan, plan_trains
from engine.router.model import ModelInput, ModelOutcome

LOG = "109372"


@pytest.mark.parametrize("index", [1234, 1290])
def test_stop_circuits_prove_late_two_train_runs(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    answered: list[ModelOutcome] = []

    def search(problem: ModelInput, deadline: float) -> ModelOutcome:
        plans = plan_trains(problem, deadline=time.perf_counter() + 0.3)
        outcome = router_stopcircuit.solve(problem, deadline - time.perf_counter(), plans=plans,
                                           holders=router_modelsearch._holders(problem, plans))
        assert outcome is not None
        answered.append(outcome)
        return outcome

    monkeypatch.setattr(router_modelsearch, "search_model", search)
    game = position_in(LOG, index)
    action = logged_action(LOG, index)
    corp = game.corporations[action["entity"]]
    recorded = sum(int(route["revenue"]) for route in action["routes"])

    result = best_runs(game, corp, method="model", time_budget=60.0)

    assert len(answered) == 1 and len(result.runs) == 2
    assert result.proven_optimal and result.total >= recorded, (result.total, recorded)
    assert result.engine_disagreements == 0 and _engine_agrees(game, corp, result)


def test_a_long_search_hands_many_segments_to_stop_circuits(monkeypatch: pytest.MonkeyPatch) -> None:
    """N&W's 8+5 at action 1454 (840 segments): too many for the stop circuits in 2 s, but with 10 s
    and more left after the first try (`/game routes` searches 20 s by default) they take it,
    starting from the longer search for good runs (improve_plans, run just before them), and
    prove it. The first try is made to find nothing, so that this phase is reached on any machine."""
    real = router_stopcircuit.solve
    real_improve = router_modelsearch.improve_plans
    answered: list[ModelOutcome] = []
    calls: list[tuple[str, int]] = []  # (phase, worth of the runs it returned or started from)

    def spied(problem: ModelInput, *args: Any, **options: Any) -> ModelOutcome | None:
        calls.append(("circuits", router_modelsearch._worth(problem, options["plans"])))
        outcome = real(problem, *args, **options)
        if outcome is not None:
            answered.append(outcome)
        return outcome

    def improve(problem: ModelInput, *args: Any, **options: Any) -> list[Plan]:
        plans = real_improve(problem, *args, **options)
        calls.append(("improve", router_modelsearch._worth(problem, plans)))
        return plans

    def nothing_yet(*args: Any, **options: Any) -> ModelOutcome:
        return ModelOutcome((), 0, False, False)

    monkeypatch.setattr(router_stopcircuit, "solve", spied)
    monkeypatch.setattr(router_modelsearch, "improve_plans", improve)
    monkeypatch.setattr(router_modelsearch, "solve", nothing_yet)
    game = position_in(LOG, 1454)
    corp = game.corporations[logged_action(LOG, 1454)["entity"]]

    result = best_runs(game, corp, time_budget=60.0)

    assert [phase for phase, _ in calls] == ["improve", "circuits"]
    assert calls[1][1] >= calls[0][1]  # the better of the quick plans and the improved ones
    assert [outcome.proven for outcome in answered] == [True]
    assert result.proven_optimal and result.total == answered[0].total >= 910
    assert result.engine_disagreements == 0 and _engine_agrees(game, corp, result)

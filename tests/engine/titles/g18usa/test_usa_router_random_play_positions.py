"""Route optimizer positions 18USA random play found (the optimizer check, tests/optimizer_check.py):
the whole-network model with CP-SAT's LP on middling models (router_modelsearch.LP_EDGES), and a
model answer the run step refuses offered at the run step's own values (router._engine_values)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from usa_positions import kept_position

from engine.core.most_earnings import best_runs
from engine.core.steps.route import given_most
from engine.router import RouteResult
from engine.router import solve as router


def test_a_switcher_on_sixty_edges_is_proven() -> None:
    """Seed 20700 (the deep player, 4 players), NYC's run in Operating Round 9.1: one 4-train with
    P19's switcher on it and P17, a model of 59 track edges; the most is $310 (the model and the
    listing search each prove it in under a second of CPU). The position first kept here (C&O's
    3-train on 60 edges) had a 1 s model answer of $200, not proven, for a most of $210; it no
    longer replays after 18USA rule changes (bench/keep_positions.py found this one). Both
    searches prove it."""
    game = kept_position("usa_switcher_sixty_edges")
    for method in (None, "model"):
        result = best_runs(game.state, "NYC", method=method)

        assert result.proven_optimal, method
        assert result.total == 310 and result.engine_disagreements == 0, method


def test_a_refused_model_answer_is_offered_at_the_run_steps_values(monkeypatch: pytest.MonkeyPatch) -> None:
    """A model stopped at its deadline declared a switcher train's run $10 under what the run step
    computes (its dropped stop not the one P19's rule drops: C&O's run in Operating Round 6.2 of
    the deep player's seed 20700, a position that no longer replays after 18USA rule changes);
    the step refused the answer and best_runs offered nothing. The position kept now (the deep
    player, 4 players, seed 20705): SP's run in Operating Round 4.1, P19's switcher on its 2-train
    2-1, with a 2- and a 2+-train; the most is $270. The model's answer is made $10 short here:
    the runs come back at the step's values, which the step accepts."""
    game = kept_position("usa_switcher_drop_revalued")
    state = game.state
    real = router._model

    def short_by_ten(*args: Any, **options: Any) -> RouteResult:
        found = real(*args, **options)
        runs = tuple(replace(run, revenue=run.revenue - 10) if "P19" in run.attachments else run
                     for run in found.runs)
        return replace(found, runs=runs, total=sum(run.revenue for run in runs))

    monkeypatch.setattr(router, "_model", short_by_ten)
    result = best_runs(state, "SP", time_budget=5.0, method="model")  # the listing proves it at once

    assert any("P19" in run.attachments for run in result.runs)
    assert result.total == sum(run.revenue for run in result.runs) >= 250
    assert result.engine_disagreements == 1 and not result.proven_optimal
    trial = state.snapshot()
    with given_most(trial, result):
        trial.process(result.to_action("SP"))
    assert [run.revenue for run in trial.last_runs] == [run.revenue for run in result.runs]

"""The route optimizer on every run of the real and generated 18Texas logs.

At each logged `run_routes` the optimizer must equal the brute-force reference, be proven optimal,
earn at least what the players declared (they ran with the reference site's auto-router), and
produce an action the engine accepts.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_router_reference import reference_best

from engine.core.most_earnings import best_runs
from engine.router_cli import route_lines, run_positions

DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURE = DATA / "fixtures" / "18Texas" / "65394.json"
LOGS = [FIXTURE, *sorted((DATA / "generated" / "18Texas").glob("*.json"))]


@pytest.mark.parametrize("log_path", LOGS, ids=[path.stem for path in LOGS])
def test_optimizer_equals_brute_force_at_every_logged_run(log_path: Path) -> None:
    positions = 0
    for state, action in run_positions(json.loads(log_path.read_text())):
        corp = state.corporations[action["entity"]]
        result = best_runs(state, corp)
        where = f"action {action['id']} ({corp.id})"
        assert result.proven_optimal, where
        assert result.engine_disagreements == 0, where
        assert result.total == reference_best(state, corp), where
        # The whole-network model, which late 18USA positions need, agrees on every position.
        model = best_runs(state, corp, method="model")
        assert model.method == "model" and model.proven_optimal, where
        assert model.engine_disagreements == 0 and model.total == result.total, where
        assert result.total >= sum(route["revenue"] for route in action["routes"]), where
        assert sum(run.revenue for run in result.runs) == result.total
        assert len({run.train for run in result.runs}) == len(result.runs)
        positions += 1
    assert positions > 20


def test_the_engine_accepts_every_answer_on_the_fixture() -> None:
    """Each answer, played instead of the logged run, is a legal move worth what it says."""
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        result = best_runs(state, action["entity"])
        trial = copy.deepcopy(state)
        trial.importing = False  # revenue is checked, not taken from the action
        trial.process(result.to_action(action["entity"]))
        assert trial.last_runs and sum(run.revenue for run in trial.last_runs) == result.total
        assert [run.train for run in trial.last_runs] == [run.train for run in result.runs]
        assert [set(run.paths) for run in trial.last_runs] == [set(run.paths) for run in result.runs]


def test_routes_lines_on_the_fixture() -> None:
    lines = list(route_lines(json.loads(FIXTURE.read_text())))
    logged = [a for a in json.loads(FIXTURE.read_text())["actions"] if a["type"] == "run_routes"]
    assert len(lines) == len(logged) == 64
    assert [line["action_id"] for line in lines] == [a["id"] for a in logged]
    for line in lines:
        assert set(line) == {"action_id", "corporation", "declared", "best", "proven_optimal", "seconds",
                             "method", "action"}
        assert line["best"] >= line["declared"], line
        move = line["action"]
        assert move["type"] == "run_routes" and move["entity"] == line["corporation"]
        assert sum(route["revenue"] for route in move["routes"]) == line["best"]
        for route in move["routes"]:
            assert set(route) >= {"train", "connections", "hexes", "nodes", "revenue"}
        assert line["proven_optimal"] is True
    # Each proposed action is one the engine accepts at that position, worth what it says.
    for (state, _), line in zip(run_positions(json.loads(FIXTURE.read_text())), lines, strict=True):
        trial = copy.deepcopy(state)
        trial.importing = False
        trial.process(line["action"])
        assert sum(run.revenue for run in trial.last_runs) == line["best"]
    # The site's router missed better runs in some positions; the rest match exactly.
    assert sum(line["best"] > line["declared"] for line in lines) >= 1

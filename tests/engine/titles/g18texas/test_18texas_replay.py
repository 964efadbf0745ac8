"""Real and generated 18xx.games logs replay to the reference engine's state after every action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tracecheck import DATA, first_divergence, read_trace

from engine import GameError, load_game
from engine.legal import is_offered
from engine.log import SITE_RULES, effective_actions, new_game

FIXTURE = DATA / "fixtures" / "18Texas" / "65394.json"
# Every 18Texas log we have: the generated ones include the 33 games of `18Texas-more`, played with
# the private companies' powers, forced purchases from other companies and forced discards.
GENERATED = sorted((DATA / "generated" / "18Texas").glob("*.json")) + sorted(
    (DATA / "generated" / "18Texas-more").glob("*.json"))
LOGS = [(FIXTURE, DATA / "traces" / "65394.jsonl.gz")] + [
    (path, path.parent / "traces" / f"{path.stem}.jsonl.gz") for path in GENERATED
]


def _load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=[p.stem for p, _ in LOGS])
def test_state_matches_reference_trace_after_every_action(log_path: Path, trace_path: Path) -> None:
    assert first_divergence(_load(log_path), read_trace(trace_path)) is None


@pytest.mark.parametrize("log_path", [p for p, _ in LOGS], ids=[p.stem for p, _ in LOGS])
def test_replay_gives_the_logged_result(log_path: Path) -> None:
    log = _load(log_path)
    game = load_game(log)
    assert game.finished
    assert game.result() == {str(k): v for k, v in log["result"].items()}


@pytest.mark.parametrize("log_path", [p for p, _ in LOGS], ids=[p.stem for p, _ in LOGS])
def test_every_logged_action_was_offered_by_the_legal_moves_query(log_path: Path) -> None:
    log = _load(log_path)
    game = new_game(log["title"], log["players"], log["settings"]["seed"], [SITE_RULES])
    state = game.state
    state.importing = True
    missing = []
    for action in effective_actions(log["actions"]):
        for part in [action, *action.get("auto_actions", [])]:
            if not is_offered(state, part):
                missing.append(part)
            state._apply_one(part)
    assert missing == []


def test_first_divergence_names_the_action_and_field() -> None:
    log = _load(FIXTURE)
    trace = read_trace(DATA / "traces" / "65394.jsonl.gz")
    trace[30]["bank"] += 1
    report = first_divergence(log, trace)
    assert report is not None
    assert report.startswith(f"action {trace[30]['i']} ")
    assert ".bank: ours" in report


def test_an_illegal_action_in_a_log_is_reported_with_its_position() -> None:
    log = _load(FIXTURE)
    log["actions"][0] = dict(log["actions"][0], price=1)
    with pytest.raises(GameError, match=r"^action 0 \(id 1, bid\): a bid on GRRRC must be at least \$80"):
        load_game(log)


def test_undo_and_redo_in_a_log_are_resolved_before_replay() -> None:
    log = _load(FIXTURE)
    actions = log["actions"]
    wrong = dict(actions[1], id=1000, price=actions[1]["price"] + 5)
    log["actions"] = actions[:1] + [wrong, {"type": "undo", "entity": wrong["entity"], "id": 1001},
                                    {"type": "redo", "entity": wrong["entity"], "id": 1002},
                                    {"type": "undo", "entity": wrong["entity"], "id": 1003}] + actions[1:]
    game = load_game(log)
    assert game.result() == {str(k): v for k, v in log["result"].items()}


def test_live_runs_may_not_add_extra_revenue_but_imported_logs_keep_theirs() -> None:
    log = _load(FIXTURE)
    index = next(i for i, a in enumerate(log["actions"]) if a["type"] == "run_routes")
    game = load_game(dict(log, actions=log["actions"][:index]))
    action = dict(log["actions"][index], extra_revenue=1000)
    before = game.state.result()
    with pytest.raises(GameError, match="extra_revenue"):
        game.process(action)
    assert game.state.result() == before
    game.process(log["actions"][index])


def test_undo_in_an_imported_game_keeps_the_logged_revenues() -> None:
    log = _load(FIXTURE)
    game = load_game(log)
    last = game.state.result()
    game.process({"type": "undo", "entity": log["players"][0]["id"], "entity_type": "player"})
    game.process({"type": "redo", "entity": log["players"][0]["id"], "entity_type": "player"})
    assert game.state.result() == last == {str(k): v for k, v in log["result"].items()}

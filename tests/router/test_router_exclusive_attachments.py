"""A train carries one exclusive attachment at most (18USA: the Pullman, P19's switcher and P30's
extender; `operating_trains.eligible_trains` offers no second one for a train), and the route
optimizer keeps to that: on 18USA regions where a company has two extendable trains, a Pullman
and P30, its answer equals a brute force that hands out the extender and the Pullman under that
rule and values every run by the title's own run rules (`revenue.run_value`), and no train of the
answer carries both. On several of these positions stacking both on one train would pay, so an
optimizer that stacked them would claim more than the brute force.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace
from typing import Any

import pytest
from test_router_reference import PrintedBoard, RefRun, _breaks_roles, reference_runs
from test_router_usa import COMPANY, usa_position

from engine import GameError
from engine.core.entities import Company, Corporation, Train
from engine.core.most_earnings import best_runs
from engine.core.route_hooks import Attachment, assign_attachments
from engine.router import RouteResult
from engine.router import model_search as router_modelsearch
from engine.router.joint import Proof
from engine.router.model import ModelOutcome
from engine.titles.g18usa.game import G18USA
from engine.titles.g18usa.operating_trains import check_runs as usa_check_runs
from engine.titles.g18usa.revenue import RunTrain, check_run_set, run_value

EXTENDER, PULLMAN = "P30", "P"
SEEDS = range(24)
TRAIN_PAIRS = (("4", "2"), ("3", "2"), ("4", "3"), ("3+", "2+"))

Valued = tuple[int, RefRun]


def _position(seed: int) -> tuple[G18USA, Corporation]:
    state = usa_position(seed)
    state.importing = False
    corp = state.corporations[COMPANY]
    long, short = TRAIN_PAIRS[seed % len(TRAIN_PAIRS)]
    corp.trains = [Train(f"{long}-0", long, int(long[0]), 0, None, owner=corp),
                   Train(f"{short}-1", short, int(short[0]), 0, None, owner=corp),
                   Train("P-0", "P", 0, 0, None, owner=corp)]
    state.companies[EXTENDER] = Company(id=EXTENDER, name="extender", value=0, revenue=0, owner=corp)
    return state, corp


def _valued_runs(state: G18USA, corp: Corporation, board: PrintedBoard, train: Train, extended: bool,
                 pullman: bool) -> list[Valued]:
    """Every legal run of `train` with these attachments, valued by the title's run rules, best first."""
    owned = [company.id for company in state.companies_of(corp)]
    distance = train.distance + extended
    found = []
    for run in reference_runs(board, corp.id, distance):
        if _breaks_roles(state, board, corp, run[0]):
            continue
        try:
            value = run_value(state.umap, corp.id, state.phase.name, RunTrain(train.id, distance, pullman),
                              list(run[0]), sorted(run[1]), owned)
        except GameError:
            continue
        found.append((value, run))
    return sorted(found, key=lambda item: -item[0])


def _best_pair(first: list[Valued], second: list[Valued], state: G18USA) -> int:
    """The best track-disjoint runs of two trains (either may stay idle), best-first lists."""
    best = max([0] + [value for value, _ in first[:1]] + [value for value, _ in second[:1]])
    for value, (stops, paths, sides) in first:
        if value + (second[0][0] if second else 0) <= best:
            break
        for other, (other_stops, other_paths, other_sides) in second:
            if value + other <= best:
                break
            if paths.isdisjoint(other_paths) and sides.isdisjoint(other_sides):
                try:
                    check_run_set(state.umap, [stops, other_stops])
                except GameError:
                    continue
                best = value + other
                break
    return best


def brute_force(state: G18USA, corp: Corporation, exclusive: bool) -> int:
    """The best two runs with the extender and the Pullman each on one train or none, at most one
    of them on a train if `exclusive`."""
    board = PrintedBoard(state)
    long, short = corp.trains[:2]
    best = 0
    for extended, pulled in product((None, 0, 1), repeat=2):
        if exclusive and extended is not None and extended == pulled:
            continue
        lists = [_valued_runs(state, corp, board, train, extended == t, pulled == t)
                 for t, train in enumerate((long, short))]
        best = max(best, _best_pair(lists[0], lists[1], state))
    return best


def _title_total(state: G18USA, corp: Corporation, result: RouteResult) -> int:
    """What the title's run step makes of the answer, its attachments on the trains it names."""
    for run in result.runs:
        assert not {EXTENDER, PULLMAN} <= set(run.attachments), (run.train, run.attachments)
    holders = {name: run.train for run in result.runs for name in run.attachments}
    checked = usa_check_runs(state, corp, SimpleNamespace(attachments=holders),  # type: ignore[arg-type]
                             tuple(result.to_action(corp.id)["routes"]))
    return sum(run.revenue for run in checked)


@pytest.mark.parametrize("seed", SEEDS)
def test_no_train_carries_two_upgrades_and_the_answer_equals_the_brute_force(seed: int) -> None:
    state, corp = _position(seed)
    expected = brute_force(state, corp, exclusive=True)

    result = best_runs(state, corp, time_budget=20.0)

    assert result.proven_optimal and result.engine_disagreements == 0
    assert result.total == expected, (seed, result.total, expected)
    assert _title_total(state, corp, result) == result.total


def _no_solver(*args: Any, **options: Any) -> ModelOutcome:
    return ModelOutcome((), 0, False, False)


def _no_proof(*args: Any, **options: Any) -> Proof:
    return Proof(None, False, {})


def test_the_beam_alone_puts_one_upgrade_on_a_train(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the solver taken away the answer is the beam search's (router_heuristic): it too
    keeps the extender and the Pullman apart, and earns what the title says."""
    monkeypatch.setattr(router_modelsearch, "solve", _no_solver)
    monkeypatch.setattr(router_modelsearch, "prove", _no_proof)
    for seed in SEEDS:
        state, corp = _position(seed)
        result = best_runs(state, corp, method="model")
        assert not result.proven_optimal and result.engine_disagreements == 0, seed
        assert _title_total(state, corp, result) == result.total, seed
        assert result.total <= brute_force(state, corp, exclusive=True), seed


def test_stacking_would_pay_on_several_of_these_positions() -> None:
    """Without the rule the brute force earns more on several positions: the test above would catch
    an optimizer that stacks."""
    paying = 0
    for seed in SEEDS:
        state, corp = _position(seed)
        paying += brute_force(state, corp, exclusive=False) > brute_force(state, corp, exclusive=True)
    assert paying >= 4, paying


def test_value_only_exclusive_attachments_go_one_to_a_train() -> None:
    """The hand-out both the engine and the optimizer use: exclusive attachments on different
    trains, none on a train that already carries one (`occupied`), others anywhere."""
    long = ("long", [(f"A{i}", "city", 0) for i in range(5)], [1] * 5)
    short = ("short", [("B1", "city", 0), ("B2", "city", 0)], [1, 1])
    first = Attachment("first", stop_bonus=20, exclusive=True)
    second = Attachment("second", stop_bonus=10, exclusive=True)
    free = Attachment("free", stop_bonus=5)
    assert assign_attachments([first, second, free], [long, short]) == {
        "first": "long", "second": "short", "free": "long"}
    assert assign_attachments([first, second, free], [long, short], occupied={"long"}) == {
        "first": "short", "free": "long"}

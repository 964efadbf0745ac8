"""The whole-network search: a quick first answer, bounds per train, then the model to prove it.

1. router_heuristic plans good runs in a few tens of milliseconds; CP-SAT starts from them, and
   on most positions proves them or better at once (small models without its LP, which proves
   them fastest).
2. Otherwise, with several trains, each kind of train is solved alone. What one train can earn alone
   bounds what it earns beside the others, so these bounds cut the joint search; when the first
   answer already earns their sum, it is proven without the joint search at all.
3. The joint model (router_model) again, with these bounds, proves or improves until the deadline.

Every phase checks the clock: out of time, the best answer so far is returned, not proven.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from engine.core.route_hooks import assign_attachments, attachment_credit
from engine.core.router_heuristic import Plan, plan_trains
from engine.core.router_model import (
    LINEARIZATION,
    ModelInput,
    ModelOutcome,
    TrainSpec,
    run_from_walk,
    solve,
)

HEURISTIC_SHARE = 0.15  # of the time budget, at most, for the first answer
# Models of at most this many track edges are solved without CP-SAT's LP (router_model.WORKERS):
# measured on the 18USA logs' hardest small positions (25-31 edges, an extender), 7x less CPU; on
# larger ones (77-94 edges) the LP pays.
SMALL_EDGES = 64
# Of what is left, for a first try of the model: small positions end here. With 0.25 the bounds
# of single trains came too late for the hardest 18USA log positions (109372 action 1060).
FIRST_SHARE = 0.1
SINGLES_SHARE = 0.4  # of what is left then, at most, for the bounds of single trains


def _holders(problem: ModelInput, plans: Sequence[Plan]) -> dict[int, int]:
    """Value-only attachment index -> train index, handed out as the engine hands them out."""
    graph = problem.graph
    described = []
    for plan in plans:
        stops = [graph.stop_of[v] for v in plan.vertices if v in graph.stop_of]
        described.append((problem.trains[plan.train].id, stops, [problem.costs.get(node, 1) for node in stops]))
    by_id = {train.id: t for t, train in enumerate(problem.trains)}
    given = assign_attachments(problem.attachments, described)
    return {k: by_id[given[attachment.id]] for k, attachment in enumerate(problem.attachments)
            if attachment.id in given}


def _credits(problem: ModelInput, plans: Sequence[Plan]) -> dict[int, tuple[int, tuple[str, ...]]]:
    """Train -> what its value-only attachments add and their ids, handed out as the engine does."""
    graph = problem.graph
    by_train = {plan.train: plan for plan in plans}
    out: dict[int, tuple[int, tuple[str, ...]]] = {}
    for k, t in sorted(_holders(problem, plans).items()):
        stops = [graph.stop_of[v] for v in by_train[t].vertices if v in graph.stop_of]
        gain = attachment_credit(problem.attachments[k], stops, [problem.costs.get(node, 1) for node in stops])
        before = out.get(t, (0, ()))
        out[t] = (before[0] + gain, before[1] + (problem.attachments[k].id,))
    return out


def _worth(problem: ModelInput, plans: Sequence[Plan]) -> int:
    return sum(plan.value for plan in plans) + sum(gain for gain, _ in _credits(problem, plans).values())


def _as_outcome(problem: ModelInput, plans: Sequence[Plan], proven: bool) -> ModelOutcome:
    credits = _credits(problem, plans)
    runs = []
    for plan in plans:
        gain, names = credits.get(plan.train, (0, ()))
        runs.append(run_from_walk(problem.graph, plan.train, plan.vertices, plan.edges, plan.value + gain, names))
    return ModelOutcome(tuple(runs), sum(run.revenue for run in runs), proven, bool(runs))


def _kind(problem: ModelInput, t: int) -> tuple[object, ...]:
    """What makes two trains interchangeable for the bound of one train alone."""
    train = problem.trains[t]
    allowed = tuple(a.trains is None or train.id in a.trains for a in problem.attachments)
    return (train.distance, tuple(sorted(train.values.items())), tuple(sorted(train.track_bonuses.items())),
            allowed)


def _alone(problem: ModelInput, t: int, attachments: bool) -> ModelInput:
    spec: TrainSpec = problem.trains[t]
    kept = tuple(a for a in problem.attachments if a.trains is None or spec.id in a.trains) if attachments else ()
    return replace(problem, trains=(spec,), attachments=kept, end_limits=())


def _single_bounds(problem: ModelInput, plans: Sequence[Plan], deadline: float) -> tuple[dict[int, int], int | None]:
    """Per train, the most it earns alone (with the attachments it may carry), and, when the
    attachments allow a simple sum, the most all trains together can earn; {} if out of time."""
    value_only = all(not a.changes_distance for a in problem.attachments)
    simple = not problem.attachments or (len(problem.attachments) == 1 and value_only)
    by_train = {plan.train: plan for plan in plans}
    known: dict[tuple[object, ...], tuple[int, int]] = {}
    caps: dict[int, int] = {}
    bare: dict[int, int] = {}
    for t in range(len(problem.trains)):
        kind = _kind(problem, t)
        if kind not in known:
            results = []
            for attachments in ((True, False) if problem.attachments and simple else (True,)):
                alone = _alone(problem, t, attachments)
                plan = by_train.get(t)
                hint = [replace(plan, train=0)] if plan is not None else []
                outcome = solve(alone, deadline - time.perf_counter(), plans=hint, holders={})
                if not outcome.proven:
                    return {}, None
                results.append(outcome.total)
            known[kind] = (results[0], results[-1])
        caps[t], bare[t] = known[kind]
    if not simple:
        return caps, None
    if not problem.attachments:
        return caps, sum(caps.values())
    attachment = problem.attachments[0]
    carriers = [t for t, spec in enumerate(problem.trains) if attachment.trains is None or spec.id in attachment.trains]
    base = sum(bare.values())
    return caps, base + max((caps[t] - bare[t] for t in carriers), default=0)


def search_model(problem: ModelInput, deadline: float) -> ModelOutcome:
    """The best runs of the problem's trains, proven if there is time (see the module docstring)."""
    started = time.perf_counter()
    plans = plan_trains(problem, deadline=started + (deadline - started) * HEURISTIC_SHARE)
    first = _worth(problem, plans)
    holders = _holders(problem, plans)
    small = len(problem.graph.edges) <= SMALL_EDGES
    outcome = solve(problem, (deadline - time.perf_counter()) * (FIRST_SHARE if len(problem.trains) > 1 else 1),
                    plans=plans, holders=holders, linearization=0 if small else LINEARIZATION)
    if len(problem.trains) > 1 and not outcome.proven and plans and time.perf_counter() < deadline:
        singles_end = time.perf_counter() + (deadline - time.perf_counter()) * SINGLES_SHARE
        caps, total_cap = _single_bounds(problem, plans, singles_end)
        best = max(first, outcome.total if outcome.found else 0)
        if total_cap is not None and best >= total_cap:
            # An answer earns what the trains could earn if none were in another's way.
            return _as_outcome(problem, plans, True) if first >= best else replace(outcome, proven=True)
        start, start_holders = plans, holders
        if outcome.found and outcome.total > first:
            # Start again from the model's better answer.
            start = [Plan(run.train, run.vertices, run.edges, run.revenue) for run in outcome.runs]
            index = {attachment.id: k for k, attachment in enumerate(problem.attachments)}
            start_holders = {index[name]: run.train for run in outcome.runs for name in run.attachments}
        again = solve(problem, deadline - time.perf_counter(), plans=start, holders=start_holders, caps=caps,
                      total_cap=total_cap, linearization=0 if small else LINEARIZATION)
        if again.found and (again.proven or again.total > outcome.total or not outcome.found):
            outcome = again
    if outcome.found and outcome.total >= first or not plans:
        return outcome
    return _as_outcome(problem, plans, False)

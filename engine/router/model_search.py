"""The whole-network search: a quick first answer, then the proof.

1. router_heuristic plans good runs in a few tens of milliseconds; CP-SAT starts from them, and
   on most positions proves them or better at once (small models without its LP, which proves
   them fastest). In a longer search both get no more time than in a 2 s one.
2. Otherwise, with several trains on a large map (more than SMALL_EDGES edges) whose stops few
   segments of track join (router_segments), the stop-circuit model (router_stopcircuit) gets
   the rest of the time: it proves 2-train positions the steps below do not (18USA log 109372
   actions 1234-1385, 5+4 to 8+5). In a longer search (10 s and more left: the bot's follow-up,
   `/game routes`) it takes positions of more segments too, and the longer search for good runs
   (router_heuristic.improve_plans) goes first, briefly: the model finds the optimum late from
   poor runs.
   Otherwise, with several trains, a longer search for good runs (router_heuristic.improve_plans)
   gets a share of the time, then the conflict search (router_joint): each train solved alone,
   then branching on the track (or attachment, or end group) the trains' best runs share. Its
   single-train models are small and fast; the joint model's LP lets every train earn nearly what
   it earns alone, so it proves slowly (18USA logs, s8503's 4+4 with a Pullman, P17 and P30:
   8-20 s where the conflict search takes 0.2-0.7 s). On the late 109372 maps (8+6, 8+5 on
   150-170 edges) it is the other way round: the conflict search needs hundreds of single-train
   solves of 30-150 ms, the joint model proves in 0.5-10 s.
3. If that search does not finish in its share, the joint model (router_model) again, bounded by
   what each train earns alone (the conflict search's root), proves or improves until the deadline.

Every phase checks the clock: out of time, the best answer so far is returned, not proven.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace

from engine.router import stopcircuit
from engine.router.attachments import assign_attachments, attachment_credit, occupied_trains
from engine.router.heuristic import Plan, improve_plans, plan_trains
from engine.router.joint import prove
from engine.router.model import (
    LINEARIZATION,
    ModelInput,
    ModelOutcome,
    run_from_walk,
    solve,
)

HEURISTIC_SHARE = 0.15  # of the time budget, at most, for the first answer
# And at most this many seconds (a 2 s budget's share): in a longer search (the bot's 20 s
# follow-up) the wider beams took 0.5-1.5 s of CPU on 18USA logs' ten hardest positions
# (109372's late 5+4 to 8+6, s12265's 4+4 and 8+8, s8604's 8+5) and found more on two only (+10),
# which improve_plans finds as well.
HEURISTIC_MOST = 0.3
# Models of at most this many track edges count as small for the searches below.
SMALL_EDGES = 64
# Models of at most this many edges are solved without CP-SAT's LP (router_model.WORKERS):
# measured on the 18USA logs' hardest small positions (25-31 edges, an extender), 7x less CPU; on
# larger ones (77-94 edges) the LP pays. Between them, the 18USA logs' 43 positions of 55-64 edges
# (1 s budget, load ~3): 42 proven with the LP, 41 without, 21% less CPU; and 18USA random play's
# C&O with a 3-train, P19's switcher and P17 on 60 edges (seed 20700 action 1128) is proven in
# 0.25 s with it, not in 3 s without. At 45-54 edges it is a draw on the 18USA logs (43 positions,
# 5% less CPU) and costs more on 18Texas's generated s301 at 782 (two 6-trains, 46 edges: 0.63 s
# of CPU against 0.35 s, 6 solves each).
LP_EDGES = 54
# Of what is left, for a first try of the model: small positions end here. With 0.25 the bounds
# of single trains came too late for the hardest 18USA log positions (109372 action 1060).
FIRST_SHARE = 0.1
# And at most this many seconds (about a 2 s budget's share): in the bot's 20 s follow-up the
# first try had 1.9 s and proved none of those ten positions (a follow-up searches positions the
# 2 s proposal left open); it delayed what proves them by that much.
FIRST_MOST = 0.2
# Of what is left then, for the conflict search (router_joint); the joint model, bounded by what
# each train earns alone, gets the rest. On models of more than SMALL_EDGES edges the search
# seldom finishes in 2 s (18USA logs' 21 such 2-train positions: once, 109372 action 948, which
# the joint model proves as well), while the joint model proves more with more time: 10-12 of
# the 21 proven in 2 s with 0.15 (as with 0.05 or 0), 9-10 with 0.35 (load average 1.6-3).
CONFLICT_SHARE = 0.15
# On small models (SMALL_EDGES) the conflict search's single-train solves take a few ms, and it
# proves what the joint model does not (s8503's 4+4, 35-63 edges, with a Pullman, P17, P30).
CONFLICT_SHARE_SMALL = 0.7
# With three trains and more the conflicts multiply (generated 18Texas maps with hooks, 4+4+3:
# 2,500 single-train solves not enough): mostly the bounds of single trains for the joint model.
CONFLICT_SHARE_MORE = 0.25
# Of what is left after the first try, for a longer search for good runs first
# (router_heuristic.improve_plans): 109372 actions 1441 and 1489 need 0.15-0.3 s of CPU there to
# reach the players' runs (980; the quick plans and the searches after them stay at 920 and 930).
IMPROVE_SHARE = 0.3
# Two trains and more on more than SMALL_EDGES edges, with at most this many segments between
# stops (router_segments): the stop-circuit model (router_stopcircuit) gets the rest of the time
# after the first try, instead of the longer search for good runs, the conflict search and the
# joint model. Measured on the 18USA logs' positions that were open in 2 s (load average 3):
# 109372 1234, 1256, 1290, 1385 (247-462 segments, 5+4 to 8+5) and s8604 1066 (125) proven in
# 0.9-1.4 s; with 800-1,266 segments (109372's other 8+5 and 8+6) it needs 2-9 s of CPU, and the
# old path finds better runs in 2 s.
CIRCUIT_SEGMENTS = 600
# With this many seconds left or more (a longer search the players ask for, `/game routes`) the
# stop-circuit model takes positions of up to CIRCUIT_SEGMENTS_LONG segments too: 109372's 8+5 and
# 8+6 positions of 800-1,266 segments take it 2-9 s of CPU, the other searches 11-40 s.
LONG_SEARCH = 10.0
CIRCUIT_SEGMENTS_LONG = 2_000
# In such a longer search, seconds for the longer search for good runs (improve_plans) before the
# stop-circuit model, which finds the optimum late from poor runs: 109372 1441 and 1489 (8+6)
# proven after 8-9 s of CPU from the quick plans (920, 930), after 2-5 s from improve_plans's
# (990, 1000; 0.3-0.7 s of CPU to find them).
IMPROVE_LONG = 0.5


def _holders(problem: ModelInput, plans: Sequence[Plan]) -> dict[int, int]:
    """Value-only attachment index -> train index, handed out as the engine hands them out."""
    graph = problem.graph
    described = []
    for plan in plans:
        stops = [graph.stop_of[v] for v in plan.vertices if v in graph.stop_of]
        described.append((problem.trains[plan.train].id, stops, [problem.costs.get(node, 1) for node in stops]))
    by_id = {train.id: t for t, train in enumerate(problem.trains)}
    carried = {problem.trains[plan.train].id: [problem.attachments[k].id for k in plan.carries] for plan in plans}
    given = assign_attachments(problem.attachments, described, occupied_trains(problem.attachments, carried))
    holders = {k: by_id[given[attachment.id]] for k, attachment in enumerate(problem.attachments)
               if attachment.id in given}
    # The extenders the plans' runs need (assign_attachments hands out value-only ones only), so
    # that _credits names them with the run's other attachments.
    holders.update({k: plan.train for plan in plans for k in plan.carries})
    return holders


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


def search_model(problem: ModelInput, deadline: float) -> ModelOutcome:
    """The best runs of the problem's trains, proven if there is time (see the module docstring),
    with the least bound any of the searches reached."""
    bounds: list[int] = []
    outcome = _search(problem, deadline, bounds)
    if outcome.proven:
        return replace(outcome, bound=outcome.total)
    # A bound below the answer would be a modelling error: then none is known.
    return replace(outcome, bound=min(bounds) if bounds and min(bounds) >= outcome.total else None)


def _improved(problem: ModelInput, plans: list[Plan], first: int, holders: dict[int, int], until: float,
              latest: float) -> tuple[list[Plan], int, dict[int, int]]:
    """The longer search for good runs (improve_plans) from `plans`, worth `first`: its runs,
    their worth and who holds each attachment if they earn more, else those given."""
    better = improve_plans(problem, plans, until, latest=latest)
    worth = _worth(problem, better)
    if worth > first:
        return better, worth, _holders(problem, better)
    return plans, first, holders


def _search(problem: ModelInput, deadline: float, bounds: list[int]) -> ModelOutcome:
    """search_model's searches, each adding the bound it reached to `bounds`."""
    started = time.perf_counter()
    plans = plan_trains(problem, deadline=started + min((deadline - started) * HEURISTIC_SHARE, HEURISTIC_MOST))
    first = _worth(problem, plans)
    holders = _holders(problem, plans)
    small = len(problem.graph.edges) <= SMALL_EDGES
    linearization = 0 if len(problem.graph.edges) <= LP_EDGES else LINEARIZATION
    several = len(problem.trains) > 1
    outcome = solve(problem, min((deadline - time.perf_counter()) * FIRST_SHARE, FIRST_MOST) if several
                    else deadline - time.perf_counter(), plans=plans, holders=holders, linearization=linearization)
    _note(bounds, outcome)
    improved = False
    if several and not outcome.proven and time.perf_counter() < deadline and not small:
        if deadline - time.perf_counter() >= LONG_SEARCH:
            # A longer search: better runs for the stop-circuit model to start from (see
            # IMPROVE_LONG), or for the searches below.
            now = time.perf_counter()
            plans, first, holders = _improved(problem, plans, first, holders, now + IMPROVE_LONG,
                                              now + 2 * IMPROVE_LONG)
            improved = True
        start, start_holders = _restart(problem, plans, holders, first, outcome)
        left = deadline - time.perf_counter()
        circuits = stopcircuit.solve(problem, left, plans=start, holders=start_holders,
                                            most=CIRCUIT_SEGMENTS if left < LONG_SEARCH else CIRCUIT_SEGMENTS_LONG)
        if circuits is not None:
            _note(bounds, circuits)
            if circuits.found and (circuits.proven or circuits.total > outcome.total or not outcome.found):
                outcome = circuits
            return _best_of(problem, plans, first, outcome)
    if len(problem.trains) > 1 and not outcome.proven and time.perf_counter() < deadline:
        # A hard position: a longer search for better runs first, which the search below may prove.
        if not improved:
            plans, first, holders = _improved(
                problem, plans, first, holders,
                time.perf_counter() + (deadline - time.perf_counter()) * IMPROVE_SHARE, deadline)
        best = max(first, outcome.total if outcome.found else 0)
        share = (CONFLICT_SHARE_SMALL if small else CONFLICT_SHARE) if len(problem.trains) == 2 else CONFLICT_SHARE_MORE
        searched = prove(problem, best, time.perf_counter() + (deadline - time.perf_counter()) * share, linearization)
        if searched.bound is not None:
            bounds.append(searched.bound)
        if searched.better is not None and searched.better.total > best:
            outcome = replace(searched.better, proven=searched.finished)
        elif searched.finished:
            # Nothing earns more than the best answer so far.
            return _as_outcome(problem, plans, True) if first >= best else replace(outcome, proven=True)
        if outcome.proven or time.perf_counter() >= deadline:
            return _best_of(problem, plans, first, outcome)
        start, start_holders = _restart(problem, plans, holders, first, outcome)
        # The caps alone: their sum as a bound on the total, though implied, slowed CP-SAT down
        # (109372 action 1246: proven in 1.7-2.0 s with it, 0.6-0.8 s without). In a longer
        # search (a follow-up) none: on 18USA random play's s12265 action 1252 (8+8) the model
        # with the caps was still open after 15 s, without them proven in 10 s; of the other 20
        # positions the bot's follow-up searched in the 166 logs, one took 11 s instead of 4 s,
        # the rest the same (all proven).
        left = deadline - time.perf_counter()
        again = solve(problem, left, plans=start, holders=start_holders,
                      caps=searched.caps if left < LONG_SEARCH else None, linearization=linearization)
        _note(bounds, again)
        if again.found and (again.proven or again.total > outcome.total or not outcome.found):
            outcome = again
    return _best_of(problem, plans, first, outcome)


def _note(bounds: list[int], outcome: ModelOutcome) -> None:
    if outcome.found and outcome.bound is not None and outcome.bound >= outcome.total:
        bounds.append(outcome.bound)


def _restart(problem: ModelInput, plans: Sequence[Plan], holders: dict[int, int], first: int,
             outcome: ModelOutcome) -> tuple[Sequence[Plan], dict[int, int]]:
    """The runs to start a later search from: the plans, or the model's answer if it earns more."""
    if not outcome.found or outcome.total <= first:
        return plans, holders
    index = {attachment.id: k for k, attachment in enumerate(problem.attachments)}
    return ([Plan(run.train, run.vertices, run.edges, run.revenue) for run in outcome.runs],
            {index[name]: run.train for run in outcome.runs for name in run.attachments})


def _best_of(problem: ModelInput, plans: Sequence[Plan], first: int, outcome: ModelOutcome) -> ModelOutcome:
    if outcome.found and outcome.total >= first or not plans:
        return outcome
    return _as_outcome(problem, plans, False)

"""The best runs of all trains as circuits over stops, joined by segments (router_segments).

The joint model (router_model) makes each run a circuit over the whole track graph, junctions and
sides included. Here each train's run is a circuit through a depot and the *stops* only; an arc
from one stop to the next is one of the segments between them, and every segment's resources
(chains of track, branching sides) serve one run of the company at most. What the rules add is
as in router_model: a train counts at most its distance in stops, at least two, one of them a
city with the company's station; stops no run may go on through are ends; areas, end limits,
track bonuses once per train and hex, attachments (a Pullman, a route bonus, an extender) on one
train each. Trains that may skip stops (a switcher) are not modelled here (`build` gives None).

Why: on the late 18USA positions the branching happens on few, meaningful choices (which segment
joins two stops) instead of on track edges, and CP-SAT proves the 2-train positions of 5- and
6-trains several times faster (docs/router-proofs.md, "Stop circuits"). CP-SAT's probing is off:
on these models it spends more time in presolve than the search takes.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from engine.router.model import (
    MEMORY_MB,
    WORKERS,
    ModelInput,
    ModelOutcome,
    ModelRun,
    Rule,
    TrainVariables,
    any_of,
    attachment_worth,
    may_hold,
    objective_bound,
    one_stop_per_area,
    run_from_walk,
    shared_rules,
    stop_worth,
)
from engine.router.segments import MAX_WALKS, Layout, Segment
from engine.router.track import OutOfTime

if TYPE_CHECKING:
    from engine.router.heuristic import Plan

class StopCircuits:
    """The model of one problem, and the way back from a solution to runs."""

    def __init__(self, problem: ModelInput, layout: Layout, segments: Sequence[Segment],
                 deadline: float | None = None) -> None:
        """Raises OutOfTime past `deadline`."""
        self.problem = problem
        self.layout = layout
        self.segments = segments
        self.deadline = deadline
        self.model = cp_model.CpModel()
        graph = problem.graph
        self.stops = sorted(graph.stop_of)
        self.index = {v: i for i, v in enumerate(self.stops)}
        self.depot = len(self.stops)
        self.bonus_hexes = frozenset(coord for train in problem.trains
                                     for coord, amount in train.track_bonuses.items() if amount)
        self.neighbours: dict[int, set[int]] = {}
        for segment in segments:
            self.neighbours.setdefault(segment.a, set()).add(segment.b)
            self.neighbours.setdefault(segment.b, set()).add(segment.a)
        self.steps: list[dict[tuple[int, bool], cp_model.IntVar]] = []  # (segment, a to b) -> var
        self.visit: list[dict[int, cp_model.IntVar]] = []
        self.start: list[dict[int, cp_model.IntVar]] = []
        self.finish: list[dict[int, cp_model.IntVar]] = []
        self.assigned: list[dict[int, cp_model.IntVar]] = []
        self.idle: list[cp_model.IntVar] = []
        self.worth: list[cp_model.LinearExpr] = []
        self.derived: list[tuple[cp_model.IntVar, Rule]] = []
        self.users: dict[int, list[cp_model.IntVar]] = {}  # resource -> the steps that use it
        for t in range(len(problem.trains)):
            self._train(t)
        self._shared()

    def _check(self) -> None:
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime

    # --- one train ------------------------------------------------------------------------
    def _train(self, t: int) -> None:
        self._check()
        model, problem, graph = self.model, self.problem, self.problem.graph
        train = problem.trains[t]
        idle = model.new_bool_var(f"idle{t}")
        arcs: list[tuple[int, int, cp_model.LiteralT]] = [(self.depot, self.depot, idle)]
        visit: dict[int, cp_model.IntVar] = {}
        start: dict[int, cp_model.IntVar] = {}
        finish: dict[int, cp_model.IntVar] = {}
        for v in self.stops:
            visit[v] = model.new_bool_var(f"v{t}_{v}")
            arcs.append((self.index[v], self.index[v], ~visit[v]))
            model.add_implication(visit[v], ~idle)
            if graph.stop_of[v] in problem.never_end:
                continue
            start[v] = model.new_bool_var(f"s{t}_{v}")
            finish[v] = model.new_bool_var(f"e{t}_{v}")
            arcs.append((self.depot, self.index[v], start[v]))
            arcs.append((self.index[v], self.depot, finish[v]))
            model.add_bool_or([~start[v], ~finish[v]])  # a run has two different ends
        steps: dict[tuple[int, bool], cp_model.IntVar] = {}
        between: dict[tuple[int, int], list[cp_model.IntVar]] = {}
        for s, segment in enumerate(self.segments):
            for ahead in (True, False):
                u, w = (segment.a, segment.b) if ahead else (segment.b, segment.a)
                var = steps[(s, ahead)] = model.new_bool_var(f"y{t}_{s}_{int(ahead)}")
                between.setdefault((u, w), []).append(var)
                bits = segment.resources
                while bits:
                    low = bits & -bits
                    self.users.setdefault(low.bit_length() - 1, []).append(var)
                    bits ^= low
        for (u, w), options in between.items():
            if len(options) == 1:
                arcs.append((self.index[u], self.index[w], options[0]))
            else:
                chosen = model.new_bool_var(f"z{t}_{u}_{w}")
                model.add(sum(options) == chosen)
                arcs.append((self.index[u], self.index[w], chosen))
                self.derived.append((chosen, any_of(options)))
        model.add_circuit(arcs)
        assigned = may_hold(model, problem, t)
        for v in self.stops:
            node = graph.stop_of[v]
            if node in problem.must_end or node in problem.blocked:
                model.add(sum(var for var in (start.get(v), finish.get(v)) if var is not None) >= visit[v])
        costs = problem.costs
        extra = sum(problem.attachments[k].distance_bonus * var for k, var in assigned.items())
        model.add(sum(costs.get(graph.stop_of[v], 1) * visit[v] for v in self.stops) <= train.distance + extra)
        model.add(sum(visit.values()) >= 2).only_enforce_if(~idle)
        stations = [v for v in self.stops if graph.stop_of[v] in problem.tokened]
        model.add(sum(visit[v] for v in stations) >= 1).only_enforce_if(~idle)
        reach = train.distance + sum(problem.attachments[k].distance_bonus for k in assigned)
        self._apart(visit, stations, reach)
        one_stop_per_area(model, problem, self.stops, visit)
        worth = stop_worth(problem, train, self.stops, visit, {})
        for coord, bonus in sorted(train.track_bonuses.items()):
            touching = [var for (s, _), var in steps.items() if coord in self.segments[s].hexes]
            if bonus and touching:
                got = model.new_bool_var(f"r{t}_{coord}")
                model.add(got <= sum(touching))
                self.derived.append((got, any_of(touching)))
                worth.append(bonus * got)
        for k, var in assigned.items():
            worth.extend(attachment_worth(model, problem, self.derived, self.stops, (t, k, var), visit, {}))
        self.steps.append(steps)
        self.visit.append(visit)
        self.start.append(start)
        self.finish.append(finish)
        self.assigned.append(assigned)
        self.idle.append(idle)
        self.worth.append(cp_model.LinearExpr.sum(worth))

    def _apart(self, visit: dict[int, cp_model.IntVar], stations: Sequence[int], reach: int) -> None:
        """For the LP (they remove no run): two stops no run within `reach` joins are never both
        visited, and a visited stop has a city with the company's station within reach. Distances
        are the least stops counted on a path of segments (ignoring that they may share track)."""
        model, problem, graph = self.model, self.problem, self.problem.graph

        def cost(v: int) -> int:
            return problem.costs.get(graph.stop_of[v], 1)

        through = {v for v in self.stops
                   if graph.stop_of[v] not in problem.must_end and graph.stop_of[v] not in problem.blocked}
        for u in self.stops:
            apart = {u: cost(u)}
            queue = [(cost(u), u)]
            while queue:
                far, at = heapq.heappop(queue)
                if far > apart[at] or (at != u and at not in through):
                    continue
                for nxt in self.neighbours.get(at, ()):
                    if far + cost(nxt) < apart.get(nxt, reach + 1):
                        apart[nxt] = far + cost(nxt)
                        heapq.heappush(queue, (apart[nxt], nxt))
            for v in self.stops:
                if u < v and apart.get(v, reach + 1) > reach:
                    model.add_bool_or([~visit[u], ~visit[v]])
            if u not in stations:
                model.add(sum(visit[k] for k in stations if apart.get(k, reach + 1) <= reach) >= visit[u])

    # --- across trains ----------------------------------------------------------------------
    def _shared(self) -> None:
        model, problem = self.model, self.problem
        for users in self.users.values():
            if len(users) > 1:
                model.add_at_most_one(users)
        shared_rules(model, problem, self.derived, self.stops,
                     TrainVariables(self.start, self.finish, self.assigned, self.worth))

    # --- a first solution, and back to runs ---------------------------------------------------
    def hint(self, plans: Sequence[Plan], holders: Mapping[int, int]) -> None:
        """Start from these runs (router_heuristic plans), attachment k on train holders[k]: each
        piece of a run between stops as a segment that uses no more. A run no segments fit is left
        out of the hint."""
        graph = self.problem.graph
        by_pair: dict[tuple[int, int], list[int]] = {}
        for s, segment in enumerate(self.segments):
            by_pair.setdefault((segment.a, segment.b), []).append(s)
        known: dict[int, int] = {}  # variable index -> value
        for plan in plans:
            t = plan.train
            chosen = []
            for a, b, used, touched in self.layout.pieces(plan.vertices, plan.edges):
                fits = next((s for s in by_pair.get((min(a, b), max(a, b)), [])
                             if self.segments[s].resources & used == self.segments[s].resources
                             and self.segments[s].hexes >= touched & self.bonus_hexes), None)
                if fits is None:
                    break
                chosen.append(self.steps[t][(fits, self.segments[fits].a == a)])
            else:
                stops = [v for v in plan.vertices if v in graph.stop_of]
                if stops[0] not in self.start[t] or stops[-1] not in self.finish[t]:
                    continue
                known.update({var.index: 1 for var in chosen})
                known.update({self.visit[t][v].index: 1 for v in stops})
                known[self.start[t][stops[0]].index] = 1
                known[self.finish[t][stops[-1]].index] = 1
        for k, t in holders.items():
            if k in self.assigned[t]:
                known[self.assigned[t][k].index] = 1
        for t, idle in enumerate(self.idle):
            known[idle.index] = int(not any(known.get(var.index, 0) for var in self.visit[t].values()))

        def value(var: cp_model.IntVar) -> int:
            return known.get(var.index, 0)

        for var, rule in self.derived:
            known[var.index] = rule(value)
        for t in range(len(self.problem.trains)):
            for group in (self.steps[t].values(), self.visit[t].values(), self.start[t].values(),
                          self.finish[t].values(), self.assigned[t].values()):
                for var in group:
                    self.model.add_hint(var, known.get(var.index, 0))
            self.model.add_hint(self.idle[t], known[self.idle[t].index])
        for var, _ in self.derived:
            self.model.add_hint(var, known[var.index])

    def extract(self, solver: cp_model.CpSolver, t: int) -> ModelRun | None:
        """Train t's run in the solution, or None if it does not run."""
        first = next((v for v, var in self.start[t].items() if solver.value(var)), None)
        if first is None:
            return None
        going = {}
        for (s, ahead), var in self.steps[t].items():
            if solver.value(var):
                segment = self.segments[s]
                going[segment.a if ahead else segment.b] = (s, ahead)
        chains: list[int] = []
        passed: list[int] = [first]
        at = first
        while at in going:
            s, ahead = going.pop(at)
            segment = self.segments[s]
            chains.extend(segment.chains if ahead else reversed(segment.chains))
            passed.extend((segment.vertices if ahead else tuple(reversed(segment.vertices)))[1:])
            at = segment.b if ahead else segment.a
        vertices, edges = self.layout.walk(chains, passed)
        names = tuple(self.problem.attachments[k].id for k, var in self.assigned[t].items() if solver.value(var))
        return run_from_walk(self.problem.graph, t, vertices, edges, int(solver.value(self.worth[t])), names)


def build(problem: ModelInput, deadline: float | None = None, limit: int = MAX_WALKS,
          most: int | None = None) -> StopCircuits | None:
    """The model of the problem; None when a train may skip stops, the segments are too many to
    list within `limit` steps, or more than `most`. Raises OutOfTime past `deadline`."""
    if any(attachment.skips for attachment in problem.attachments):
        return None
    graph = problem.graph
    layout = Layout(graph)
    ends = frozenset(graph.stop_of)
    bonus = frozenset(coord for train in problem.trains for coord, amount in train.track_bonuses.items() if amount)
    segments = layout.segments(ends, bonus, deadline, limit)
    if segments is None or (most is not None and len(segments) > most):
        return None
    return StopCircuits(problem, layout, segments, deadline)


def solve(problem: ModelInput, seconds: float, plans: Sequence[Plan] = (),
          holders: Mapping[int, int] | None = None, most: int | None = None) -> ModelOutcome | None:
    """The best runs, proven if CP-SAT finishes within `seconds`; None when the model does not
    apply (see `build`, with at most `most` segments). `plans` (attachment k on train holders[k])
    is a first solution."""
    entered = time.perf_counter()
    try:
        built = build(problem, entered + seconds, most=most)
        if built is None:
            return None
        if plans:
            built.hint(plans, holders or {})
    except OutOfTime:
        return ModelOutcome((), 0, False, False)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(seconds - (time.perf_counter() - entered), 0.001)
    solver.parameters.num_workers = WORKERS
    solver.parameters.linearization_level = 2
    solver.parameters.cp_model_probing_level = 0
    # Every LP row from the start, not added as it is violated: CPU s from the quick plans on the
    # 109372 positions (load 3): 1385 1.8 -> 1.0, 1379 0.6 -> 0.3, 1454 5.6 -> 2.7, 1489 12.4 -> 7.3;
    # 1234 0.6 -> 0.7 and 1441 5.8 -> 9.1 the other way.
    solver.parameters.add_lp_constraints_lazily = False
    solver.parameters.max_memory_in_mb = MEMORY_MB
    status = solver.solve(built.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ModelOutcome((), 0, status == cp_model.INFEASIBLE, False)
    runs = tuple(run for run in (built.extract(solver, t) for t in range(len(problem.trains))) if run is not None)
    total = sum(run.revenue for run in runs)
    proven = status == cp_model.OPTIMAL and total == round(solver.objective_value)
    return ModelOutcome(runs, total, proven, True, total if proven else objective_bound(solver.best_objective_bound))

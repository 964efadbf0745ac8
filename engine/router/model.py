"""The best runs of all of a company's trains as one constraint model, solved by OR-Tools CP-SAT.

Each train's run is a circuit through a depot vertex in the track graph (router_track): the depot
leads to the run's first stop and back from its last, every vertex the run passes is entered and
left once, and vertices it does not use are skipped. That makes a run one connected path, with no
stop and no junction twice; what the rules add on top is linear:

* track: each chain of track serves at most one train; a branching hex side at most one;
* a train counts at most its distance in stops; a run has two ends, and at least one city with
  the company's station among the stops it counts;
* stops no run may go on through (red areas that end runs, cities full of other companies'
  stations) are ends only, unless an attachment lets the train pass without counting them;
* revenue: each stop's value on this train (title hooks applied), track bonuses once per train
  and hex, and attachments (a Pullman, a switcher, a route bonus) given to one train each, at
  most one exclusive attachment on a train.

For the LP only (they remove no run): two stops that no run of a train's length can join are
never both on its run, and a stop it visits has a city with the company's station within reach
(`stops_apart`: the least distance a run through two stops takes, since it counts every stop
it passes).

CP-SAT proves the optimum (OPTIMAL) or, at the time limit, returns the best it found (FEASIBLE).
Its memory is capped by `max_memory_in_mb`.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ortools.sat.python import cp_model

from engine.router.attachments import Attachment, EndLimit
from engine.router.network import Node, PathKey
from engine.router.track import TrackGraph

if TYPE_CHECKING:
    from engine.router.heuristic import Plan

MEMORY_MB = 1024  # the cap CP-SAT is given for one search
# One worker with the fuller LP (linearization level 2): measured on the 18USA logs, it proves the
# late runs of one or two trains several times faster than two default workers, and it leaves the
# machine's other core free. The beam search's first answer does what the second worker's
# local search did before (find a good answer at all). Small models, above all those with an
# extender, are proven several times faster still without the LP (level 0: 18USA logs s8505
# action 946, 0.22 s against 1.42 s of CPU), so router_modelsearch tries that first, briefly.
WORKERS = 1
LINEARIZATION = 2


@dataclass(frozen=True)
class TrainSpec:
    """One train as the model sees it: its distance and what each stop and hex earns on it."""

    id: str
    distance: int
    values: dict[Node, int]  # every stop the graph has -> its value on this train
    track_bonuses: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ModelInput:
    graph: TrackGraph
    trains: tuple[TrainSpec, ...]
    tokened: frozenset[Node]  # cities with the company's station
    must_end: frozenset[Node]  # stops a run may not go on through
    blocked: frozenset[Node]  # cities full of others' stations (a skip may pass them)
    never_end: frozenset[Node] = frozenset()  # stops a run may not start or end at
    costs: dict[Node, int] = field(default_factory=dict)  # distance a stop takes (default 1)
    areas: tuple[frozenset[Node], ...] = ()  # stops that count as one location
    end_limits: tuple[EndLimit, ...] = ()
    attachments: tuple[Attachment, ...] = ()


@dataclass(frozen=True)
class ModelRun:
    train: int  # index into ModelInput.trains
    stops: tuple[Node, ...]
    paths: tuple[PathKey, ...]
    connections: tuple[tuple[str, ...], ...]
    revenue: int
    attachments: tuple[str, ...]
    vertices: tuple[int, ...] = ()  # the walk on the track graph, to start a later search from
    edges: tuple[int, ...] = ()


@dataclass(frozen=True)
class ModelOutcome:
    runs: tuple[ModelRun, ...]
    total: int
    proven: bool
    found: bool  # False when no answer was found in time
    bound: int | None = None  # no answer earns more (None: not known)


def solve(problem: ModelInput, seconds: float, workers: int = WORKERS, plans: Sequence[Plan] = (),
          holders: Mapping[int, int] | None = None, caps: Mapping[int, int] | None = None,
          total_cap: int | None = None, linearization: int = LINEARIZATION) -> ModelOutcome:
    """The best runs, proven if CP-SAT finishes within `seconds`.

    `plans` (with attachment k on train `holders[k]`) is a first solution to start from. `caps`
    (train -> most it can earn) and `total_cap` are upper bounds proven elsewhere: they cut the
    search without changing the answer.
    """
    entered = time.perf_counter()
    built = _Builder(problem, cuts=linearization > 0)
    for t, most in (caps or {}).items():
        built.model.add(built.worth[t] <= most)
    if total_cap is not None:
        built.model.add(sum(built.worth) <= total_cap)
    if plans:
        built.hint(plans, holders or {})
    solver = cp_model.CpSolver()
    # Building the model comes out of the same seconds.
    solver.parameters.max_time_in_seconds = max(seconds - (time.perf_counter() - entered), 0.001)
    solver.parameters.num_workers = workers
    solver.parameters.linearization_level = linearization
    solver.parameters.max_memory_in_mb = MEMORY_MB
    status = solver.Solve(built.model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return ModelOutcome((), 0, status == cp_model.INFEASIBLE, False)
    runs = tuple(run for run in (built.extract(solver, t) for t in range(len(problem.trains)))
                 if run is not None)
    total = sum(run.revenue for run in runs)
    # The runs read back must earn what the solver proved; anything else is a modelling error,
    # and then the answer is not known to be the best.
    proven = status == cp_model.OPTIMAL and total == round(solver.ObjectiveValue())
    return ModelOutcome(runs, total, proven, True, total if proven else objective_bound(solver.BestObjectiveBound()))


def objective_bound(value: float) -> int | None:
    """CP-SAT's bound on the objective (whole dollars) as the most any answer earns, read only once
    it has an answer (before, it may say 0); None where it has none."""
    return math.floor(value + 1e-6) if math.isfinite(value) else None


Value = Callable[[cp_model.IntVar], int]  # a variable's value in a solution being built
Rule = Callable[[Value], int]  # how a variable that follows from others gets its value


def any_of(variables: Sequence[cp_model.IntVar]) -> Rule:
    return lambda value: int(any(value(var) for var in variables))


def all_of(variables: Sequence[cp_model.IntVar]) -> Rule:
    return lambda value: int(all(value(var) for var in variables))


def chosen(best: Callable[[Value], int], option: int) -> Rule:
    return lambda value: int(best(value) == option)


def attachment_worth(model: cp_model.CpModel, problem: ModelInput, derived: list[tuple[cp_model.IntVar, Rule]],
                     stops: Sequence[int], holding: tuple[int, int, cp_model.IntVar],
                     visit: Mapping[int, cp_model.IntVar] | Sequence[cp_model.IntVar],
                     skip: Mapping[int, cp_model.IntVar]) -> list[cp_model.LinearExpr]:
    """What attachment k earns on train t (`holding`: t, k and whether t holds it) with these
    visits and skips: a bonus per stop it counts, or one route bonus (the best the run meets).
    The variables it adds that follow from others go to `derived`."""
    t, k, assigned = holding
    graph = problem.graph
    attachment = problem.attachments[k]
    worth: list[cp_model.LinearExpr] = []
    if attachment.stop_bonus:
        for v in stops:
            node = graph.stop_of[v]
            if not attachment.earns_stop_bonus(node, problem.costs.get(node, 1)):
                continue  # stops that take no distance (and some others) earn no per-stop bonus
            got = model.new_bool_var(f"p{t}_{k}_{v}")
            model.add_implication(got, visit[v])
            model.add_implication(got, assigned)
            if v in skip:
                model.add_implication(got, ~skip[v])
            derived.append((got, all_of([visit[v], assigned])))
            worth.append(attachment.stop_bonus * got)
    if attachment.run_bonuses:
        options = []
        needs: list[list[list[cp_model.IntVar]]] = []
        for o, (hexes, amount) in enumerate(attachment.run_bonuses):
            got = model.new_bool_var(f"q{t}_{k}_{o}")
            model.add_implication(got, assigned)
            needs.append([])
            for coord in hexes:
                there = [visit[v] for v in stops if graph.stop_of[v][0] == coord]
                model.add(got <= sum(there))
                needs[-1].append(there)
            options.append(got)
            worth.append(amount * got)
        model.add(sum(options) <= 1)
        amounts = [amount for _, amount in attachment.run_bonuses]

        def best_option(value: Callable[[cp_model.IntVar], int]) -> int:
            met = [o for o, need in enumerate(needs)
                   if value(assigned) and all(any(value(var) for var in there) for there in need)]
            return max(met, key=lambda o: amounts[o], default=-1)

        for o, got in enumerate(options):
            derived.append((got, chosen(best_option, o)))
    return worth


def shared_rules(model: cp_model.CpModel, problem: ModelInput, derived: list[tuple[cp_model.IntVar, Rule]],
                 stops: Sequence[int], trains: TrainVariables) -> None:
    """What binds the trains together besides track: each attachment on one train at most, the
    end limits (at most so many runs ending in a group of hexes), interchangeable trains in order
    of earnings (each answer searched once rather than in every order), and the total to maximise."""
    graph = problem.graph
    count = range(len(problem.trains))
    for k in range(len(problem.attachments)):
        holders = [trains.assigned[t][k] for t in count if k in trains.assigned[t]]
        if len(holders) > 1:
            model.add(sum(holders) <= 1)
    for hexes, most in problem.end_limits:
        counted: list[cp_model.IntVar] = []
        for t in count:
            ends = [var for v in stops if graph.stop_of[v][0] in hexes
                    for var in (trains.start[t].get(v), trains.finish[t].get(v)) if var is not None]
            if ends:
                ending = model.new_bool_var(f"g{t}_{len(counted)}")
                for var in ends:
                    model.add_implication(var, ending)
                derived.append((ending, any_of(ends)))
                counted.append(ending)
        if len(counted) > most:
            model.add(sum(counted) <= most)
    for t in range(1, len(problem.trains)):
        if interchangeable(problem, t - 1, t):
            model.add(trains.worth[t - 1] >= trains.worth[t])
    model.maximize(sum(trains.worth))


def may_hold(model: cp_model.CpModel, problem: ModelInput, t: int) -> dict[int, cp_model.IntVar]:
    """Attachment index -> whether train t holds it, for the attachments it may carry: one already
    attached to it for the run holds, and it takes one exclusive attachment at most."""
    train = problem.trains[t]
    assigned = {k: model.new_bool_var(f"a{t}_{k}") for k, attachment in enumerate(problem.attachments)
                if attachment.trains is None or train.id in attachment.trains}
    for k, var in assigned.items():
        if problem.attachments[k].attached:
            model.add(var == 1)
    exclusive = [var for k, var in assigned.items() if problem.attachments[k].exclusive]
    if len(exclusive) > 1:
        model.add_at_most_one(exclusive)
    return assigned


def one_stop_per_area(model: cp_model.CpModel, problem: ModelInput, stops: Sequence[int],
                      visit: Mapping[int, cp_model.IntVar] | Sequence[cp_model.IntVar]) -> None:
    """A run visits one stop at most of each area (stops that count as one location)."""
    for area in problem.areas:
        members = [visit[v] for v in stops if problem.graph.stop_of[v] in area]
        if len(members) > 1:
            model.add(sum(members) <= 1)


def stop_worth(problem: ModelInput, train: TrainSpec, stops: Sequence[int],
               visit: Mapping[int, cp_model.IntVar] | Sequence[cp_model.IntVar],
               skip: Mapping[int, cp_model.IntVar]) -> list[cp_model.LinearExpr]:
    """What the stops a train visits earn on it, less those it skips."""
    worth: list[cp_model.LinearExpr] = []
    for v in stops:
        value = train.values.get(problem.graph.stop_of[v], 0)
        if value:
            worth.append(value * visit[v])
            if v in skip:
                worth.append(-value * skip[v])
    return worth


def interchangeable(problem: ModelInput, first: int, second: int) -> bool:
    """Whether two trains earn the same on every run and may carry the same attachments."""
    a, b = problem.trains[first], problem.trains[second]
    if (a.distance, a.values, a.track_bonuses) != (b.distance, b.values, b.track_bonuses):
        return False
    return all(attachment.trains is None or (a.id in attachment.trains) == (b.id in attachment.trains)
               for attachment in problem.attachments)


@dataclass
class TrainVariables:
    """Each train's variables that the rules across trains read: where its run starts and ends
    (stop -> variable), the attachments it may hold (index -> variable) and what it earns."""

    start: list[dict[int, cp_model.IntVar]] = field(default_factory=list)
    finish: list[dict[int, cp_model.IntVar]] = field(default_factory=list)
    assigned: list[dict[int, cp_model.IntVar]] = field(default_factory=list)
    worth: list[cp_model.LinearExpr] = field(default_factory=list)


class _Builder:
    """The CP-SAT model of one problem, and the way back from a solution to runs."""

    def __init__(self, problem: ModelInput, cuts: bool = True, apart: dict[int, dict[int, int]] | None = None) -> None:
        """`cuts`: add the valid inequalities for the LP (see the module docstring); `apart`:
        stops_apart(problem), if known (it depends on the graph and the stops, not on the trains)."""
        self.problem = problem
        self.model = cp_model.CpModel()
        graph = problem.graph
        self.count = len(graph.vertices)
        self.depot = self.count
        self.stops = sorted(graph.stop_of)
        self.forward: list[list[cp_model.IntVar]] = []
        self.backward: list[list[cp_model.IntVar]] = []
        self.visit: list[list[cp_model.IntVar]] = []
        self.start: list[dict[int, cp_model.IntVar]] = []
        self.finish: list[dict[int, cp_model.IntVar]] = []
        self.skip: list[dict[int, cp_model.IntVar]] = []
        self.assigned: list[dict[int, cp_model.IntVar]] = []
        self.worth: list[cp_model.LinearExpr] = []
        self.idle: list[cp_model.IntVar] = []
        # Variables that follow from the others, with the rule that gives their value in a run.
        self.derived: list[tuple[cp_model.IntVar, Rule]] = []
        self.cuts = cuts
        self.apart = (apart if apart is not None else stops_apart(problem)) if cuts else {}
        for index in range(len(problem.trains)):
            self._train(index)
        self._shared()

    # --- one train ------------------------------------------------------------------------
    def _train(self, t: int) -> None:
        model, problem, graph = self.model, self.problem, self.problem.graph
        train = problem.trains[t]
        forward = [model.new_bool_var(f"f{t}_{e}") for e in range(len(graph.edges))]
        backward = [model.new_bool_var(f"b{t}_{e}") for e in range(len(graph.edges))]
        visit = [model.new_bool_var(f"v{t}_{v}") for v in range(self.count)]
        idle = model.new_bool_var(f"idle{t}")
        arcs: list[tuple[int, int, cp_model.LiteralT]] = [(self.depot, self.depot, idle)]
        for e, edge in enumerate(graph.edges):
            arcs.append((edge.a, edge.b, forward[e]))
            arcs.append((edge.b, edge.a, backward[e]))
        for v in range(self.count):
            arcs.append((v, v, ~visit[v]))
            # Without this a train that skips the depot could run a closed loop of track.
            model.add_implication(visit[v], ~idle)
        start: dict[int, cp_model.IntVar] = {}
        finish: dict[int, cp_model.IntVar] = {}
        for v in self.stops:
            node = graph.stop_of[v]
            if node in problem.never_end:
                continue
            start[v] = model.new_bool_var(f"s{t}_{v}")
            finish[v] = model.new_bool_var(f"e{t}_{v}")
            arcs.append((self.depot, v, start[v]))
            arcs.append((v, self.depot, finish[v]))
            model.add_bool_or([~start[v], ~finish[v]])  # a run has two different ends
        model.add_circuit(arcs)
        assigned = may_hold(model, problem, t)
        skips_allowed = sum(problem.attachments[k].skips * var for k, var in assigned.items())
        skip: dict[int, cp_model.IntVar] = {}
        if any(problem.attachments[k].skips for k in assigned):
            for v in self.stops:
                skip[v] = model.new_bool_var(f"k{t}_{v}")
                model.add_implication(skip[v], visit[v])
            model.add(sum(skip.values()) <= skips_allowed)
        # Stops that may not be passed through are ends (or skipped, if blocked).
        for v in self.stops:
            node = graph.stop_of[v]
            ends = [var for var in (start.get(v), finish.get(v)) if var is not None]
            if node in problem.must_end or (node in problem.blocked and v not in skip):
                model.add(sum(ends) >= visit[v])
            elif node in problem.blocked:
                model.add(sum(ends) + skip[v] >= visit[v])
        # Valid inequalities for the LP (the run counts every stop it passes, so stops further
        # apart than the train reaches are never on one run, and each stop it visits is within
        # reach of the station it must count): measured on the 18USA logs' 137 single trains on
        # more than 64 edges, CP-SAT's time summed 21-29 s without them, 16-20 s with them; s8505
        # action 1422's 6-train (43 stops, 248 pairs apart) proven in 1.1-1.2 s, not 2.3-3.0 s.
        # A train that may skip stops passes some without counting them: none for it. Without
        # the LP they only change the search's path (18USA logs s8503 actions 839 and 917, 4+4 on
        # 31-33 edges: the conflict search's solves 24-32 instead of 12).
        reach = train.distance + sum(problem.attachments[k].distance_bonus for k in assigned)
        if self.cuts and not skip:
            stations = [v for v in self.stops if graph.stop_of[v] in problem.tokened]
            for u in self.stops:
                apart = self.apart[u]
                for v in self.stops:
                    if u < v and apart.get(v, reach + 1) > reach:
                        model.add_bool_or([~visit[u], ~visit[v]])
                if u not in stations:
                    model.add(sum(visit[k] for k in stations if apart.get(k, reach + 1) <= reach) >= visit[u])
        # Copies of a split junction are interchangeable: use them in order.
        for copies in graph.copies.values():
            for first, second in zip(copies, copies[1:], strict=False):
                model.add_implication(visit[second], visit[first])
        # A side where more track meets is crossed from one hex into the other.
        for v, own_hex in graph.side_of.items():
            mine = [e for e in graph.incident[v] if graph.side_hex[(e, v)] == own_hex]
            model.add(sum(forward[e] + backward[e] for e in mine) == visit[v])
        costs = problem.costs
        counted = sum(costs.get(graph.stop_of[v], 1) * (visit[v] - (skip[v] if v in skip else 0))
                      for v in self.stops)
        extra = sum(problem.attachments[k].distance_bonus * var for k, var in assigned.items())
        # Only one attachment of this kind exists in practice; all skips earn its distance.
        per_skip = max((problem.attachments[k].distance_per_skip for k in assigned), default=0) if skip else 0
        model.add(counted <= train.distance + extra + per_skip * sum(skip.values()))
        # Two stops that count: a stop the train skips is not one of them.
        model.add(sum(visit[v] - (skip[v] if v in skip else 0) for v in self.stops) >= 2).OnlyEnforceIf(~idle)
        tokened = [visit[v] - (skip[v] if v in skip else 0) for v in self.stops
                   if graph.stop_of[v] in problem.tokened]
        model.add(sum(tokened) >= 1).OnlyEnforceIf(~idle)
        one_stop_per_area(model, problem, self.stops, visit)
        # What the run earns.
        worth = stop_worth(problem, train, self.stops, visit, skip)
        for coord, bonus in train.track_bonuses.items():
            touching = [e for e, edge in enumerate(graph.edges) if coord in edge.hexes]
            if bonus and touching:
                got = model.new_bool_var(f"r{t}_{coord}")
                hubs = graph.junction_of(coord)
                if hubs and all(graph.edges[e].a in hubs or graph.edges[e].b in hubs for e in touching):
                    # All track of the hex meets at its junction: a tighter bound for the LP (a
                    # split junction's first copy is visited whenever any is).
                    model.add(got <= visit[hubs[0]])
                else:
                    model.add(got <= sum(forward[e] + backward[e] for e in touching))
                arcs_here = [var for e in touching for var in (forward[e], backward[e])]
                self.derived.append((got, any_of(arcs_here)))
                worth.append(bonus * got)
        for k, var in assigned.items():
            worth.extend(attachment_worth(model, problem, self.derived, self.stops, (t, k, var), visit, skip))
        self.idle.append(idle)
        self.forward.append(forward)
        self.backward.append(backward)
        self.visit.append(visit)
        self.start.append(start)
        self.finish.append(finish)
        self.skip.append(skip)
        self.assigned.append(assigned)
        self.worth.append(cp_model.LinearExpr.sum(worth))

    # --- across trains ----------------------------------------------------------------------
    def _shared(self) -> None:
        model, problem, graph = self.model, self.problem, self.problem.graph
        trains = range(len(problem.trains))
        for e in range(len(graph.edges)):
            group = graph.twins.get(e, [e])
            if group[0] == e:
                model.add(sum(self.forward[t][f] + self.backward[t][f] for t in trains for f in group) <= 1)
        for v in graph.side_of:
            model.add(sum(self.visit[t][v] for t in trains) <= 1)
        shared_rules(model, problem, self.derived, self.stops,
                     TrainVariables(self.start, self.finish, self.assigned, self.worth))

    # --- a first solution -------------------------------------------------------------------
    def hint(self, plans: Sequence[Plan], holders: Mapping[int, int]) -> None:
        """Start the search from these runs (router_heuristic) with attachment k on train holders[k]."""
        graph = self.problem.graph
        values: dict[int, int] = {}
        by_train = {plan.train: plan for plan in plans}
        for t in range(len(self.problem.trains)):
            plan = by_train.get(t)
            ahead: set[int] = set()
            behind: set[int] = set()
            if plan is not None:
                for position, e in enumerate(plan.edges):
                    (ahead if graph.edges[e].a == plan.vertices[position] else behind).add(e)
            on = set(plan.vertices) if plan is not None else set()
            for e in range(len(graph.edges)):
                values[self.forward[t][e].Index()] = int(e in ahead)
                values[self.backward[t][e].Index()] = int(e in behind)
            for v in range(self.count):
                values[self.visit[t][v].Index()] = int(v in on)
            values[self.idle[t].Index()] = int(plan is None)
            for v, var in self.start[t].items():
                values[var.Index()] = int(plan is not None and plan.vertices[0] == v)
            for v, var in self.finish[t].items():
                values[var.Index()] = int(plan is not None and plan.vertices[-1] == v)
            for var in self.skip[t].values():
                values[var.Index()] = 0
            for k, var in self.assigned[t].items():
                values[var.Index()] = int(holders.get(k) == t and plan is not None)

        def value(var: cp_model.IntVar) -> int:
            return values[var.Index()]

        for var, rule in self.derived:
            values[var.Index()] = rule(value)
        for index, amount in values.items():
            self.model.Proto().solution_hint.vars.append(index)
            self.model.Proto().solution_hint.values.append(amount)

    # --- back to runs -----------------------------------------------------------------------
    def extract(self, solver: cp_model.CpSolver, t: int) -> ModelRun | None:
        graph = self.problem.graph
        first = next((v for v, var in self.start[t].items() if solver.Value(var)), None)
        if first is None:
            return None
        out_arc: dict[int, tuple[int, int]] = {}
        for e, edge in enumerate(graph.edges):
            if solver.Value(self.forward[t][e]):
                out_arc[edge.a] = (edge.b, e)
            if solver.Value(self.backward[t][e]):
                out_arc[edge.b] = (edge.a, e)
        vertices, edges = [first], []
        while vertices[-1] in out_arc:
            nxt, e = out_arc[vertices[-1]]
            vertices.append(nxt)
            edges.append(e)
        names = tuple(self.problem.attachments[k].id for k, var in self.assigned[t].items()
                      if solver.Value(var))
        return run_from_walk(graph, t, vertices, edges, round(solver.Value(self.worth[t])), names)


def stops_apart(problem: ModelInput) -> dict[int, dict[int, int]]:
    """Stop vertex -> stop vertex -> the least distance a run through both takes (their costs and
    those of the stops between them; a run counts every stop it passes), where a run could join them."""
    graph = problem.graph
    stop_of, costs = graph.stop_of, problem.costs
    cost = {v: costs.get(node, 1) for v, node in stop_of.items()}
    through = {v for v, node in stop_of.items() if node not in problem.must_end and node not in problem.blocked}
    adjacent: list[list[int]] = [[] for _ in graph.vertices]
    for edge in graph.edges:
        adjacent[edge.a].append(edge.b)
        adjacent[edge.b].append(edge.a)
    out: dict[int, dict[int, int]] = {}
    for start in stop_of:
        best = {start: cost[start]}
        queue = [(cost[start], start)]
        while queue:
            far, v = heapq.heappop(queue)
            if far > best[v] or (v != start and v in stop_of and v not in through):
                continue
            for w in adjacent[v]:
                step = far + cost.get(w, 0)
                if step < best.get(w, step + 1):
                    best[w] = step
                    heapq.heappush(queue, (step, w))
        out[start] = {v: best[v] for v in stop_of if v in best and v != start}
    return out


def run_from_walk(graph: TrackGraph, t: int, vertices: Sequence[int], edges: Sequence[int], revenue: int,
                  attachments: tuple[str, ...] = ()) -> ModelRun:
    """Train t's run along `vertices` (from stop to stop) by `edges`, as the engine wants it."""
    stops: list[Node] = [graph.stop_of[vertices[0]]]
    paths: list[PathKey] = []
    connections: list[tuple[str, ...]] = []
    chain: list[str] = [stops[0][0]]
    for at, nxt, e in zip(vertices, vertices[1:], edges, strict=False):
        edge = graph.edges[e]
        ahead = edge.a == at
        paths.extend(edge.paths if ahead else reversed(edge.paths))
        for coord in (edge.hexes if ahead else reversed(edge.hexes)):
            if chain[-1] != coord:
                chain.append(coord)
        if graph.kind[nxt] == "stop":
            node = graph.stop_of[nxt]
            stops.append(node)
            connections.append(tuple(chain))
            chain = [node[0]]
    return ModelRun(t, tuple(stops), tuple(paths), tuple(connections), revenue, attachments, tuple(vertices),
                    tuple(edges))

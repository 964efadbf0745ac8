"""Proving several trains' best runs by branching on what they fight over (conflict branch and bound).

The joint model (router_model) of several trains has a weak bound: its LP lets every train earn
close to what it earns alone, so on late 18USA maps CP-SAT proves an answer of an 8- and a 6-train
only after 8-20 s, though each train alone is proven in 0.03-0.3 s. Here the trains are solved
alone, each by its own small CP-SAT model, and only their quarrels are searched:

* a node gives each train a set of *resources* it may not use (a chain of track, a branching hex
  side, a junction only one train can pass, an attachment, a group of end hexes) and holds each train's best run alone under them;
  the sum of those runs' values bounds every answer below the node;
* if the runs share no resource they are an answer earning exactly that bound (nothing below the
  node earns more); otherwise one shared resource is picked, and since at most one train can use
  it (an end group: at most its limit), the children each forbid it to one of its users; only
  the train that lost the resource is solved again, with the value it must reach to matter;
* nodes are taken best bound first; a node whose bound does not beat the best answer is dropped.

When every node is closed the best answer is proven. Identical trains with the same forbidden
resources are interchangeable, so only one of the mirror children is searched.

Memory: at most `MAX_NODES` nodes, each a few small sets and runs (a few MB). Time: every single-train
solve gets what is left of the deadline; out of time the search stops and says it is not proven.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations

from ortools.sat.python import cp_model

from engine.router.model import (
    LINEARIZATION,
    MEMORY_MB,
    ModelInput,
    ModelOutcome,
    ModelRun,
    _Builder,
    interchangeable,
    stops_apart,
)

REPAIR_FIRST = 8  # nodes repaired into an answer (_repair) first, then one in REPAIR_EVERY
REPAIR_EVERY = 16
MAX_NODES = 20_000  # nodes at most (each a few small sets); past it the search gives up, not proven

# A resource: ("edge", first edge of its twin group), ("side", vertex), ("junction", vertex: one
# that only one train can pass), ("attach", index) or ("ends", index of the end limit).
Resource = tuple[str, int]
# Which shared resource to branch on first: those whose loss costs a train the most.
BRANCH_ORDER = ("attach", "junction", "side", "edge")


@dataclass(frozen=True)
class _Single:
    """A train's best run alone under its forbidden resources."""

    value: int
    run: ModelRun | None
    uses: frozenset[Resource]
    ends: frozenset[int]  # end limits the run starts or ends in


@dataclass(order=True)
class _Node:
    priority: int  # minus the bound: heapq pops the best bound first
    serial: int
    forbidden: tuple[frozenset[Resource], ...]
    singles: tuple[_Single, ...]


class _Solver:
    """Solves one train alone with some resources forbidden."""

    def __init__(self, problem: ModelInput, linearization: int) -> None:
        self.problem = problem
        self.linearization = linearization
        graph = problem.graph
        self.group = {e: min(graph.twins.get(e, [e])) for e in range(len(graph.edges))}
        self.members: dict[int, list[int]] = {}
        for e, first in self.group.items():
            self.members.setdefault(first, []).append(e)
        # A junction that at most three chains reach is passed by one train at most (a pass takes two).
        self.narrow = frozenset(v for v, kind in enumerate(graph.kind) if kind == "junction"
                                and len({self.group[e] for e in graph.incident[v]}) <= 3)
        self.limit_stops = [frozenset(v for v, node in graph.stop_of.items() if node[0] in hexes)
                            for hexes, _ in problem.end_limits]
        self.solves = 0
        self.apart = stops_apart(problem) if linearization > 0 else {}

    def alone(self, t: int) -> ModelInput:
        spec = self.problem.trains[t]
        kept = tuple(a for a in self.problem.attachments if a.trains is None or spec.id in a.trains)
        closed = tuple(limit for limit in self.problem.end_limits if limit[1] == 0)
        return replace(self.problem, trains=(spec,), attachments=kept, end_limits=closed)

    def solve(self, t: int, forbidden: frozenset[Resource], need: int, deadline: float) -> _Single | None:
        """Train t's best run without `forbidden`, if it earns at least `need` (else value -1);
        None when the deadline passes first."""
        left = deadline - time.perf_counter()
        if left <= 0:
            return None
        alone = self.alone(t)
        built = _Builder(alone, self.linearization > 0, self.apart)
        model = built.model
        index = {a.id: k for k, a in enumerate(alone.attachments)}
        for kind, what in forbidden:
            if kind == "edge":
                for e in self.members[what]:
                    model.add(built.forward[0][e] == 0)
                    model.add(built.backward[0][e] == 0)
            elif kind in ("side", "junction"):
                model.add(built.visit[0][what] == 0)
            elif kind == "attach":
                k = index.get(self.problem.attachments[what].id)
                if k is not None:
                    model.add(built.assigned[0][k] == 0)
            else:
                for v in self.limit_stops[what]:
                    for at_end in (built.start[0], built.finish[0]):
                        if v in at_end:
                            model.add(at_end[v] == 0)
        if need > 0:
            model.add(built.worth[0] >= need)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = left
        solver.parameters.num_workers = 1
        solver.parameters.linearization_level = self.linearization
        solver.parameters.max_memory_in_mb = MEMORY_MB
        status = solver.Solve(model)
        self.solves += 1
        if status == cp_model.INFEASIBLE:
            return _Single(-1, None, frozenset(), frozenset())
        if status != cp_model.OPTIMAL:
            return None
        run = built.extract(solver, 0)
        if run is None:
            return _Single(0, None, frozenset(), frozenset())
        run = replace(run, train=t)
        uses: set[Resource] = {("edge", self.group[e]) for e in run.edges}
        uses.update(("side", v) for v in run.vertices if v in self.problem.graph.side_of)
        uses.update(("junction", v) for v in run.vertices if v in self.narrow)
        uses.update(("attach", k) for k, a in enumerate(self.problem.attachments) if a.id in run.attachments)
        ends = frozenset(i for i, stops in enumerate(self.limit_stops)
                         if run.vertices[0] in stops or run.vertices[-1] in stops)
        return _Single(run.revenue, run, frozenset(uses), ends)


def _repair(problem: ModelInput, solver: _Solver, node: _Node, deadline: float) -> ModelOutcome | None:
    """Runs that go together, from a node: the trains keep their runs best first, each later one
    solved again on what the earlier ones leave (None if out of time). The answers it finds cut
    the search; the best-first search alone meets few answers (most of its nodes still quarrel)."""
    order = sorted(range(len(node.singles)), key=lambda t: -node.singles[t].value)
    taken: set[Resource] = set()
    ends: list[int] = [0] * len(problem.end_limits)
    runs: list[ModelRun] = []
    for t in order:
        full = {("ends", i) for i, (_, most) in enumerate(problem.end_limits) if ends[i] >= most}
        single = node.singles[t]
        if single.uses & taken or any(("ends", i) in full for i in single.ends):
            single_or_none = solver.solve(t, node.forbidden[t] | taken | full, 0, deadline)
            if single_or_none is None:
                return None
            single = single_or_none
        if single.run is None:
            continue
        runs.append(single.run)
        taken |= single.uses
        for i in single.ends:
            ends[i] += 1
    return ModelOutcome(tuple(runs), sum(run.revenue for run in runs), True, True)


def _conflict(problem: ModelInput, singles: Sequence[_Single]) -> list[tuple[int, Resource]] | None:
    """Branches for one resource more trains use than may: (train, resource it loses) each;
    None when the runs can run together."""
    for a, b in combinations(range(len(singles)), 2):
        shared = singles[a].uses & singles[b].uses
        if shared:
            resource = min(shared, key=lambda resource: (BRANCH_ORDER.index(resource[0]), resource[1]))
            users = [t for t, single in enumerate(singles) if resource in single.uses]
            return [(t, resource) for t in users]
    for i, (_, most) in enumerate(problem.end_limits):
        users = [t for t, single in enumerate(singles) if i in single.ends]
        if len(users) > most:
            return [(t, ("ends", i)) for t in users[:most + 1]]
    return None


@dataclass(frozen=True)
class Proof:
    """What the search found: a better answer (or None), whether it closed every node, and each
    train's best alone (its upper bound beside the others; {} if not reached in time)."""

    better: ModelOutcome | None
    finished: bool
    caps: dict[int, int]
    bound: int | None = None  # no answer earns more: the best open node's bound (None: not known)


def prove(problem: ModelInput, best: int, deadline: float, linearization: int = LINEARIZATION) -> Proof:
    """Search for answers earning more than `best` until every node is closed or the deadline.

    When `finished`, nothing earns more than max(best, better.total). A train that earns nothing
    alone is left out of the runs.
    """
    count = len(problem.trains)
    solver = _Solver(problem, linearization)
    found: ModelOutcome | None = None
    no_limits = frozenset[Resource]()
    singles: list[_Single] = []
    known: dict[int, _Single] = {}
    for t in range(count):
        twin = next((u for u in known if interchangeable(problem, u, t)), None)
        single = known[twin] if twin is not None else solver.solve(t, no_limits, 0, deadline)
        if single is None:
            return Proof(None, False, {})
        known[t] = single
        if twin is not None and single.run is not None:
            single = replace(single, run=replace(single.run, train=t))
        singles.append(single)
    caps = {t: max(single.value, 0) for t, single in enumerate(singles)}
    # Trains of one class are interchangeable: a node is the same as another whose trains of one
    # class lost the same sets of resources in another order, or by branches taken in another order.
    kind = [next(u for u in range(t + 1) if interchangeable(problem, u, t)) for t in range(count)]
    seen: set[tuple[tuple[int, tuple[Resource, ...]], ...]] = set()
    serial = 0
    heap = [_Node(-sum(max(s.value, 0) for s in singles), serial, (no_limits,) * count, tuple(singles))]
    popped = 0
    while heap:
        node = heapq.heappop(heap)
        bound = -node.priority
        if bound <= best:
            break  # best bound first: no open node can beat the answer
        if popped < REPAIR_FIRST or popped % REPAIR_EVERY == 0:
            repaired = _repair(problem, solver, node, deadline)
            if repaired is not None and repaired.total > best:
                found, best = repaired, repaired.total
                if bound <= best:
                    continue
        popped += 1
        branches = _conflict(problem, node.singles)
        if branches is None:
            runs = tuple(single.run for single in node.singles if single.run is not None)
            best = sum(run.revenue for run in runs)
            found = ModelOutcome(runs, best, True, True)
            continue
        searched: list[int] = []
        for t, resource in branches:
            # Two identical trains that lost the same resources so far: the child where the other
            # one loses this resource holds the same answers, trains swapped.
            if any(node.forbidden[u] == node.forbidden[t] and interchangeable(problem, t, u) for u in searched):
                continue
            searched.append(t)
            forbidden = node.forbidden[t] | {resource}
            state = tuple(forbidden if u == t else f for u, f in enumerate(node.forbidden))
            key = tuple(sorted((kind[u], tuple(sorted(f))) for u, f in enumerate(state)))
            if key in seen:
                continue
            if len(seen) >= MAX_NODES:
                return Proof(found, False, caps, max(best, bound))
            seen.add(key)
            others = bound - max(node.singles[t].value, 0)
            single = solver.solve(t, forbidden, best + 1 - others, deadline)
            if single is None:
                return Proof(found, False, caps, max(best, bound))
            if single.value < 0:
                continue  # this train cannot earn enough without the resource
            child_bound = others + single.value
            if child_bound <= best:
                continue
            serial += 1
            heapq.heappush(heap, _Node(-child_bound, serial, state,
                                       tuple(single if u == t else s for u, s in enumerate(node.singles))))
    return Proof(found, True, caps, best)

"""Good runs fast, without a proof: a first answer for the route model (router_model) to start from.

A beam search grows runs stop by stop on the model's track graph (router_track): from the last
stop of a partial run, a breadth-first search over plain track (never through another stop) finds
every stop it can reach next and one shortest way there; the best `width` partial runs of each
length go on. A local search then bends each stretch of track between two stops through hexes
with track bonuses the run does not collect yet. Trains are planned one after another on the
track the earlier ones left free, then each is planned again around the others while that pays;
then each train is fixed on each of its few best runs in turn and the others planned around it.
An extender (an attachment that only adds distance) goes on the train that gains most by it.

For positions the model does not prove at once, `improve_plans` searches longer: more pivots from
a wider beam, and each pivot also with its stretches rerouted off the track the other trains'
best runs want, so that one train gives up a little for another to earn more.

Everything here only proposes: the model checks and proves. A proposal is always a legal run
by the model's own rules, so the model can take it as its first solution.
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from heapq import heappop, heappush
from itertools import permutations

from engine.router.attachments import best_attachment_credit, occupied_trains
from engine.router.model import ModelInput

WIDTH = 24  # partial runs kept per length, at first
MAX_WIDTH = 384  # and at most
DETOUR_TRIES = 3  # passes of the detour search over a run
PIVOTS = 6  # best runs of each train on which the others are planned in turn (_pivots)
MAX_PIVOTS = 48  # and at most, in the longer search (improve_plans)
IMPROVE_CPU = 0.4  # seconds the longer search may have at least, times the machine's load (improve_plans)


@dataclass(frozen=True)
class Plan:
    """One train's run as a walk on the track graph: vertices and edges in travel order."""

    train: int
    vertices: tuple[int, ...]
    edges: tuple[int, ...]
    value: int  # what it earns on this train, attachments not included
    # Attachments (indices into ModelInput.attachments) that lengthen this train and that its run
    # needs: an extender's extra stop. Value-only attachments are handed out afterwards.
    carries: tuple[int, ...] = ()


class _Net:
    """The track graph in the shape the searches want: adjacency lists and bit masks."""

    def __init__(self, problem: ModelInput, carried: dict[int, tuple[int, ...]] | None = None) -> None:
        graph = problem.graph
        self.problem = problem
        # Train -> the attachments that lengthen it (_lengthening), and its distance with them.
        self.carried = carried or {}
        self.distance = [train.distance + sum(problem.attachments[k].distance_bonus for k in self.carried.get(t, ()))
                         for t, train in enumerate(problem.trains)]
        self.size = len(graph.vertices)
        self.adjacent: list[list[tuple[int, int]]] = [[] for _ in range(self.size)]
        for e, edge in enumerate(graph.edges):
            self.adjacent[edge.a].append((e, edge.b))
            self.adjacent[edge.b].append((e, edge.a))
        self.stop = [graph.kind[v] == "stop" for v in range(self.size)]
        self.node = graph.stop_of
        costs = problem.costs
        self.cost = [costs.get(graph.stop_of[v], 1) if self.stop[v] else 0 for v in range(self.size)]
        self.tokened = [self.stop[v] and graph.stop_of[v] in problem.tokened for v in range(self.size)]
        self.end_ok = [self.stop[v] and graph.stop_of[v] not in problem.never_end for v in range(self.size)]
        self.pass_ok = [self.stop[v] and graph.stop_of[v] not in problem.must_end
                        and graph.stop_of[v] not in problem.blocked for v in range(self.size)]
        self.area = [0] * self.size
        for bit, members in enumerate(problem.areas):
            for v in range(self.size):
                if self.stop[v] and graph.stop_of[v] in members:
                    self.area[v] = 1 << bit
        # A side vertex is crossed from one hex into the other: remember each edge's side.
        self.side_group: dict[tuple[int, int], bool] = {
            (e, v): graph.side_hex[(e, v)] == own for v, own in graph.side_of.items()
            for e in graph.incident[v]}
        self.sides = frozenset(graph.side_of)
        self.length = [len(edge.paths) for edge in graph.edges]
        # The bits an edge's use takes away: itself and its parallel twins (router_track).
        self.mask = [sum(1 << f for f in graph.twins.get(e, [e])) for e in range(len(graph.edges))]
        # Bonus hexes of each train, one bit each, and the bonus bits each edge touches.
        self.bonus_values: list[list[int]] = []
        self.edge_bonus: list[list[int]] = []
        for train in problem.trains:
            coords = sorted(coord for coord, amount in train.track_bonuses.items() if amount)
            bit_of = {coord: 1 << i for i, coord in enumerate(coords)}
            self.bonus_values.append([train.track_bonuses[coord] for coord in coords])
            self.edge_bonus.append([sum(bit_of.get(coord, 0) for coord in set(edge.hexes))
                                    for edge in graph.edges])
        self.values = [[train.values.get(graph.stop_of[v], 0) if self.stop[v] else 0
                        for v in range(self.size)] for train in problem.trains]
        self.truncated = False  # some beam had to leave partial runs out

    def bonus_of(self, t: int, bits: int) -> int:
        total = 0
        amounts = self.bonus_values[t]
        while bits:
            low = bits & -bits
            total += amounts[low.bit_length() - 1]
            bits ^= low
        return total

    def run_value(self, t: int, vertices: tuple[int, ...], edges: tuple[int, ...]) -> int:
        bits = 0
        for e in edges:
            bits |= self.edge_bonus[t][e]
        return sum(self.values[t][v] for v in vertices) + self.bonus_of(t, bits)


@dataclass
class _State:
    value: int
    vertices: list[int]
    edges: list[int]
    visited: int
    used: int  # edges, one bit each
    bonus: int
    cost: int
    tokened: bool
    areas: int
    stops: int  # the stops it visits, one bit each


def _reachable(net: _Net, start: int, incoming: int | None, visited: int, used: int, banned: int,
               banned_vertices: int) -> dict[int, tuple[int, ...]]:
    """Stop -> edges of the way there from `start` over track vertices only that crosses the
    fewest tile paths (so it leaves the most track to the rest of the run)."""
    found: dict[int, tuple[int, ...]] = {}
    parent: dict[int, tuple[int, int]] = {}  # vertex -> (edge it was reached by, previous vertex)
    settled = visited | (1 << start) | banned_vertices
    best = {start: 0}
    queue = [(0, start, incoming if incoming is not None else -1)]
    adjacent, stop, side_group, length = net.adjacent, net.stop, net.side_group, net.length
    while queue:
        far, v, came_by = heappop(queue)
        if v != start:
            if settled & (1 << v):
                continue
            settled |= 1 << v
        group = side_group.get((came_by, v))
        for e, w in adjacent[v]:
            bit = 1 << e
            if used & bit or banned & bit:
                continue
            if group is not None and side_group[(e, v)] == group:
                continue  # a side is crossed into the other hex, never back
            if settled & (1 << w):
                continue
            if stop[w]:
                if w not in found:
                    found[w] = _traced(parent, start, v, e)
                continue
            distance = far + length[e]
            if distance < best.get(w, distance + 1):
                best[w] = distance
                parent[w] = (e, v)
                heappush(queue, (distance, w, e))
    return found


def _twice(net: _Net, path: tuple[int, ...]) -> bool:
    """The way uses one chain twice, by two of its parallel twins (router_track)."""
    taken = 0
    for e in path:
        if taken & (1 << e):
            return True
        taken |= net.mask[e]
    return False


def _traced(parent: dict[int, tuple[int, int]], start: int, last: int, final_edge: int) -> tuple[int, ...]:
    """The edges from `start` to `last` along the search's parents, then `final_edge`."""
    path = [final_edge]
    at = last
    while at != start:
        edge, previous = parent[at]
        path.append(edge)
        at = previous
    return tuple(reversed(path))


def _walk(net: _Net, start: int, edges: tuple[int, ...]) -> list[int]:
    graph = net.problem.graph
    out = []
    at = start
    for e in edges:
        edge = graph.edges[e]
        at = edge.b if edge.a == at else edge.a
        out.append(at)
    return out


def best_run(net: _Net, t: int, banned: int = 0, banned_vertices: int = 0, width: int = WIDTH,
             deadline: float | None = None, no_end: int = 0) -> Plan | None:
    """A good run of train t on track not in `banned` (edges) nor through `banned_vertices`,
    ending at no stop in `no_end` (vertex bits)."""
    found = top_runs(net, t, banned, banned_vertices, width, deadline, no_end, 1)
    return found[0] if found else None


def top_runs(net: _Net, t: int, banned: int, banned_vertices: int, width: int, deadline: float | None,
             no_end: int, keep: int) -> list[Plan]:
    """The `keep` best runs best_run's search meets, through different sets of stops, best first."""
    distance = net.distance[t]
    values = net.values[t]
    edge_bonus = net.edge_bonus[t]
    beam: list[_State] = []
    for v in range(net.size):
        if net.end_ok[v] and not (banned_vertices | no_end) & (1 << v) and net.cost[v] <= distance:
            beam.append(_State(values[v], [v], [], 1 << v, 0, 0, net.cost[v], net.tokened[v], net.area[v],
                               1 << v))
    finished: dict[int, Plan] = {}  # stops (bits) -> the best complete run through them
    while beam:
        if deadline is not None and time.perf_counter() > deadline:
            break
        grown: dict[tuple[int, int], tuple[int, _State, int, tuple[int, ...]]] = {}
        for state in beam:
            at = state.vertices[-1]
            if len(state.vertices) > 1 and not net.pass_ok[at]:
                continue
            incoming = state.edges[-1] if state.edges else None
            for target, path in _reachable(net, at, incoming, state.visited, state.used, banned,
                                           banned_vertices).items():
                cost = state.cost + net.cost[target]
                if cost > distance or state.areas & net.area[target] or _twice(net, path):
                    continue
                bits = 0
                for e in path:
                    bits |= edge_bonus[e]
                gain = values[target] + net.bonus_of(t, bits & ~state.bonus)
                # Partial runs through the same stops to the same end compete for one place.
                key = (state.stops | (1 << target), target)
                value = state.value + gain
                known = grown.get(key)
                if known is None or known[0] < value:
                    grown[key] = (value, state, target, path)
        ranked = sorted(grown.values(), key=lambda item: (-item[0], len(item[1].edges) + len(item[3])))
        beam = []
        net.truncated = net.truncated or len(ranked) > width
        for value, state, target, path in ranked[:width]:
            vertices = state.vertices + _walk(net, state.vertices[-1], path)
            used = state.used
            bits = state.bonus
            visited = state.visited
            for e in path:
                used |= net.mask[e]
                bits |= edge_bonus[e]
            for v in vertices[len(state.vertices):]:
                visited |= 1 << v
            grown_state = _State(value, vertices, state.edges + list(path), visited, used, bits,
                                 state.cost + net.cost[target], state.tokened or net.tokened[target],
                                 state.areas | net.area[target], state.stops | (1 << target))
            beam.append(grown_state)
            if grown_state.tokened and net.end_ok[target] and not no_end & (1 << target):
                known_plan = finished.get(grown_state.stops)
                if known_plan is None or known_plan.value < value:
                    finished[grown_state.stops] = Plan(t, tuple(vertices), tuple(grown_state.edges), value,
                                                       net.carried.get(t, ()))
    # Ties keep the order they were found in (the first found first), as one best did before.
    ranked_plans = sorted(finished.values(), key=lambda plan: -plan.value)[:keep]
    return [_detours(net, plan, banned, banned_vertices, deadline) for plan in ranked_plans]


def _detours(net: _Net, plan: Plan, banned: int, banned_vertices: int, deadline: float | None) -> Plan:
    """Bend stretches of track between two stops through bonus hexes the run misses."""
    t = plan.train
    if not net.bonus_values[t]:
        return plan
    for _ in range(DETOUR_TRIES):
        improved = False
        stops_at = [i for i, v in enumerate(plan.vertices) if net.stop[v]]
        for first, last in zip(stops_at, stops_at[1:], strict=False):
            if deadline is not None and time.perf_counter() > deadline:
                return plan
            better = _bend(net, plan, first, last, banned, banned_vertices)
            if better is not None and better.value > plan.value:
                plan, improved = better, True
                break
        if not improved:
            break
    return plan


def _bend(net: _Net, plan: Plan, first: int, last: int, banned: int, banned_vertices: int) -> Plan | None:
    """The stretch between vertices[first] and vertices[last] re-routed through one more bonus hex."""
    t = plan.train
    edge_bonus = net.edge_bonus[t]
    keep_vertices = plan.vertices[:first + 1] + plan.vertices[last:]
    keep_edges = plan.edges[:first] + plan.edges[last:]
    blocked_v = banned_vertices
    for v in keep_vertices:
        blocked_v |= 1 << v
    blocked_e = banned
    have = 0
    for e in keep_edges:
        blocked_e |= net.mask[e]
        have |= edge_bonus[e]
    a, b = plan.vertices[first], plan.vertices[last]
    # Track vertices next to a bonus hex the run does not collect yet.
    wanted = [v for v in range(net.size) if not net.stop[v] and not blocked_v & (1 << v)
              and any(edge_bonus[e] & ~have for e, _ in net.adjacent[v])]
    best: Plan | None = None
    for middle in wanted:
        there = _path_between(net, a, middle, blocked_v & ~(1 << a), blocked_e, plan.edges[first - 1] if first else None)
        if there is None:
            continue
        leg_vertices = _walk(net, a, there)
        mask = blocked_v
        for v in leg_vertices:
            mask |= 1 << v
        used = blocked_e
        for e in there:
            used |= net.mask[e]
        back = _path_between(net, middle, b, mask & ~(1 << middle) & ~(1 << b), used, there[-1])
        if back is None:
            continue
        edges = plan.edges[:first] + there + back + plan.edges[last:]
        vertices = plan.vertices[:first + 1] + tuple(leg_vertices) + tuple(_walk(net, middle, back)) \
            + plan.vertices[last + 1:]
        if len(set(vertices)) != len(vertices):
            continue
        candidate = Plan(t, vertices, edges, net.run_value(t, vertices, edges), plan.carries)
        if best is None or candidate.value > best.value:
            best = candidate
    return best


def _path_between(net: _Net, a: int, b: int, blocked_vertices: int, blocked_edges: int,
                  incoming: int | None) -> tuple[int, ...] | None:
    """A shortest way from a to b over track vertices (b may be a stop or a track vertex)."""
    parent: dict[int, tuple[int, int]] = {}
    seen = blocked_vertices | (1 << a)
    queue = deque([(a, incoming)])
    adjacent, stop, side_group = net.adjacent, net.stop, net.side_group
    while queue:
        v, came_by = queue.popleft()
        group = side_group.get((came_by, v)) if came_by is not None else None
        for e, w in adjacent[v]:
            if blocked_edges & (1 << e):
                continue
            if group is not None and side_group[(e, v)] == group:
                continue
            if w == b:
                return _traced(parent, a, v, e)
            if seen & (1 << w) or stop[w]:
                continue
            seen |= 1 << w
            parent[w] = (e, v)
            queue.append((w, e))
    return None


def plan_trains(problem: ModelInput, deadline: float | None = None, width: int = WIDTH,
                rounds: int = 3) -> list[Plan]:
    """Good track-disjoint runs for all trains (value-only attachments not counted).

    The trains are planned in turn, in every order for up to three trains (the first to choose
    takes the best track), and the best total wins. While time is left and the beam had to drop
    partial runs, the search is done again with a beam four times as wide. An attachment that only
    lengthens a train (an extender) goes on the train whose run alone gains most by it.
    """
    net = _Net(problem, _lengthening(problem, width, deadline))
    count = len(problem.trains)
    longest_first = sorted(range(count), key=lambda t: -net.distance[t])
    orders = [list(order) for order in permutations(longest_first)] if count <= 3 else \
        [longest_first, longest_first[::-1]]
    # One pass whatever the clock says: on a loaded machine the share of the time budget can pass
    # within the first beam, and a cut beam left the model a hint of a few stops (measured under
    # load average 7: dense 8+8 answers of 210-650 instead of 1130).
    best = _plan_in_order(net, longest_first, None, width, 1)
    pivoted = False
    while True:
        net.truncated = False
        for order in orders:
            if deadline is not None and time.perf_counter() > deadline and best:
                return [best[t] for t in sorted(best)]
            plans = _plan_in_order(net, order, deadline, width, rounds)
            if _total(plans) > _total(best) or not best:
                best = plans
        if count > 1 and not pivoted:
            best = _pivots(net, best, longest_first, deadline, width, rounds)
            pivoted = True
        if deadline is None or not net.truncated or width >= MAX_WIDTH:
            return [best[t] for t in sorted(best)]
        width *= 4


def improve_plans(problem: ModelInput, plans: Sequence[Plan], deadline: float, latest: float | None = None,
                  width: int = WIDTH) -> list[Plan]:
    """Runs for several trains that earn more than `plans` (plan_trains's), if a longer search
    finds them: pivots from a wider beam, each also steered off the track the other trains want
    (_pivots), twice as many each time round while that pays. For positions the model did not
    prove at once: on late 18USA maps the quick plans can stay well below the players' own runs
    (109372 actions 1441 and 1489: 920 and 930 against the players' 980; this search finds 990
    and 1000 in 0.15 to 0.3 s of CPU; at 0.25 s times the load, 1441 stayed at 920 under a load
    average of 5 on 2 cores).

    The search stops at `deadline`, or on a loaded machine later, up to `latest`: about
    IMPROVE_CPU seconds of CPU at the machine's load, so that what it finds depends less on
    what else runs."""
    if len(problem.trains) < 2 or not plans:
        return list(plans)
    stop = max(deadline, time.perf_counter() + IMPROVE_CPU * _load())
    stop = stop if latest is None else min(stop, max(latest, deadline))
    net = _Net(problem, {plan.train: plan.carries for plan in plans if plan.carries})
    best = {plan.train: plan for plan in plans}
    order = sorted(range(len(problem.trains)), key=lambda t: -net.distance[t])
    tried: set[tuple[int, tuple[int, ...]]] = set()
    pivots = PIVOTS
    while time.perf_counter() < stop and pivots <= MAX_PIVOTS:
        # Each pivot planned again once only (rounds=1): twice as many pivots tried in the time.
        found = _pivots(net, best, order, stop, width, 1, pivots, 4 * width, True, tried)
        if _total(found) <= _total(best):
            break
        best = _plan_in_order(net, order, stop, width, 3, start=found)
        pivots *= 2
    return [best[t] for t in sorted(best)]


def _load() -> float:
    """How many processes want each core (the last minute's load average), at least 1, at most 4."""
    try:
        return min(max(os.getloadavg()[0] / (os.cpu_count() or 1), 1.0), 4.0)
    except OSError:
        return 1.0


def _total(plans: dict[int, Plan]) -> int:
    return sum(plan.value for plan in plans.values())


def _lengthening(problem: ModelInput, width: int, deadline: float | None) -> dict[int, tuple[int, ...]]:
    """Train -> the attachments that only add distance (an extender) it should carry: each on the
    eligible train, or none, with which a quick plan of all trains earns most. Without them the
    runs the model started from were a stop short (109372 action 1246: PRR's extender chosen for a
    4-train, the players' 640 against the beam's 580); and the train that gains most alone is not
    always the one to extend (a 2-train reaching a third city may beat a 3-train reaching a fourth)."""
    lengthening = [k for k, attachment in enumerate(problem.attachments)
                   if attachment.distance_bonus and not attachment.skips]
    carried: dict[int, tuple[int, ...]] = {}
    order = sorted(range(len(problem.trains)), key=lambda t: -problem.trains[t].distance)
    for k in lengthening:
        allowed = problem.attachments[k].trains
        best_total, holder = -1, None
        for t in [None, *order]:
            if t is not None and allowed is not None and problem.trains[t].id not in allowed:
                continue
            if t is not None and problem.attachments[k].exclusive and any(
                    problem.attachments[held].exclusive for held in carried.get(t, ())):
                continue  # the train already carries an exclusive attachment
            trial = dict(carried)
            if t is not None:
                trial[t] = trial.get(t, ()) + (k,)
            net = _Net(problem, trial)
            plans = _plan_in_order(net, sorted(order, key=lambda u: -net.distance[u]), deadline, width, 1)
            total = _total(plans) + _attachment_credit(problem, plans.values())
            if total > best_total:
                best_total, holder = total, t
        if holder is not None:
            carried[holder] = carried.get(holder, ()) + (k,)
    return carried


def _attachment_credit(problem: ModelInput, plans: Iterable[Plan]) -> int:
    """What the value-only attachments (a Pullman) add to these runs, handed out as the engine does."""
    graph = problem.graph
    described = []
    carried: dict[str, list[str]] = {}
    for plan in plans:
        stops = [graph.stop_of[v] for v in plan.vertices if v in graph.stop_of]
        train = problem.trains[plan.train].id
        described.append((train, stops, [problem.costs.get(node, 1) for node in stops]))
        carried[train] = [problem.attachments[k].id for k in plan.carries]
    occupied = occupied_trains(problem.attachments, carried)
    return sum(best_attachment_credit(problem.attachments, described, occupied).values())


def _pivots(net: _Net, best: dict[int, Plan], order: list[int], deadline: float | None, width: int,
            rounds: int, pivots: int = PIVOTS, list_width: int | None = None, steer: bool = False,
            tried: set[tuple[int, tuple[int, ...]]] | None = None) -> dict[int, Plan]:
    """Better plans for several trains: one train fixed on each of its `pivots` best runs in turn
    (from a beam `list_width` wide; best runs first, the trains taking turns), the others planned
    around it, then each planned again around the others, the pivot first, `rounds` times at
    most while that pays.

    The greedy plans give the first train the best track, and on late 18USA maps that often leaves
    the others little (109372 action 1441, B&O's 8- and 6-train: the players' 540 + 440 against
    the greedy 590 + 330). With `steer`, a pivot run is also tried by the same stops along ways
    that keep off the track the other trains' best runs want (_steer): the best pair there often
    has one train give up a resource hex or a short way to leave the other its way (1441: 990
    that way). Pivots in `tried` (train, edges) are not tried again; those tried are added."""
    tried = set() if tried is None else tried
    total = _total(best)
    lists = {t: top_runs(net, t, 0, 0, list_width or width, deadline, 0, pivots) for t in order}
    # Steered pivots first (measured: the better pairs come from them sooner), best runs first.
    queue: list[tuple[bool, int, int, Plan]] = []  # (not steered, rank, train, pivot)
    for t in order:
        avoid = _wanted_track(net, [lists[u] for u in order if u != t]) if steer else []
        for rank, candidate in enumerate(lists[t]):
            queue.append((True, rank, t, candidate))
            steered = _steer(net, candidate, avoid) if steer else None
            if steered is not None:
                queue.append((False, rank, t, steered))
    queue.sort(key=lambda item: item[:2])
    for _, _, t, pivot in queue:
        if deadline is not None and time.perf_counter() > deadline:
            break
        if (t, pivot.edges) in tried:
            continue
        tried.add((t, pivot.edges))
        others = [u for u in order if u != t]
        plans = _plan_in_order(net, others, deadline, width, 1, {t: pivot})
        plans = _plan_in_order(net, [t, *others], deadline, width, rounds, start=plans)
        worth = _total(plans)
        if worth > total:
            best, total = plans, worth
    return best


STEER = 8  # tile paths a way may grow by to keep off one edge every other train's best runs use


def _wanted_track(net: _Net, others: list[list[Plan]]) -> list[float]:
    """Edge -> how much the other trains' best runs alone want it: per train, the share of its
    best runs that use it."""
    wanted = [0.0] * len(net.length)
    twins = net.problem.graph.twins
    for runs in others:
        for run in runs:
            for e in run.edges:
                for f in twins.get(e, [e]):
                    wanted[f] += 1 / len(runs)
    return wanted


def _steer(net: _Net, plan: Plan, avoid: list[float]) -> Plan | None:
    """The plan's stops in the same order, each stretch between two by the way that crosses the
    fewest tile paths counting `avoid` of an edge as STEER more; None if that is the way already
    or a stretch finds no way."""
    stops = [v for v in plan.vertices if net.stop[v]]
    blocked = 0
    for v in stops:
        blocked |= 1 << v
    used = 0
    vertices = [stops[0]]
    edges: list[int] = []
    for a, b in zip(stops, stops[1:], strict=False):
        way = _cheapest_way(net, a, b, blocked, used, edges[-1] if edges else None, avoid)
        if way is None or _twice(net, way):
            return None
        walked = _walk(net, a, way)
        for v in walked[:-1]:
            blocked |= 1 << v
        for e in way:
            used |= net.mask[e]
        vertices += walked
        edges += way
    if tuple(edges) == plan.edges or len(set(vertices)) != len(vertices):
        return None
    return Plan(plan.train, tuple(vertices), tuple(edges), net.run_value(plan.train, tuple(vertices), tuple(edges)),
                plan.carries)


def _cheapest_way(net: _Net, a: int, b: int, blocked_vertices: int, blocked_edges: int, incoming: int | None,
                  avoid: list[float]) -> tuple[int, ...] | None:
    """The way from stop a to stop b over track vertices of least length plus STEER * avoid."""
    parent: dict[int, tuple[int, int]] = {}
    settled = blocked_vertices | (1 << a)
    best = {a: 0.0}
    queue: list[tuple[float, int, int]] = [(0.0, a, incoming if incoming is not None else -1)]
    adjacent, stop, side_group, length = net.adjacent, net.stop, net.side_group, net.length
    while queue:
        far, v, came_by = heappop(queue)
        if v == b:
            edge, previous = parent[b]
            return _traced(parent, a, previous, edge)
        if v != a:
            if settled & (1 << v):
                continue
            settled |= 1 << v
        group = side_group.get((came_by, v))
        for e, w in adjacent[v]:
            if blocked_edges & (1 << e):
                continue
            if group is not None and side_group[(e, v)] == group:
                continue
            if w != b and (settled & (1 << w) or stop[w]):
                continue
            distance = far + length[e] + STEER * avoid[e]
            if distance < best.get(w, distance + 1):
                best[w] = distance
                parent[w] = (e, v)
                heappush(queue, (distance, w, e))
    return None


def _plan_in_order(net: _Net, order: list[int], deadline: float | None, width: int,
                   rounds: int, fixed: dict[int, Plan] | None = None,
                   start: dict[int, Plan] | None = None) -> dict[int, Plan]:
    """Each train in turn on the track the others leave it, then again while that pays; the
    trains of `fixed` keep those plans, those of `start` begin with them."""
    problem = net.problem
    plans: dict[int, Plan] = dict(fixed or {})
    plans.update(start or {})
    first = [t for t in order if t not in plans]
    order = [t for t in order if t not in (fixed or {})]
    ends_in: list[int] = []  # per end limit: its stops, as vertex bits
    for hexes, _ in problem.end_limits:
        ends_in.append(sum(1 << v for v, node in problem.graph.stop_of.items() if node[0] in hexes))

    def closed_ends(t: int) -> int:
        """Stops train t may not end at: their group has as many runs ending there as it allows."""
        closed = 0
        for (_, most), members in zip(problem.end_limits, ends_in, strict=True):
            count = sum(1 for other, plan in plans.items() if other != t
                        and members & ((1 << plan.vertices[0]) | (1 << plan.vertices[-1])))
            if count >= most:
                closed |= members
        return closed

    def others_track(t: int) -> tuple[int, int]:
        edges = sides = 0
        for other, plan in plans.items():
            if other == t:
                continue
            for e in plan.edges:
                edges |= net.mask[e]
            for v in plan.vertices:
                if v in net.sides:
                    sides |= 1 << v
        return edges, sides

    for t in first:
        edges, sides = others_track(t)
        plan = best_run(net, t, edges, sides, width, deadline, closed_ends(t))
        if plan is not None:
            plans[t] = plan
    for _ in range(rounds - (1 if first else 0)):
        changed = False
        for t in order:
            if deadline is not None and time.perf_counter() > deadline:
                break
            edges, sides = others_track(t)
            plan = best_run(net, t, edges, sides, width, deadline, closed_ends(t))
            current = plans.get(t)
            if plan is not None and (current is None or plan.value > current.value):
                plans[t] = plan
                changed = True
        if not changed:
            break
    return plans

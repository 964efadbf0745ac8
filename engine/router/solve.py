"""The route optimizer: the runs that earn a company the most, proven, in a form the engine accepts.

Two exact searches, chosen by the size of the position (measured, see bench/router.py):

* small networks (every 18Texas position): the runs of the longest train are listed through the
  graph of plain-track links between stops (graph, runs) and the trains combined
  by branch and bound (search). A millisecond or two, but the list grows about tenfold per
  stop, so it is abandoned as soon as it passes `RUN_CAP` runs, `LINK_CAP` links or its share of
  the time budget;
* everything else: one CP-SAT model of all the trains on the company's track (track,
  model), which never lists runs.

Past the time budget the best answer found so far is returned, marked not proven. Loading the
CP-SAT solver, once a process, is not counted in the budget (it is no search). A caller may hand
in `accept`, a check of an answer (the rules replay it as a `run_routes` action), so an answer is
never illegal even if optimizer and rules disagree, and `revalue`, which values a refused answer's
runs as the rules do.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from itertools import product
from typing import Any, NamedTuple

from engine.router.attachments import (
    Attachment,
    assign_attachments,
    attachment_credit,
    occupied_trains,
)
from engine.router.clock import Deadline, cpu_share, passed
from engine.router.graph import RouteGraph, TooManyLinks, board_signature, build_graph
from engine.router.network import Network, Node, PathKey
from engine.router.problem import RouteProblem, StopLimits, Train, stop_limits
from engine.router.result import PlannedRun, RouteResult
from engine.router.runs import Candidate, enumerate_runs
from engine.router.search import Choice, Option, best_combination

RUN_CAP = 5_000  # runs the listing search may hold before the model takes over (18Texas: 434)
LINK_CAP = 300  # plain-track links likewise (18Texas logs: 53 at most)
LISTING_SHARE = 0.1  # share of the time budget the listing search may use, in CPU time
# Kept back from the search for reading its answer back and the engine's check of it, and for
# CP-SAT overshooting its time limit: without it 18USA log 109372's open positions took 2.002-2.007 s
# of a 2 s budget (load average 0.8).
FINISH_RESERVE = 0.03  # seconds, at most 5% of the budget
# The longest run (counted stops) the listing search tries with a switcher or an extender: on
# the 18USA logs a 7-train's runs with one passed the caps every time, and trying them first
# only took time from the model (s8504 actions 1126-1239, at load 11).
UPGRADED_REACH = 7


# --- the cache of one caller's positions -------------------------------------------------------
class RouterCache:
    """Graphs and run lists of a game's recent positions, at most `ENTRIES` of them.

    Each entry holds at most RUN_CAP runs, so the cache is bounded. It belongs to one game: copies
    and pickles of the game (snapshots, worker processes) start with an empty one.
    """

    ENTRIES = 16

    def __init__(self) -> None:
        self._entries: OrderedDict[tuple[Any, ...], tuple[RouteGraph, list[Candidate]]] = OrderedDict()

    def get(self, key: tuple[Any, ...]) -> tuple[RouteGraph, list[Candidate]] | None:
        hit = self._entries.get(key)
        if hit is not None:
            self._entries.move_to_end(key)
        return hit

    def put(self, key: tuple[Any, ...], value: tuple[RouteGraph, list[Candidate]]) -> None:
        self._entries[key] = value
        while len(self._entries) > self.ENTRIES:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __deepcopy__(self, memo: dict[int, Any]) -> RouterCache:
        return RouterCache()

    def __reduce__(self) -> tuple[Any, ...]:
        return (RouterCache, ())


# --- the listing search -------------------------------------------------------------------------
class _TooBig(Exception):
    """The position is too large for the listing search."""


def _graph_and_runs(problem: RouteProblem, distance: int, deadline: Deadline, cache: RouterCache | None,
                    skips: int = 0) -> tuple[RouteGraph, list[Candidate], bool]:
    """The graph and the runs of a `distance` train, and whether the list is complete. With
    `skips` (one at most), runs may also pass a stop uncounted (a switcher's): they go on through
    cities full of others' stations, and their costliest stop is not counted in `distance`.

    Raises _TooBig past the caps; out of time, the runs listed so far.
    """
    key = (problem.corporation, distance, skips, problem.colors, board_signature(problem.board))
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        return hit[0], hit[1], True
    try:
        graph = build_graph(problem.board, problem.corporation, problem.colors,
                            link_cap=LINK_CAP, deadline=deadline, through_blocked=skips > 0)
    except TooManyLinks as error:
        raise _TooBig from error
    runs, complete = enumerate_runs(graph, distance, should_stop=lambda: passed(deadline),
                                    cap=RUN_CAP, blocked_passes=skips, waive_one=skips > 0)
    if len(runs) > RUN_CAP:
        raise _TooBig
    if complete and cache is not None:
        cache.put(key, (graph, runs))
    return graph, runs, complete


class _Run(NamedTuple):
    """A listed run as one train runs it: the stop its switcher leaves out of the count (a
    position in `run.stops`; None: none) and the distance-changing attachments it carries."""

    run: Candidate
    skipped: int | None = None
    carried: tuple[str, ...] = ()


class _Upgrade(NamedTuple):
    """An attachment that changes a train's distance, as the listing search weighs it: one
    bit of the combination search's resources, so no two trains take it."""

    attachment: Attachment
    bit: int


def _listable(attachments: Sequence[Attachment], trains: Sequence[Train]) -> bool:
    """Whether the listing search knows these attachments: those that change a distance are
    exclusive (a train carries one at most) and each is an extender or a one-stop switcher; and
    with one, whether the runs are short enough to list (`UPGRADED_REACH`)."""
    upgrades = [a for a in attachments if a.changes_distance]
    if not upgrades:
        return True
    longest = max(train.distance for train in trains)
    return longest + 1 <= UPGRADED_REACH and all(
        a.exclusive and (a.distance_bonus == 0) != (a.skips == 0) and a.skips <= 1 for a in upgrades)


def _upgrades_of(train: Train, upgrades: Sequence[_Upgrade],
                 attachments: Sequence[Attachment]) -> tuple[list[_Upgrade], _Upgrade | None]:
    """The distance upgrades `train` may take, and the one already attached to it (which it carries
    on whatever run); none where an exclusive attachment that leaves distance alone is attached
    to it (its one upgrade is taken)."""
    mine = [u for u in upgrades if u.attachment.trains is None or train.id in u.attachment.trains]
    forced = next((u for u in mine if u.attachment.attached), None)
    if forced is not None:
        return [forced], forced
    taken = any(a.attached and a.exclusive and not a.changes_distance and a.trains is not None
                and train.id in a.trains for a in attachments)
    return ([] if taken else [u for u in mine if not u.attachment.attached]), None


def _options_for(problem: RouteProblem, train: Train, graph: RouteGraph, runs: list[Candidate],
                 groups: Sequence[frozenset[str]], limits: StopLimits, upgrades: Sequence[_Upgrade] = (),
                 forced: _Upgrade | None = None) -> list[Option]:
    """The train's options: each listed run it may make, bare or with one of its `upgrades` (an
    extender's longer reach, a switcher's uncounted stop), valued for it. With `forced` (an
    upgrade already attached to it) every option carries that one."""
    rules = problem.rules
    values = list(graph.values)
    if "route_stop_revenue" in rules.hooks:
        values = [rules.stop_revenue(train, stop, printed) for stop, printed in zip(graph.stops, graph.values,
                                                                                    strict=True)]
    bonuses = rules.track_bonuses(train) if "route_track_bonuses" in rules.hooks else {}
    blocked = graph.blocked
    tokened = set(graph.tokened)
    costs = graph.costs
    distance = train.distance
    options = []
    for run in runs:
        if limits and limits.breaks([graph.stops[i] for i in run.stops]):
            continue
        inner_blocked = [p for p in range(1, len(run.stops) - 1) if blocked and blocked[run.stops[p]]]
        if len(inner_blocked) > 1:
            continue
        revenue = sum(values[i] for i in run.stops)
        if bonuses:
            revenue += sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in graph.paths_of(run.mask)})
        ends = 0
        if groups:
            first, last = graph.stops[run.stops[0]][0], graph.stops[run.stops[-1]][0]
            for bit, hexes in enumerate(groups):
                if first in hexes or last in hexes:
                    ends |= 1 << bit
        bare = not inner_blocked and run.cost <= distance
        if bare and forced is None:
            options.append(Option(revenue, run.mask, ends, _Run(run)))
        for upgrade in upgrades:
            attachment = upgrade.attachment
            mask = run.mask | upgrade.bit
            carried = (attachment.id,)
            if attachment.distance_bonus:  # an extender: more stops, all counted
                if not inner_blocked and run.cost <= distance + attachment.distance_bonus \
                        and (forced is not None or not bare):
                    options.append(Option(revenue, mask, ends, _Run(run, None, carried)))
                continue
            if bare and forced is not None:  # a switcher on its train, no stop left out
                options.append(Option(revenue, mask, ends, _Run(run, None, carried)))
            # A switcher: one stop left out of the count and the earnings, and one more stop of
            # distance. As the title's run check leaves one out: only a run the bare train cannot
            # make (a full city passed must be the one), and never the run's only station.
            reach = distance + attachment.distance_per_skip
            best: tuple[int, int] | None = None
            if not bare and len(run.stops) >= 3:
                for position in inner_blocked or range(len(run.stops)):
                    stop = run.stops[position]
                    if run.cost - costs[stop] > reach:
                        continue
                    if not any(other in tokened for other in run.stops if other != stop):
                        continue
                    worth = revenue - values[stop]
                    if best is None or worth > best[0]:
                        best = (worth, position)
            if best is not None:
                options.append(Option(best[0], mask, ends, _Run(run, best[1], carried)))
    # Best first; among equals, less track first, which leaves the other trains more room.
    options.sort(key=lambda option: (-option.revenue, option.mask.bit_count()))
    return options


def _plan(board: Network, graph: RouteGraph, train: str, run: Candidate, revenue: int) -> PlannedRun:
    stops = tuple(graph.stops[i] for i in run.stops)
    paths: list[PathKey] = []
    chains: list[tuple[str, ...]] = []
    for position, link in enumerate(run.links):
        if link.start == run.stops[position]:
            paths.extend(link.walk)
            chains.append(link.chain)
        else:
            paths.extend(reversed(link.walk))
            chains.append(tuple(reversed(link.chain)))
    return PlannedRun(train, stops, tuple(stop[0] for stop in stops), tuple(paths), tuple(chains),
                      revenue, _node_ids(board, stops))


def _node_ids(board: Network, stops: Sequence[Node]) -> tuple[str, ...]:
    return tuple(f"{coord}-{board.hexes[coord].tile.stop(kind, index).part_index}"
                 for coord, kind, index in stops)


def _costs(board: Network, stops: Sequence[Node]) -> list[int]:
    return [board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in stops]


def _listing(problem: RouteProblem, trains: list[Train], attachments: tuple[Attachment, ...],
             deadline: Deadline, cache: RouterCache | None,
             accept: Callable[[RouteResult], bool] | None) -> RouteResult:
    distance_upgrades = [a for a in attachments if a.changes_distance]
    skips = max((a.skips for a in distance_upgrades), default=0)
    reach = max(train.distance + max((a.distance_bonus + a.distance_per_skip * a.skips for a in distance_upgrades
                                      if a.trains is None or train.id in a.trains), default=0)
                for train in trains)
    graph, runs, complete = _graph_and_runs(problem, reach, deadline, cache, skips)
    rules = problem.rules
    limits = rules.end_limits() if "route_end_limits" in rules.hooks else ()
    groups = [hexes for hexes, _ in limits]
    stops_limited = stop_limits(problem, graph.stops)
    # Each distance upgrade is a resource of the combination search beyond the track's bits.
    upgrades = [_Upgrade(a, 1 << (len(graph.path_keys) + k)) for k, a in enumerate(distance_upgrades)]
    options = []
    for train in trains:
        usable, forced = _upgrades_of(train, upgrades, attachments)
        options.append(_options_for(problem, train, graph, runs, groups, stops_limited, usable, forced))
    # Trains of one length are interchangeable unless a hook could tell them apart.
    symmetric = not rules.hooks & {"route_stop_revenue", "route_track_bonuses", "route_attachments"}
    same = [index > 0 and symmetric and train.distance == trains[index - 1].distance
            for index, train in enumerate(trains)]
    board = problem.board
    bonus_limit = 0
    company_bonus: Callable[[Choice], int] | None = None
    if any(not a.changes_distance for a in attachments):
        longest = reach  # the most stops a run counts
        bonus_limit = sum(a.stop_bonus * longest + max((amount for _, amount in a.run_bonuses), default=0)
                          for a in attachments if not a.changes_distance)

        credit_of = _CompanyCredit(board, graph, trains, attachments)

        def whole_company_bonus(choice: Choice) -> int:
            return credit_of.best(choice)

        company_bonus = whole_company_bonus

    def assemble(choice: Choice) -> RouteResult:
        picked = [(train, option) for train, option in zip(trains, choice, strict=True) if option is not None]
        planned = tuple(replace(_plan(board, graph, train.id, option.ref.run, option.revenue),
                                attachments=option.ref.carried) for train, option in picked)
        if attachments:
            planned = _hand_out(board, attachments, list(planned))
        return RouteResult(problem.corporation, planned, sum(run.revenue for run in planned), True, 0.0)

    def combine(check: Callable[[Choice], bool] | None) -> tuple[Any, RouteResult]:
        found = best_combination(options, same_as_previous=same, group_limits=[most for _, most in limits],
                                 bonus_limit=bonus_limit, company_bonus=company_bonus, accept=check,
                                 deadline=deadline)
        return found, assemble(found.choice)

    # The engine checks the best answer only; should it refuse, the search runs again asking it
    # about every new best (never needed while optimizer and engine agree).
    outcome, result = combine(None)
    if accept is not None and result.runs and not accept(result):
        outcome, result = combine(lambda choice: accept(assemble(choice)))
    # A better answer the engine refused means optimizer and engine disagree on the rules, so
    # the answer is no longer known to be the best the rules allow.
    return replace(result, proven_optimal=complete and outcome.proven and not outcome.rejected,
                   engine_disagreements=outcome.rejected)


class _CompanyCredit:
    """What the value-only attachments add to a choice of runs, handed out as the engine hands them
    out (assign_attachments' best total), with each run's credit from each attachment worked out
    once: the combination search asks at every choice it completes."""

    def __init__(self, board: Network, graph: RouteGraph, trains: Sequence[Train],
                 attachments: Sequence[Attachment]) -> None:
        self.board = board
        self.graph = graph
        self.trains = trains
        self.value_only = [a for a in attachments if not a.changes_distance]
        # Trains an attached distance upgrade rides on hold their exclusive place whatever they run.
        self.occupied = occupied_trains(attachments, {})
        self.memo: dict[tuple[int, int], tuple[int, ...]] = {}

    def credits(self, t: int, option: Option) -> tuple[int, ...]:
        """Each value-only attachment's credit to train t's run (0 where it may not ride there)."""
        key = (t, id(option))
        found = self.memo.get(key)
        if found is None:
            train = self.trains[t].id
            stops = tuple(self.graph.stops[i] for i in option.ref.run.stops)
            costs = _costs(self.board, stops)
            found = self.memo[key] = tuple(
                attachment_credit(a, stops, costs) if a.trains is None or train in a.trains else 0
                for a in self.value_only)
        return found

    def best(self, choice: Choice) -> int:
        picked = [(t, option) for t, option in enumerate(choice) if option is not None]
        if not picked:
            return 0
        rows = [self.credits(t, option) for t, option in picked]
        # An exclusive attachment rides on no train that already carries one.
        free = [self.trains[t].id not in self.occupied and not option.ref.carried for t, option in picked]
        total = 0
        exclusive: list[list[int]] = []
        for k, attachment in enumerate(self.value_only):
            if attachment.exclusive:
                exclusive.append([row[k] if open_ else 0 for row, open_ in zip(rows, free, strict=True)])
            else:
                total += max(row[k] for row in rows)
        return total + _best_distinct(exclusive)


def _best_distinct(gains: list[list[int]]) -> int:
    """The most the exclusive attachments add, each on one train at most and no train taking two:
    `gains[k][r]` is attachment k's credit on run r."""
    if not gains:
        return 0
    best = 0
    for holders in product(*[[None, *range(len(row))] for row in gains]):
        used = [r for r in holders if r is not None]
        if len(used) != len(set(used)):
            continue
        best = max(best, sum(gains[k][r] for k, r in enumerate(holders) if r is not None))
    return best


def _hand_out(board: Network, attachments: Sequence[Attachment], runs: list[PlannedRun]) -> tuple[PlannedRun, ...]:
    """Runs with the value-only attachments given as the engine's run check gives them."""
    occupied = occupied_trains(attachments, {run.train: run.attachments for run in runs})
    holders = assign_attachments(attachments, [(run.train, run.stops, _costs(board, run.stops)) for run in runs],
                                 occupied)
    if not holders:
        return tuple(runs)
    by_id = {attachment.id: attachment for attachment in attachments}
    out = []
    for run in runs:
        mine = [name for name, train in holders.items() if train == run.train]
        gain = sum(attachment_credit(by_id[name], run.stops, _costs(board, run.stops)) for name in mine)
        out.append(replace(run, revenue=run.revenue + gain, attachments=run.attachments + tuple(mine)))
    return tuple(out)


# --- the model search --------------------------------------------------------------------------
def _model(problem: RouteProblem, trains: list[Train], attachments: tuple[Attachment, ...],
           deadline: float) -> RouteResult:
    # The model's modules load the CP-SAT solver (ortools) the first time a process needs it:
    # 0.45-0.9 s of CPU, which is no search. Counted in the budget it left an 18USA random-play
    # position (a 25-path network, two 2-trains and P30's extender, which the listing cannot take)
    # unproven at $120 of $150 in a fresh process on a busy machine; the deadline moves by it.
    loading = time.perf_counter()
    from engine.router.model_input import model_input
    from engine.router.model_search import search_model
    from engine.router.track import OutOfTime

    deadline += time.perf_counter() - loading

    try:
        prepared = model_input(problem, trains, attachments, deadline)
    except OutOfTime:
        return RouteResult(problem.corporation, (), 0, False, 0.0, method="model")
    outcome = search_model(prepared, deadline)
    board = problem.board
    by_id = {attachment.id: attachment for attachment in attachments}
    bare: list[PlannedRun] = []
    for run in sorted(outcome.runs, key=lambda run: run.train):
        # The engine hands value-only attachments out itself (the action does not name them), so
        # take the model's off and let _hand_out give them as the engine will.
        revenue = run.revenue - sum(attachment_credit(by_id[name], run.stops, _costs(board, run.stops))
                                    for name in run.attachments if not by_id[name].changes_distance)
        carried = tuple(name for name in run.attachments if by_id[name].changes_distance)
        bare.append(PlannedRun(trains[run.train].id, run.stops, tuple(stop[0] for stop in run.stops),
                                  run.paths, run.connections, revenue, _node_ids(board, run.stops), carried))
    planned = _hand_out(board, attachments, bare)
    return RouteResult(problem.corporation, planned, sum(run.revenue for run in planned),
                       outcome.proven, 0.0, method="model", bound=outcome.bound)


# --- the optimizer -------------------------------------------------------------------------------
def solve_problem(problem: RouteProblem, *, time_budget: float = 2.0, cache: RouterCache | None = None,
                  accept: Callable[[RouteResult], bool] | None = None, method: str | None = None,
                  revalue: Callable[[RouteResult], RouteResult | None] | None = None) -> RouteResult:
    """The maximum-revenue runs of a problem's trains (see the module docstring): the optimizer's
    one entry.

    `accept` may refuse answers (the engine's check); `method` forces "listing" or "model";
    `revalue` values a refused model answer's runs as the engine does (None: it cannot), to be
    offered instead of nothing.
    """
    started = time.perf_counter()
    deadline = started + time_budget - min(FINISH_RESERVE, time_budget * 0.05)
    trains = sorted(problem.trains, key=lambda train: -train.distance)
    if not trains:
        return RouteResult(problem.corporation, (), 0, True, time.perf_counter() - started)
    attachments = problem.rules.attachments() if "route_attachments" in problem.rules.hooks else ()
    result: RouteResult | None = None
    listable = _listable(attachments, trains)
    if method != "model" and listable:
        # Its share in CPU time (router_clock), within the whole deadline.
        share = deadline if method == "listing" else cpu_share(time_budget * LISTING_SHARE, deadline)
        try:
            result = _listing(problem, trains, attachments, share, cache, accept)
        except _TooBig:
            result = None
    fallback = None
    if result is not None and not result.proven_optimal and method is None:
        # Out of its share of the time: the model may still prove an answer; keep this one in case.
        fallback, result = result, None
    if result is None:
        result = _model(problem, trains, attachments, deadline)
        if accept is not None and result.runs and not accept(result):
            revalued = revalue(result) if revalue is not None else None
            if revalued is not None and accept(revalued):
                result = replace(revalued, engine_disagreements=1)
            else:
                result = replace(RouteResult(problem.corporation, (), 0, False, 0.0, method="model"),
                                 engine_disagreements=1)
        if fallback is not None and fallback.total > result.total:
            result = replace(fallback, proven_optimal=False, bound=result.bound)
    if result.proven_optimal:
        result = replace(result, bound=result.total)
    elif result.engine_disagreements or result.bound is not None and result.bound < result.total:
        # The bound is the optimizer's reading of the rules, which the rules' check did not share.
        result = replace(result, bound=None)
    return replace(result, seconds=time.perf_counter() - started)

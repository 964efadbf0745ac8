"""The route optimizer: the runs that earn a company the most, proven, in a form the engine accepts.

Two exact searches, chosen by the size of the position (measured, see bench/router.py):

* small networks (every 18Texas position): the runs of the longest train are listed through the
  graph of plain-track links between stops (router_graph, router_runs) and the trains combined
  by branch and bound (router_search). A millisecond or two, but the list grows about tenfold per
  stop, so it is abandoned as soon as it passes `RUN_CAP` runs, `LINK_CAP` links or its share of
  the time budget;
* everything else: one CP-SAT model of all the trains on the company's track (router_track,
  router_model), which never lists runs.

Past the time budget the best answer found so far is returned, marked not proven. Loading the
CP-SAT solver, once a process, is not counted in the budget (it is no search). Before an
answer is returned the engine's own run check replays it as a `run_routes` action (when the
position comes from a game), so an answer is never illegal even if optimizer and engine disagree.
"""

from __future__ import annotations

import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.core.graph import Node
from engine.core.or_steps import check_runs
from engine.core.route_hooks import (
    Attachment,
    assign_attachments,
    attachment_credit,
    best_attachment_credit,
    finish_company_runs,
    occupied_trains,
    run_adjustment,
)
from engine.core.router_clock import Deadline, cpu_share, passed
from engine.core.router_graph import PathKey, RouteGraph, TooManyLinks, board_signature, build_graph
from engine.core.router_problem import RouteProblem, StopLimits, problem_from_game, stop_limits
from engine.core.router_runs import Candidate, enumerate_runs
from engine.core.router_search import Choice, Option, best_combination
from engine.core.routes import check_run
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame

RUN_CAP = 5_000  # runs the listing search may hold before the model takes over (18Texas: 434)
LINK_CAP = 300  # plain-track links likewise (18Texas logs: 53 at most)
LISTING_SHARE = 0.1  # share of the time budget the listing search may use, in CPU time
# Kept back from the search for reading its answer back and the engine's check of it, and for
# CP-SAT overshooting its time limit: without it 18USA log 109372's open positions took 2.002-2.007 s
# of a 2 s budget (load average 0.8).
FINISH_RESERVE = 0.03  # seconds, at most 5% of the budget


@dataclass(frozen=True)
class PlannedRun:
    """One train's run: stops in order, the hexes and track it uses, and what it earns."""

    train: str
    stops: tuple[Node, ...]  # (hex, kind, index) in run order
    hexes: tuple[str, ...]  # the stops' hexes, in run order
    paths: tuple[PathKey, ...]  # track paths in travel order
    connections: tuple[tuple[str, ...], ...]  # 18xx.games chains, one per pair of stops
    revenue: int
    nodes: tuple[str, ...] = ()  # 18xx.games node ids of the stops, "<hex>-<part index>"
    attachments: tuple[str, ...] = ()  # ids of the attachments this train carries

    def route(self) -> dict[str, Any]:
        """This run as one entry of an 18xx.games `run_routes` action."""
        route: dict[str, Any] = {
            "train": self.train,
            "connections": [list(chain) for chain in self.connections],
            "hexes": list(self.hexes),
            "revenue": self.revenue,
            "revenue_str": "-".join(self.hexes),
        }
        if self.nodes:
            route["nodes"] = list(self.nodes)
        return route


@dataclass(frozen=True)
class RouteResult:
    """The best runs found for a company's trains; trains that cannot run are left out.

    `proven_optimal`: no set of runs earns more. Otherwise `runs` are the best found within the
    time budget (still legal). `method` names the search that answered ("listing" or "model").
    """

    corporation: str
    runs: tuple[PlannedRun, ...]
    total: int
    proven_optimal: bool
    seconds: float
    # Better answers the engine's run check refused (always 0 unless optimizer and engine disagree).
    engine_disagreements: int = 0
    method: str = "listing"

    def to_action(self, corp_id: str | None = None) -> dict[str, Any]:
        """An 18xx.games `run_routes` action for these runs."""
        return {
            "type": "run_routes",
            "entity": corp_id or self.corporation,
            "entity_type": "corporation",
            "routes": [run.route() for run in self.runs],
        }


# --- the cache of one game --------------------------------------------------------------------
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


# Each game's cache lives exactly as long as the game object (weakly keyed, so nothing is kept for
# a game that is gone) and stays out of the game's own state, which tests compare field by field.
_CACHES: weakref.WeakKeyDictionary[Any, RouterCache] = weakref.WeakKeyDictionary()


def cache_of(game: BaseGame) -> RouterCache:
    """The game's own router cache (made on first use)."""
    cache = _CACHES.get(game)
    if cache is None:
        cache = _CACHES[game] = RouterCache()
    return cache


def clear_cache(game: BaseGame) -> None:
    cache_of(game).clear()


# --- the listing search -------------------------------------------------------------------------
class _TooBig(Exception):
    """The position is too large for the listing search."""


def _graph_and_runs(problem: RouteProblem, distance: int, deadline: Deadline,
                    cache: RouterCache | None) -> tuple[RouteGraph, list[Candidate], bool]:
    """The graph and the runs of a `distance` train, and whether the list is complete.

    Raises _TooBig past the caps; out of time, the runs listed so far.
    """
    key = (problem.corporation, distance, problem.colors, board_signature(problem.board))
    hit = cache.get(key) if cache is not None else None
    if hit is not None:
        return hit[0], hit[1], True
    try:
        graph = build_graph(problem.board, problem.corporation, problem.colors,
                            link_cap=LINK_CAP, deadline=deadline)
    except TooManyLinks as error:
        raise _TooBig from error
    runs, complete = enumerate_runs(graph, distance, should_stop=lambda: passed(deadline),
                                    cap=RUN_CAP)
    if len(runs) > RUN_CAP:
        raise _TooBig
    if complete and cache is not None:
        cache.put(key, (graph, runs))
    return graph, runs, complete


def _options_for(problem: RouteProblem, train: Train, graph: RouteGraph, runs: list[Candidate],
                 groups: Sequence[frozenset[str]], limits: StopLimits) -> list[Option]:
    rules = problem.rules
    values = list(graph.values)
    if "route_stop_revenue" in rules.hooks:
        values = [rules.stop_revenue(train, stop, printed) for stop, printed in zip(graph.stops, graph.values,
                                                                                    strict=True)]
    bonuses = rules.track_bonuses(train) if "route_track_bonuses" in rules.hooks else {}
    options = []
    for run in runs:
        if run.cost > train.distance:
            continue
        if limits and limits.breaks([graph.stops[i] for i in run.stops]):
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
        options.append(Option(revenue, run.mask, ends, run))
    # Best first; among equals, less track first, which leaves the other trains more room.
    options.sort(key=lambda option: (-option.revenue, option.mask.bit_count()))
    return options


def _plan(board: Any, graph: RouteGraph, train: str, run: Candidate, revenue: int) -> PlannedRun:
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


def _node_ids(board: Any, stops: Sequence[Node]) -> tuple[str, ...]:
    return tuple(f"{coord}-{board.hexes[coord].tile.stop(kind, index).part_index}"
                 for coord, kind, index in stops)


def _costs(board: Any, stops: Sequence[Node]) -> list[int]:
    return [board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in stops]


def _listing(problem: RouteProblem, trains: list[Train], attachments: tuple[Attachment, ...],
             deadline: Deadline, cache: RouterCache | None,
             accept: Callable[[RouteResult], bool] | None) -> RouteResult:
    graph, runs, complete = _graph_and_runs(problem, trains[0].distance, deadline, cache)
    rules = problem.rules
    limits = rules.end_limits() if "route_end_limits" in rules.hooks else ()
    groups = [hexes for hexes, _ in limits]
    stops_limited = stop_limits(problem, graph.stops)
    options = [_options_for(problem, train, graph, runs, groups, stops_limited) for train in trains]
    # Trains of one length are interchangeable unless a hook could tell them apart.
    symmetric = not rules.hooks & {"route_stop_revenue", "route_track_bonuses", "route_attachments"}
    same = [index > 0 and symmetric and train.distance == trains[index - 1].distance
            for index, train in enumerate(trains)]
    board = problem.board
    bonus_limit = 0
    company_bonus: Callable[[Choice], int] | None = None
    if attachments:
        longest = trains[0].distance
        bonus_limit = sum(a.stop_bonus * longest + max((amount for _, amount in a.run_bonuses), default=0)
                          for a in attachments)

        def credit_of(choice: Choice) -> dict[str, int]:
            described = [(train.id, stops, _costs(board, stops))
                         for train, option in zip(trains, choice, strict=True) if option is not None
                         for stops in [tuple(graph.stops[i] for i in option.ref.stops)]]
            return best_attachment_credit(attachments, described)

        def whole_company_bonus(choice: Choice) -> int:
            return sum(credit_of(choice).values())

        company_bonus = whole_company_bonus

    def assemble(choice: Choice) -> RouteResult:
        picked = [(train, option) for train, option in zip(trains, choice, strict=True) if option is not None]
        planned = tuple(_plan(board, graph, train.id, option.ref, option.revenue) for train, option in picked)
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


def _hand_out(board: Any, attachments: Sequence[Attachment], runs: list[PlannedRun]) -> tuple[PlannedRun, ...]:
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
    from engine.core.router_modelinput import model_input
    from engine.core.router_modelsearch import search_model
    from engine.core.router_track import OutOfTime

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
                       outcome.proven, 0.0, method="model")


# --- checking an answer with the engine ---------------------------------------------------------
def _engine_agrees(state: BaseGame, corp: Corporation, result: RouteResult) -> bool:
    """The engine's own run check accepts these runs, sees the same track and the same revenue."""
    if not result.runs:
        return True
    if any(attachment.attached for attachment in state.route_attachments(corp)):
        # Upgrades already on a train for this run (chosen in the title's run step): the core
        # run check knows nothing of them, the run step does.
        return _run_step_accepts(state, corp, result)
    if any(run.attachments and _changes_distance(state, corp, run) for run in result.runs):
        # The core run check counts stops against the bare train; a title with switchers or
        # extenders checks those runs in its own run step.
        return True
    try:
        checked = check_runs(state, corp, result.to_action(corp.id))
    except GameError:
        return False
    trains = {train.id: train for train in corp.trains}
    colors = state.colors_available()
    # While a log replays the engine takes logged revenue on trust, so recompute it here.
    recomputed = []
    try:
        for run in checked:
            train = trains[run.train]
            revenue = check_run(state.board, corp.id, list(run.stops), train.distance, colors)
            revenue += run_adjustment(state, corp, train, run.stops, run.paths)
            recomputed.append(replace(run, revenue=revenue))
        recomputed = finish_company_runs(state, corp, recomputed)
    except GameError:
        return False
    for mine, theirs in zip(result.runs, recomputed, strict=True):
        if set(mine.paths) != set(theirs.paths) or mine.revenue != theirs.revenue:
            return False
    return True


def _at_run_step(state: BaseGame, corp: Corporation) -> bool:
    """Whether the company is at its run step now (else the step cannot judge its runs)."""
    rnd = state.round
    return rnd.current_entity(state) is corp \
        and any("run_routes" in step.actions(state, rnd, corp) for step in rnd.active_steps(state))


def _run_on_a_copy(state: BaseGame, corp: Corporation, result: RouteResult,
                   action: dict[str, Any]) -> BaseGame | None:
    """A copy of the position after the runs' attachments are chosen and `action` (their
    run_routes) is made, as the company's run step takes them; None where the step refuses."""
    from engine.attachments import attachment_actions
    from engine.core.steps.route import given_most

    trial = state.snapshot()
    trial.importing = False  # a logged revenue is taken on trust while a log replays
    try:
        for choose in attachment_actions(trial, corp.id, result.runs):
            trial.process(choose)
        with given_most(trial, result):  # the run check would otherwise search for the most again
            trial.process(action)
    except GameError:
        return None
    return trial


def _run_step_accepts(state: BaseGame, corp: Corporation, result: RouteResult) -> bool:
    """The runs as the company's run step takes them, on a copy of the position. Where the
    company is not at its run step the step cannot say: accepted."""
    if not _at_run_step(state, corp):
        return True
    return _run_on_a_copy(state, corp, result, result.to_action(corp.id) | {"entity_type": "corporation"}) is not None


def _engine_values(state: BaseGame, corp: Corporation, result: RouteResult) -> RouteResult | None:
    """The runs valued by the company's run step (their upgrades chosen first, no revenue
    declared), on a copy of the position; None where the step refuses them or cannot say.

    A model stopped at its deadline may carry a switcher whose dropped stop is not the one the
    title's rule drops, and so declare less than the step computes, which the step refuses
    (18USA random play, seed 20700 action 819: C&O's 4-train with P19 declared $210, worth $220)."""
    if not _at_run_step(state, corp):
        return None
    undeclared = result.to_action(corp.id) | {"entity_type": "corporation"}
    undeclared["routes"] = [{key: value for key, value in route.items() if key != "revenue"}
                            for route in undeclared["routes"]]
    trial = _run_on_a_copy(state, corp, result, undeclared)
    if trial is None:
        return None
    worth = {run.train: run.revenue for run in trial.last_runs or ()}
    if set(worth) != {run.train for run in result.runs}:
        return None
    runs = tuple(replace(run, revenue=worth[run.train]) for run in result.runs)
    return replace(result, runs=runs, total=sum(run.revenue for run in runs), proven_optimal=False)


def _changes_distance(state: BaseGame, corp: Corporation, run: PlannedRun) -> bool:
    by_id = {attachment.id: attachment for attachment in state.route_attachments(corp)}
    return any(by_id[name].changes_distance for name in run.attachments if name in by_id)


# --- the optimizer -------------------------------------------------------------------------------
def solve_problem(problem: RouteProblem, *, time_budget: float = 2.0, cache: RouterCache | None = None,
                  accept: Callable[[RouteResult], bool] | None = None, method: str | None = None,
                  revalue: Callable[[RouteResult], RouteResult | None] | None = None) -> RouteResult:
    """The maximum-revenue runs of a problem's trains (see the module docstring).

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
    listable = not any(attachment.changes_distance for attachment in attachments)
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
            result = replace(fallback, proven_optimal=False)
    return replace(result, seconds=time.perf_counter() - started)


def best_runs(state: BaseGame, corporation: Corporation | str, *, time_budget: float = 2.0,
              method: str | None = None) -> RouteResult:
    """The maximum-revenue runs for the company's trains in a game (see the module docstring)."""
    corp = state.corporation(corporation) if isinstance(corporation, str) else corporation
    problem = problem_from_game(state, corp)
    return solve_problem(problem, time_budget=time_budget, cache=cache_of(state),
                         accept=lambda result: _engine_agrees(state, corp, result), method=method,
                         revalue=lambda result: _engine_values(state, corp, result))



"""The route optimizer: the runs that earn a company the most, proven, in a form the engine accepts.

`best_runs(state, corporation)` builds the company's graph of stops and links (router_graph),
lists every legal run for its longest train (router_runs), values them per train with the title's
route hooks, and picks the path-disjoint combination with the highest total (router_search).
Before an answer becomes the best, the engine's own run check replays it as a `run_routes` action,
so an answer is never illegal even if the optimizer and the engine were to disagree.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from engine.core.graph import Node
from engine.core.or_steps import check_runs
from engine.core.route_hooks import finish_company_runs, overridden_hooks, run_adjustment
from engine.core.router_graph import PathKey, RouteGraph, board_signature, build_graph
from engine.core.router_runs import Candidate, enumerate_runs
from engine.core.router_search import Choice, Option, best_combination
from engine.core.routes import check_run
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame

PER_RUN_HOOKS = frozenset({"route_stop_revenue", "route_track_bonuses", "route_run_bonus"})


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

    `proven_optimal`: every legal combination was considered within the time budget, so no set of
    runs earns more. Otherwise `runs` are the best found so far (still legal).
    """

    corporation: str
    runs: tuple[PlannedRun, ...]
    total: int
    proven_optimal: bool
    seconds: float
    # Better answers the engine's run check refused (always 0 unless optimizer and engine disagree).
    engine_disagreements: int = 0

    def to_action(self, corp_id: str | None = None) -> dict[str, Any]:
        """An 18xx.games `run_routes` action for these runs."""
        return {
            "type": "run_routes",
            "entity": corp_id or self.corporation,
            "entity_type": "corporation",
            "routes": [run.route() for run in self.runs],
        }


# --- the cache ----------------------------------------------------------------------------------
# Graph and runs depend only on the board (tiles, rotations, tokens), the phase's colours, the
# company and the longest train; a later call with the same signature reuses them.
_CACHE: OrderedDict[tuple[Any, ...], tuple[RouteGraph, list[Candidate]]] = OrderedDict()
_CACHE_SIZE = 64


def clear_cache() -> None:
    _CACHE.clear()


def _graph_and_runs(state: BaseGame, corp_id: str, distance: int,
                    deadline: float) -> tuple[RouteGraph, list[Candidate], bool]:
    colors = state.colors_available()
    key = (type(state).__name__, corp_id, distance, colors, board_signature(state.board))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit[0], hit[1], True
    graph = build_graph(state.board, corp_id, colors)
    runs, complete = enumerate_runs(graph, distance, should_stop=lambda: time.perf_counter() > deadline)
    if complete:
        _CACHE[key] = (graph, runs)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return graph, runs, complete


# --- valuing runs per train --------------------------------------------------------------------
def _options_for(state: BaseGame, corp: Corporation, train: Train, graph: RouteGraph,
                 runs: list[Candidate], hooks: frozenset[str],
                 groups: Sequence[frozenset[str]]) -> list[Option]:
    options = []
    per_run = bool(hooks & PER_RUN_HOOKS)
    for run in runs:
        if run.cost > train.distance:
            continue
        revenue = run.value
        if per_run:
            stops = [graph.stops[i] for i in run.stops]
            printed = [graph.values[i] for i in run.stops]
            revenue += run_adjustment(state, corp, train, stops, graph.paths_of(run.mask), printed)
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


def _plan(state: BaseGame, graph: RouteGraph, train: str, run: Candidate, revenue: int) -> PlannedRun:
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
    nodes = tuple(f"{coord}-{state.board.hexes[coord].tile.stop(kind, index).part_index}"
                  for coord, kind, index in stops)
    return PlannedRun(train, stops, tuple(stop[0] for stop in stops), tuple(paths), tuple(chains),
                      revenue, nodes)


def _engine_agrees(state: BaseGame, corp: Corporation, result: RouteResult) -> bool:
    """The engine's own run check accepts these runs, sees the same track and the same revenue."""
    if not result.runs:
        return True
    try:
        checked = check_runs(state, corp, result.to_action(corp.id))
    except GameError:
        return False
    trains = {train.id: train for train in corp.trains}
    colors = state.colors_available()
    # While a log replays the engine takes logged revenue on trust, so recompute it here.
    recomputed = []
    for run in checked:
        train = trains[run.train]
        revenue = check_run(state.board, corp.id, list(run.stops), train.distance, colors)
        revenue += run_adjustment(state, corp, train, run.stops, run.paths)
        recomputed.append(replace(run, revenue=revenue))
    recomputed = finish_company_runs(state, corp, recomputed)
    for mine, theirs in zip(result.runs, recomputed, strict=True):
        if set(mine.paths) != set(theirs.paths) or mine.revenue != theirs.revenue:
            return False
    return True


# --- the optimizer -------------------------------------------------------------------------------
def best_runs(state: BaseGame, corporation: Corporation | str, *, time_budget: float = 2.0) -> RouteResult:
    """The maximum-revenue runs for the company's trains (see the module docstring)."""
    started = time.perf_counter()
    deadline = started + time_budget
    corp = state.corporation(corporation) if isinstance(corporation, str) else corporation
    trains = sorted(corp.trains, key=lambda train: -train.distance)
    if not trains:
        return RouteResult(corp.id, (), 0, True, time.perf_counter() - started)
    graph, runs, complete = _graph_and_runs(state, corp.id, trains[0].distance, deadline)
    hooks = overridden_hooks(state)
    limits = state.route_end_limits(corp) if "route_end_limits" in hooks else ()
    groups = [hexes for hexes, _ in limits]
    options = [_options_for(state, corp, train, graph, runs, hooks, groups) for train in trains]
    # Trains of one length are interchangeable unless a hook could tell them apart.
    symmetric = not hooks & (PER_RUN_HOOKS | {"route_company_bonus"})
    same = [index > 0 and symmetric and train.distance == trains[index - 1].distance
            for index, train in enumerate(trains)]
    bonus_limit = 0
    company_bonus: Callable[[Choice], int] | None = None
    if "route_company_bonus" in hooks:
        bonus_limit = state.route_company_bonus_limit(corp, trains)

        def whole_company_bonus(choice: Choice) -> int:
            picked = [(train, tuple(graph.stops[i] for i in option.ref.stops))
                      for train, option in zip(trains, choice, strict=True) if option is not None]
            return sum(state.route_company_bonus(corp, picked).values())

        company_bonus = whole_company_bonus

    def assemble(choice: Choice) -> RouteResult:
        picked = [(train, option) for train, option in zip(trains, choice, strict=True) if option is not None]
        planned = [_plan(state, graph, train.id, option.ref, option.revenue) for train, option in picked]
        if "route_company_bonus" in hooks:
            credit = state.route_company_bonus(
                corp, [(train, run.stops) for (train, _), run in zip(picked, planned, strict=True)])
            planned = [replace(run, revenue=run.revenue + credit.get(run.train, 0)) for run in planned]
        return RouteResult(corp.id, tuple(planned), sum(run.revenue for run in planned), True, 0.0)

    outcome = best_combination(
        options, same_as_previous=same, group_limits=[most for _, most in limits],
        bonus_limit=bonus_limit, company_bonus=company_bonus,
        accept=lambda choice: _engine_agrees(state, corp, assemble(choice)), deadline=deadline,
    )
    result = assemble(outcome.choice)
    # A better answer the engine refused means optimizer and engine disagree on the rules, so
    # the answer is no longer known to be the best the rules allow.
    proven = complete and outcome.proven and not outcome.rejected
    return replace(result, proven_optimal=proven,
                   seconds=time.perf_counter() - started, engine_disagreements=outcome.rejected)

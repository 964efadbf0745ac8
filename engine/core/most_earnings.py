"""The rules' one seam to the route optimizer (engine.router): the problem built from a game,
the optimizer's answer checked by the rules' own run check, and that answer handed to the run
check (`given_most`) by a caller that searched elsewhere.

The route step asks `best_runs` for the most a company can earn (12.4); the bot's worker and
`stationmaster routes` ask it for the runs to propose. The optimizer sees only the problem:
the board as a network, the company's trains, and the title's route hooks bound to the company
(`GameRules`); it imports nothing of the rules.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from engine.attachments import attachment_actions
from engine.core.graph import Node
from engine.core.route_hooks import (
    Attachment,
    EndLimit,
    StopRole,
    finish_company_runs,
    overridden_hooks,
    run_adjustment,
)
from engine.core.routes import action_routes, check_run
from engine.core.run_check import check_runs
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame
    from engine.router import RouteProblem, RouterCache, RouteResult
    from engine.router.problem import Train as RouterTrain
    from engine.router.result import PlannedRun

# The optimizer is loaded at its first search, not with the rules: a replay of a logged game
# checks runs without searching (engine.router's entry names load on first use, too).


# --- the problem ---------------------------------------------------------------------------------
class GameRules:
    """A game's route hooks, bound to one of its companies."""

    def __init__(self, game: BaseGame, corporation: Corporation) -> None:
        self.game = game
        self.corporation = corporation
        self.hooks = overridden_hooks(game)

    def stop_revenue(self, train: RouterTrain, stop: Node, printed: int) -> int:
        return self.game.route_stop_revenue(self.corporation, _own(train), stop, printed)

    def track_bonuses(self, train: RouterTrain) -> dict[str, int]:
        return self.game.route_track_bonuses(self.corporation, _own(train))

    def stop_roles(self) -> Mapping[Node, StopRole]:
        return self.game.route_stop_roles(self.corporation)

    def end_limits(self) -> tuple[EndLimit, ...]:
        return self.game.route_end_limits(self.corporation)

    def attachments(self) -> tuple[Attachment, ...]:
        return self.game.route_attachments(self.corporation)


def _own(train: RouterTrain) -> Train:
    """A train of the problem as the game's own: the problem is made of the game's trains."""
    return cast("Train", train)


def problem_from_game(game: BaseGame, corporation: Corporation) -> RouteProblem:
    # A train of no distance (18USA's Pullman car) never runs: it is at most an attachment.
    from engine.router.problem import RouteProblem

    trains = tuple(train for train in corporation.trains if train.distance > 0)
    return RouteProblem(game.board, corporation.id, game.colors_available(), trains, GameRules(game, corporation))


# --- the answer of a game's position --------------------------------------------------------------
# Each game's cache lives exactly as long as the game object (weakly keyed, so nothing is kept for
# a game that is gone) and stays out of the game's own state, which tests compare field by field.
_CACHES: weakref.WeakKeyDictionary[Any, RouterCache] = weakref.WeakKeyDictionary()


def cache_of(game: BaseGame) -> RouterCache:
    """The game's own router cache (made on first use)."""
    cache = _CACHES.get(game)
    if cache is None:
        from engine.router.solve import RouterCache

        cache = _CACHES[game] = RouterCache()
    return cache


def clear_cache(game: BaseGame) -> None:
    cache_of(game).clear()


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
        checked = check_runs(state, corp, tuple(action_routes(result.to_action(corp.id))))
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


# --- the seam --------------------------------------------------------------------------------------
def best_runs(state: BaseGame, corporation: Corporation | str, *, time_budget: float = 2.0,
              method: str | None = None) -> RouteResult:
    """The maximum-revenue runs for the company's trains in a game (see the module docstring)."""
    from engine.router.solve import solve_problem

    corp = state.corporation(corporation) if isinstance(corporation, str) else corporation
    problem = problem_from_game(state, corp)
    return solve_problem(problem, time_budget=time_budget, cache=cache_of(state),
                         accept=lambda result: _engine_agrees(state, corp, result), method=method,
                         revalue=lambda result: _engine_values(state, corp, result))


@contextmanager
def given_most(game: BaseGame, best: RouteResult | None) -> Iterator[None]:
    """Within the block, the run check takes `best` (the route optimizer's answer for the game's
    current position, searched by the caller) as the most the company can earn, instead of
    searching in the game's own process. None: the check searches itself."""
    before = game.most_earnings_known
    game.most_earnings_known = best
    try:
        yield
    finally:
        game.most_earnings_known = before

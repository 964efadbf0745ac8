"""Running trains: the operating company's runs and their revenue (12.4)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.actions import RunRoutes
from engine.core.entities import Corporation, Holder
from engine.core.round import Round
from engine.core.route_hooks import finish_company_runs, run_adjustment
from engine.core.routes import Run, check_run, rebuild_run
from engine.core.step import Handler
from engine.core.steps.operating import OperatingStep, operating
from engine.errors import GameError, RunsBelowTheMost

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.core.router import RouteResult


class RouteStep(OperatingStep):
    label = "run trains"
    key = "route"

    def handlers(self) -> Mapping[str, Handler]:
        return {"run_routes": self.process_run_routes}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        if not corp.trains or not game.route_available(corp):
            return []
        return ["run_routes"]

    def skip(self, game: BaseGame, rnd: Round) -> None:
        turn = self.turn(rnd)
        if turn.revenue is None:
            turn.revenue = 0
        self.done(rnd)

    def process_run_routes(self, game: BaseGame, rnd: Round, entity: Holder, action: RunRoutes) -> None:
        corp = self.operator(rnd, entity)
        turn = self.turn(rnd)
        runs = check_runs(game, corp, action.routes)
        turn.runs = runs
        extra = action.extra_revenue
        if extra and not game.trust_logged_revenue():
            raise GameError("extra_revenue is not part of a run in this game; give the runs only")
        if game.must_run_for_the_most() and not game.trust_logged_revenue():
            check_most(game, corp, sum(run.revenue for run in runs))
        turn.revenue = sum(run.revenue for run in runs) + extra
        game.last_runs = runs
        game.log.append(f"{corp.id} runs for ${turn.revenue}")
        self.done(rnd)


def check_most(game: BaseGame, corp: Corporation, revenue: int) -> None:
    """Refuse runs worth less than the optimizer's best: its proven best, or, when it could not
    prove one in the game's `most_earnings_budget`, the best it found (runs worth at least that
    stand, as the optimizer cannot show the table more)."""
    from engine.core.router import best_runs  # the router checks its answers with this module

    known = game.most_earnings_known
    best = known if known is not None and known.corporation == corp.id else \
        best_runs(game, corp, time_budget=game.most_earnings_budget, method=game.most_earnings_method)
    refusal = below_the_most(corp.id, revenue, best)
    if refusal is not None:
        raise refusal


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


def below_the_most(corp_id: str, revenue: int, best: RouteResult) -> RunsBelowTheMost | None:
    """The refusal of runs worth `revenue` against the optimizer's answer `best`, if they fall short."""
    if revenue >= best.total:
        return None
    runs = "; ".join(f"{run.train}: {'-'.join(run.hexes)} ${run.revenue}" for run in best.runs)
    if best.proven_optimal:
        most = f"${best.total}, no more ({runs})"
    else:
        most = (f"at least ${best.total} ({runs}; the best the route optimizer found in its time, so runs "
                f"worth ${best.total} or more are accepted)")
    return RunsBelowTheMost(f"{corp_id}'s runs earn ${revenue}, but its trains can earn {most}; a company must "
                            f"run for its highest earnings (12.4)", best)


def check_runs(game: BaseGame, corp: Corporation, routes: tuple[Mapping[str, Any], ...]) -> list[Run]:
    runs: list[Run] = []
    declared_revenues: list[Any] = []
    used: set[tuple[str, int]] = set()
    used_edges: set[tuple[str, int]] = set()
    trains_used: set[str] = set()
    for route in routes:
        train_id = route.get("train")
        train = next((t for t in corp.trains if t.id == train_id), None)
        if train is None:
            raise GameError(f"{corp.id} has no train {train_id!r}")
        if train.id in trains_used:
            raise GameError(f"train {train_id} can run only once")
        trains_used.add(train.id)
        chains = route.get("connections")
        if not isinstance(chains, list):
            raise GameError("each route needs its connections")
        stops, paths = rebuild_run(game.board, chains, used)
        _check_edges_once(game, paths, used_edges)
        used.update(paths)
        revenue = check_run(game.board, corp.id, stops, train.distance, game.colors_available())
        revenue += run_adjustment(game, corp, train, stops, paths)
        declared_revenues.append(route.get("revenue"))
        runs.append(Run(train.id, tuple(stops), tuple(paths), tuple(tuple(c) for c in chains), revenue))
    # Title route hooks: limits across all the runs, and bonuses decided once for the company.
    runs = finish_company_runs(game, corp, runs)
    checked: list[Run] = []
    for run, declared in zip(runs, declared_revenues, strict=True):
        if isinstance(declared, int) and declared != run.revenue and not game.trust_logged_revenue():
            raise GameError(f"the run of train {run.train} is worth ${run.revenue}, not ${declared}")
        if isinstance(declared, int) and game.trust_logged_revenue():
            run = replace(run, revenue=declared)
        checked.append(run)
    return checked


def _check_edges_once(game: BaseGame, paths: list[tuple[str, int]], used_edges: set[tuple[str, int]]) -> None:
    """Rule 12.1: no segment of track twice, not even the short piece where two paths of a tile
    meet at the same side, so each side of a hex is crossed at most once by a company's runs."""
    for coord, index in paths:
        for kind, where in game.board.hexes[coord].paths()[index]:
            if kind != "edge":
                continue
            if (coord, where) in used_edges:
                raise GameError(f"the runs use the track at side {where} of {coord} twice; no piece of "
                                f"track may be used twice, not even where two tracks join (12.1)")
            used_edges.add((coord, where))

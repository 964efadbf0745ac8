"""Running trains: the operating company's runs and their revenue (12.4)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import RunRoutes
from engine.core.entities import Corporation, Holder
from engine.core.most_earnings import best_runs, given_most
from engine.core.round import Round
from engine.core.run_check import check_runs
from engine.core.step import Handler
from engine.core.steps.operating import OperatingStep, operating
from engine.errors import GameError, RunsBelowTheMost

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.router import RouteResult

# check_runs and given_most are the run step's words too: titles' run steps take them from here.
__all__ = ["RouteStep", "below_the_most", "best_runs", "check_most", "check_runs", "given_most"]


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
    known = game.most_earnings_known
    best = known if known is not None and known.corporation == corp.id else \
        best_runs(game, corp, time_budget=game.most_earnings_budget, method=game.most_earnings_method)
    refusal = below_the_most(corp.id, revenue, best)
    if refusal is not None:
        raise refusal


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

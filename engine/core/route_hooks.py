"""Title hooks for running trains, shared by the engine's run check and the route optimizer.

18Texas uses none of them: every default leaves the core rules unchanged. They exist for what
18USA adds on top of printed revenue:

* `route_stop_revenue`: a stop's value on one train's run (metropolis and bonus tokens).
* `route_track_bonuses`: revenue collected by passing through a hex of plain track (resource
  tokens). Such a hex is not a stop: it costs the train no distance and cannot end a run.
* `route_run_bonus`: a bonus for one run as a whole (express-freight style area bonuses).
* `route_end_limits`: at most n of a company's runs may end in a group of hexes (Mexico: two).
* `route_company_bonus`: bonuses decided once for all of a company's runs (Pullman: +$20 per stop
  on the train of the company's choice), credited to chosen trains.

The optimizer is exact only if `route_company_bonus_limit` is an upper bound of
`route_company_bonus` and the per-run hooks depend on nothing but their arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.graph import Node
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame
    from engine.core.routes import Run

PathKey = tuple[str, int]
EndLimit = tuple[frozenset[str], int]  # (hexes, most runs that may end in them)


class RouteHooksMixin:
    """Methods of BaseGame that titles override to change what runs are worth or allowed."""

    def route_stop_revenue(self, corporation: Corporation, train: Train, stop: Node, revenue: int) -> int:
        """What `stop` earns on `train`'s run, given its printed value `revenue` in this phase."""
        return revenue

    def route_track_bonuses(self, corporation: Corporation, train: Train) -> dict[str, int]:
        """Hex -> bonus a run of `train` earns, once, for using any track path in that hex."""
        return {}

    def route_run_bonus(self, corporation: Corporation, train: Train, stops: tuple[Node, ...]) -> int:
        """A bonus for the whole run of `train` through `stops` (in run order)."""
        return 0

    def route_end_limits(self, corporation: Corporation) -> tuple[EndLimit, ...]:
        """Groups of hexes in which at most so many of the company's runs may start or end."""
        return ()

    def route_company_bonus(self, corporation: Corporation,
                            runs: Sequence[tuple[Train, tuple[Node, ...]]]) -> dict[str, int]:
        """Bonuses for the company's set of runs, by the train id whose run they are credited to."""
        return {}

    def route_company_bonus_limit(self, corporation: Corporation, trains: Sequence[Train]) -> int:
        """An upper bound of `route_company_bonus` over any runs of these trains."""
        return 0


HOOK_NAMES = ("route_stop_revenue", "route_track_bonuses", "route_run_bonus", "route_end_limits",
              "route_company_bonus", "route_company_bonus_limit")


def overridden_hooks(game: BaseGame) -> frozenset[str]:
    """The route hooks the title replaces; the optimizer skips the work for the others."""
    cls = type(game)
    return frozenset(name for name in HOOK_NAMES
                     if getattr(cls, name, None) is not getattr(RouteHooksMixin, name))


def run_adjustment(game: BaseGame, corporation: Corporation, train: Train, stops: Sequence[Node],
                   paths: Sequence[PathKey], printed: Sequence[int] | None = None) -> int:
    """What the per-run hooks add to a run's printed revenue (0 for titles without them).

    `printed` are the stops' printed values if the caller has them already.
    """
    hooks = overridden_hooks(game)
    if not hooks & {"route_stop_revenue", "route_track_bonuses", "route_run_bonus"}:
        return 0
    colors = game.colors_available()
    extra = 0
    if "route_stop_revenue" in hooks:
        for position, node in enumerate(stops):
            coord, kind, index = node
            base = (printed[position] if printed is not None
                    else game.board.hexes[coord].tile.stop(kind, index).revenue_in(colors))
            extra += game.route_stop_revenue(corporation, train, node, base) - base
    if "route_track_bonuses" in hooks:
        bonuses = game.route_track_bonuses(corporation, train)
        extra += sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in paths})
    if "route_run_bonus" in hooks:
        extra += game.route_run_bonus(corporation, train, tuple(stops))
    return extra


def end_limit_problem(limits: Sequence[EndLimit], ends: Sequence[tuple[str, str]]) -> str | None:
    """Why runs with these (first hex, last hex) ends break an end limit, or None."""
    for hexes, most in limits:
        count = sum(1 for first, last in ends if first in hexes or last in hexes)
        if count > most:
            return f"at most {most} runs may end in {', '.join(sorted(hexes))}; {count} do"
    return None


def finish_company_runs(game: BaseGame, corporation: Corporation, runs: list[Run]) -> list[Run]:
    """Check the limits that span all of a company's runs and credit its company bonuses."""
    hooks = overridden_hooks(game)
    if "route_end_limits" in hooks:
        ends = [(run.stops[0][0], run.stops[-1][0]) for run in runs]
        problem = end_limit_problem(game.route_end_limits(corporation), ends)
        if problem:
            raise GameError(problem)
    if "route_company_bonus" not in hooks:
        return runs
    trains = {train.id: train for train in corporation.trains}
    bonus = game.route_company_bonus(corporation, [(trains[run.train], run.stops) for run in runs])
    return [replace(run, revenue=run.revenue + bonus.get(run.train, 0)) for run in runs]

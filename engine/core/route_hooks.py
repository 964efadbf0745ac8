"""Title hooks for running trains, shared by the engine's run check and the route optimizer.

18Texas uses none of them: every default leaves the core rules unchanged. They exist for what
18USA adds on top of printed revenue, and each is stated so the optimizer can reason about it
exactly (no hook is an opaque function of a whole run):

* `route_stop_revenue`: a stop's value on one train (red areas by phase and their value tokens,
  a P6 token, bridge and subsidy tokens, P8's bonus in its red area, a company town's penalty).
* `route_track_bonuses`: revenue a train collects once for using track in a hex (coal, oil and
  ore tokens on plain track; 18USA's P8 on a red area's hexes). The bonus is no stop: it costs no
  distance, and a stop the train passes without counting it (a switcher's) still earns it.
* `route_stop_roles`: stops with a special part in a run: a rural junction may not be a run's
  first or last stop; the hexes of one red area (Mexico) count as one location, visited once.
* `route_end_limits`: at most n of a company's runs may start or end in a group of hexes
  (Mexico: two).
* `route_attachments`: things the company gives to one train of its choice for this run: a
  Pullman (+$20 per counted stop), a switcher (one stop passed without counting or earning, which
  may be a city full of other stations), an extender (+1 distance), a route bonus for stopping at
  given hexes (P17). The optimizer also chooses which train gets each; a train takes at most one
  of those marked `exclusive` (18USA: the switcher, the extender and the Pullman).

Train names such as 2+ or obsolete trains need no hook: the title gives each train its distance.
Red areas that must end a run, metropolises and the rest of a tile's values come from tiles.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from engine.core.graph import Node
from engine.errors import GameError
from engine.router.attachments import (
    Attachment,
    EndLimit,
    StopRole,
    assign_attachments,
    attachment_credit,
    best_attachment_credit,
    occupied_trains,
)

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame
    from engine.core.routes import Run

PathKey = tuple[str, int]

# The optimizer's words for what a title adds to runs (engine.router.attachments) are the hooks'
# words: titles and the run check take them from here.
__all__ = ["HOOK_NAMES", "PER_RUN_HOOKS", "Attachment", "EndLimit", "PathKey", "RouteHooksMixin", "StopRole",
           "assign_attachments", "attachment_credit", "best_attachment_credit", "end_limit_problem",
           "finish_company_runs", "occupied_trains", "overridden_hooks", "run_adjustment", "stop_role_problem"]


class RouteHooksMixin:
    """Methods of BaseGame that titles override to change what runs are worth or allowed."""

    def route_stop_revenue(self, corporation: Corporation, train: Train, stop: Node, revenue: int) -> int:
        """What `stop` earns on `train`'s run, given its printed value `revenue` in this phase."""
        return revenue

    def route_track_bonuses(self, corporation: Corporation, train: Train) -> dict[str, int]:
        """Hex -> bonus a run of `train` earns, once, for using any track path in that hex."""
        return {}

    def route_stop_roles(self, corporation: Corporation) -> Mapping[Node, StopRole]:
        """Stops with a special part in runs; stops not listed are ordinary."""
        return {}

    def route_end_limits(self, corporation: Corporation) -> tuple[EndLimit, ...]:
        """Groups of hexes in which at most so many of the company's runs may start or end."""
        return ()

    def route_attachments(self, corporation: Corporation) -> tuple[Attachment, ...]:
        """What the company may attach to its trains for this run."""
        return ()


HOOK_NAMES = ("route_stop_revenue", "route_track_bonuses", "route_stop_roles", "route_end_limits",
              "route_attachments")
PER_RUN_HOOKS = frozenset({"route_stop_revenue", "route_track_bonuses"})


def overridden_hooks(game: object) -> frozenset[str]:
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
    if not hooks & PER_RUN_HOOKS:
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
    return extra


def end_limit_problem(limits: Sequence[EndLimit], ends: Sequence[tuple[str, str]]) -> str | None:
    """Why runs with these (first hex, last hex) ends break an end limit, or None."""
    for hexes, most in limits:
        count = sum(1 for first, last in ends if first in hexes or last in hexes)
        if count > most:
            return f"at most {most} runs may end in {', '.join(sorted(hexes))}; {count} do"
    return None


def stop_role_problem(roles: Mapping[Node, StopRole], stops: Sequence[Node]) -> str | None:
    """Why one run breaks the stop roles, or None."""
    for end in (stops[0], stops[-1]):
        role = roles.get(end)
        if role is not None and role.never_end:
            return f"a run may not start or end at {end[0]}"
    seen: dict[str, str] = {}
    for coord, kind, index in stops:
        role = roles.get((coord, kind, index))
        if role is None or role.area is None:
            continue
        if role.area in seen:
            return f"a run may visit {role.area} only once ({seen[role.area]} and {coord})"
        seen[role.area] = coord
    return None


def finish_company_runs(game: BaseGame, corporation: Corporation, runs: list[Run]) -> list[Run]:
    """Check the rules that span all of a company's runs and credit its attachments."""
    hooks = overridden_hooks(game)
    if "route_stop_roles" in hooks:
        roles = game.route_stop_roles(corporation)
        for run in runs:
            problem = stop_role_problem(roles, run.stops)
            if problem:
                raise GameError(problem)
    if "route_end_limits" in hooks:
        ends = [(run.stops[0][0], run.stops[-1][0]) for run in runs]
        problem = end_limit_problem(game.route_end_limits(corporation), ends)
        if problem:
            raise GameError(problem)
    if "route_attachments" not in hooks:
        return runs
    board = game.board
    described = [(run.train, run.stops,
                  [board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in run.stops]) for run in runs]
    credit = best_attachment_credit(game.route_attachments(corporation), described)
    return [replace(run, revenue=run.revenue + credit.get(run.train, 0)) for run in runs]

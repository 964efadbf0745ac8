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

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import TYPE_CHECKING

from engine.core.graph import Node
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame
    from engine.core.routes import Run

PathKey = tuple[str, int]
EndLimit = tuple[frozenset[str], int]  # (hexes, most runs that may start or end in them)


@dataclass(frozen=True)
class StopRole:
    """What a title says about one stop beyond its tile."""

    never_end: bool = False  # may not be a run's first or last stop (rural junction)
    area: str | None = None  # stops with the same area are one location (a red area of hexes)


@dataclass(frozen=True)
class Attachment:
    """Something the company attaches to one of its trains for one run.

    `trains`: ids of the trains it may go on (None: any). `stop_bonus`: added for every stop the
    train counts (stops that take no distance earn none). `distance_bonus`: stops added to the
    train's distance. `skips`: stops the train may pass without counting or earning them; a
    skipped city may be full of other companies' stations. `distance_per_skip`: distance added
    for each skip used (18USA's switcher: +1 distance, but only with one stop left out).
    `run_bonuses`: (hexes, amount) pairs: the train earns the largest amount whose hexes its run
    all stops in. `no_stop_bonus`: stops that earn no `stop_bonus` although they take distance
    (18USA: a Pullman adds nothing at a rural junction). `exclusive`: a train carries at most one
    exclusive attachment (18USA's upgrades: a train already carrying one is not offered another).
    `attached`: already put on its one train for this run (chosen before running): it rides there
    whatever the run, and takes that train's exclusive place.
    """

    id: str
    trains: frozenset[str] | None = None
    stop_bonus: int = 0
    distance_bonus: int = 0
    skips: int = 0
    run_bonuses: tuple[tuple[frozenset[str], int], ...] = ()
    distance_per_skip: int = 0
    no_stop_bonus: frozenset[Node] = frozenset()
    exclusive: bool = False
    attached: bool = False

    @property
    def changes_distance(self) -> bool:
        return bool(self.distance_bonus or self.skips)

    def earns_stop_bonus(self, stop: Node, cost: int) -> bool:
        return cost > 0 and stop not in self.no_stop_bonus


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


def attachment_credit(attachment: Attachment, stops: Sequence[Node],
                      costs: Sequence[int]) -> int:
    """What `attachment` adds to a run through `stops` (each taking `costs` distance)."""
    credit = attachment.stop_bonus * sum(1 for stop, cost in zip(stops, costs, strict=True)
                                         if attachment.earns_stop_bonus(stop, cost))
    hexes = {coord for coord, _, _ in stops}
    credit += max((amount for needed, amount in attachment.run_bonuses if needed <= hexes), default=0)
    return credit


def assign_attachments(attachments: Sequence[Attachment],
                       runs: Sequence[tuple[str, Sequence[Node], Sequence[int]]],
                       occupied: Collection[str] = ()) -> dict[str, str]:
    """The best way to hand the value-only attachments to these runs: attachment id -> train id.

    `runs` are (train id, stops, their distance costs); `occupied` are trains that already carry
    an exclusive attachment (one that changes distance, placed with the run). Each attachment
    goes to at most one eligible train, and no train gets a second exclusive one; the company
    takes the assignment that earns the most (the first such in a fixed order, so the engine and
    the optimizer agree on ties).
    """
    usable = [a for a in attachments if not a.changes_distance]
    if not usable or not runs:
        return {}
    best: dict[str, str] = {}
    best_total = 0
    choices = [[None] + [i for i, (train, _, _) in enumerate(runs)
                         if (a.trains is None or train in a.trains) and not (a.exclusive and train in occupied)]
               for a in usable]
    for pick in product(*choices):
        exclusive_holders = [holder for attachment, holder in zip(usable, pick, strict=True)
                             if attachment.exclusive and holder is not None]
        if len(exclusive_holders) != len(set(exclusive_holders)):
            continue
        total = 0
        holders: dict[str, str] = {}
        for attachment, holder in zip(usable, pick, strict=True):
            if holder is None:
                continue
            train, stops, costs = runs[holder]
            gain = attachment_credit(attachment, stops, costs)
            if gain:
                total += gain
                holders[attachment.id] = train
        if total > best_total:
            best_total, best = total, holders
    return best


def best_attachment_credit(attachments: Sequence[Attachment],
                           runs: Sequence[tuple[str, Sequence[Node], Sequence[int]]],
                           occupied: Collection[str] = ()) -> dict[str, int]:
    """Train id -> what the value-only attachments add to its run, handed out as
    `assign_attachments` does."""
    holders = assign_attachments(attachments, runs, occupied)
    described = {train: (stops, costs) for train, stops, costs in runs}
    credit: dict[str, int] = {}
    for attachment in attachments:
        train = holders.get(attachment.id)
        if train is not None:
            credit[train] = credit.get(train, 0) + attachment_credit(attachment, *described[train])
    return credit


def occupied_trains(attachments: Sequence[Attachment], carried: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """The trains that carry an exclusive attachment: those among `carried` (train id ->
    attachment ids it carries), and those an `attached` one that changes distance is on."""
    exclusive = {attachment.id for attachment in attachments if attachment.exclusive}
    taken = {train for train, names in carried.items() if exclusive.intersection(names)}
    # One that changes distance, already put on its train for the run, holds that train's place,
    # used or not (a value-only one is handed out with the others, to its own train).
    taken.update(train for attachment in attachments
                 if attachment.exclusive and attachment.attached and attachment.changes_distance
                 for train in attachment.trains or ())
    return frozenset(taken)


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

"""What the route optimizer needs to know, and nothing more: the problem it is given.

A `RouteProblem` is a network (the board's hexes, track and stations), a company, the phase's
colours, the company's trains and the title's route rules (`RouteRules`: the route hooks bound to
one company, its scoring). The rules build one from a game (engine.core.most_earnings);
benchmarks and tests build them directly. The optimizer never looks at a game's rounds, steps or
players, and imports nothing of the rules, so changes there do not reach it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.router.attachments import Attachment, EndLimit, StopRole
from engine.router.network import Network, Node


class Train(Protocol):
    """A train to run: the rules' own train object, passed back to their hooks as it came."""

    @property
    def id(self) -> str: ...
    @property
    def distance(self) -> int: ...  # stops it may count


class RouteRules(Protocol):
    """The title's route hooks for one company (engine.core.route_hooks states them for a game)."""

    hooks: frozenset[str]  # names of the hooks that differ from the core rules

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int: ...
    def track_bonuses(self, train: Train) -> dict[str, int]: ...
    def stop_roles(self) -> Mapping[Node, StopRole]: ...
    def end_limits(self) -> tuple[EndLimit, ...]: ...
    def attachments(self) -> tuple[Attachment, ...]: ...


class CoreRules:
    """No title hooks: the rules of the core alone."""

    hooks: frozenset[str] = frozenset()

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int:
        return printed

    def track_bonuses(self, train: Train) -> dict[str, int]:
        return {}

    def stop_roles(self) -> Mapping[Node, StopRole]:
        return {}

    def end_limits(self) -> tuple[EndLimit, ...]:
        return ()

    def attachments(self) -> tuple[Attachment, ...]:
        return ()


@dataclass(frozen=True)
class RouteProblem:
    """One company's trains to run on one board."""

    board: Network
    corporation: str
    colors: tuple[str, ...]  # track colours of the phase: red areas' values follow them
    trains: tuple[Train, ...]
    rules: RouteRules


@dataclass(frozen=True)
class StopLimits:
    """Which stops a run may not start or end at, and which stops count as one location.

    Both come from two places: the tiles (a rural junction's `may_not_end_here`, an off-board's
    `groups` such as Mexico's six hexes) and the title's `route_stop_roles` hook.
    """

    never_end: frozenset[Node] = frozenset()
    areas: tuple[frozenset[Node], ...] = ()

    def breaks(self, stops: Sequence[Node]) -> bool:
        """These stops, in run order, end at a stop that may not end a run or visit an area twice."""
        if stops[0] in self.never_end or stops[-1] in self.never_end:
            return True
        return any(len(area.intersection(stops)) > 1 for area in self.areas)

    def __bool__(self) -> bool:
        return bool(self.never_end or self.areas)


def stop_limits(problem: RouteProblem, nodes: Iterable[Node]) -> StopLimits:
    """The stop limits that concern `nodes` (the stops a search may use)."""
    rules = problem.rules
    roles = rules.stop_roles() if "route_stop_roles" in rules.hooks else {}
    hexes = problem.board.hexes
    never_end: set[Node] = set()
    areas: dict[str, set[Node]] = {}
    for node in nodes:
        stop = hexes[node[0]].tile.stop(node[1], node[2])
        role = roles.get(node)
        if stop.may_not_end_here or (role is not None and role.never_end):
            never_end.add(node)
        names = set(stop.groups)
        if role is not None and role.area is not None:
            names.add(role.area)
        for name in names:
            areas.setdefault(name, set()).add(node)
    return StopLimits(frozenset(never_end),
                      tuple(frozenset(members) for _, members in sorted(areas.items()) if len(members) > 1))

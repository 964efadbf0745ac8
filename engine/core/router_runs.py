"""Every legal run of one train length through a company's graph, each exactly once.

A run must include a city with the company's station, so runs are grown from those cities
("anchors"). A run through anchor T is two half-runs leaving T by different links, glued at T; it
is produced once by requiring the left half to leave T by the lower-numbered link. A run that meets
several anchors is produced only from the first of them: later anchors treat earlier ones as
already visited. The pruning is the rules themselves: a stop already visited, a path already used
or a train too short ends a branch, and a run goes on only through stops that may be passed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.core.router_graph import Link, RouteGraph

POLL_EVERY = 512  # extensions between looks at the clock


class Candidate(NamedTuple):
    """A run found by the search; `value` is its printed revenue, before any title hook."""

    value: int
    mask: int
    cost: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]


class _Half(NamedTuple):
    first: int  # position of the link it leaves the anchor by
    visited: int
    mask: int
    cost: int
    value: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]


Emit = Callable[[int, int, int, int, list[int], list[Link]], None]


class _Grower:
    """Depth-first extension of a run from one end, one link at a time."""

    def __init__(self, graph: RouteGraph, distance: int, should_stop: Callable[[], bool] | None) -> None:
        self.links = graph.links
        self.costs = graph.costs
        self.values = graph.values
        self.passable = graph.passable
        self.distance = distance
        self.should_stop = should_stop
        self.ticks = 0
        self.halted = False

    def stopped(self) -> bool:
        if not self.halted and self.should_stop is not None:
            self.ticks += 1
            if self.ticks % POLL_EVERY == 0 and self.should_stop():
                self.halted = True
        return self.halted

    def grow(self, at: int, visited: int, mask: int, cost: int, value: int, stops: list[int],
             lks: list[Link], start: int, emit: Emit) -> None:
        choices = self.links[at]
        for position in range(start, len(choices)):
            link = choices[position]
            end = link.end
            bit = 1 << end
            if visited & bit or mask & link.mask:
                continue
            new_cost = cost + self.costs[end]
            if new_cost > self.distance:
                continue
            new_value = value + self.values[end]
            new_visited = visited | bit
            new_mask = mask | link.mask
            stops.append(end)
            lks.append(link)
            emit(new_visited, new_mask, new_cost, new_value, stops, lks)
            if self.passable[end] and not self.stopped():
                self.grow(end, new_visited, new_mask, new_cost, new_value, stops, lks, 0, emit)
            stops.pop()
            lks.pop()


def enumerate_runs(graph: RouteGraph, distance: int, should_stop: Callable[[], bool] | None = None,
                   cap: int | None = None) -> tuple[list[Candidate], bool]:
    """All runs costing at most `distance`, and whether the list is complete.

    `should_stop` is polled now and then; once it says so, or once the list holds more than `cap`
    runs, the search ends early with what it has and reports the list as incomplete.
    """
    out: list[Candidate] = []
    halves: list[_Half] = []  # of the anchor being searched; they count against the cap too
    if cap is not None:
        user_stop = should_stop

        def should_stop() -> bool:
            return len(out) + len(halves) > cap or (user_stop is not None and user_stop())

    grower = _Grower(graph, distance, should_stop)
    banned = 0
    for anchor in graph.tokened:
        if graph.costs[anchor] <= distance:
            _runs_through(grower, graph, anchor, banned, out, halves)
            halves.clear()
        banned |= 1 << anchor
        if grower.halted:
            break
    return out, not grower.halted


def _runs_through(grower: _Grower, graph: RouteGraph, anchor: int, banned: int,
                  out: list[Candidate], halves: list[_Half]) -> None:
    """Runs that include `anchor` and none of the `banned` stops, appended to `out`; `halves`
    holds the half-runs from the anchor meanwhile."""
    first_link = {link: position for position, link in enumerate(graph.links[anchor])}

    def keep_half(visited: int, mask: int, cost: int, value: int, stops: list[int], lks: list[Link]) -> None:
        halves.append(_Half(first_link[lks[0]], visited, mask, cost, value, tuple(stops), tuple(lks)))

    grower.grow(anchor, banned | (1 << anchor), 0, graph.costs[anchor], graph.values[anchor],
                [], [], 0, keep_half)
    # The anchor at one end of the run.
    for half in halves:
        out.append(Candidate(half.value, half.mask, half.cost, (anchor, *half.stops), half.links))
    if grower.halted:
        return
    # The anchor inside the run: a left half, then a right half leaving by a later link.
    for half in halves:
        head_stops = (*reversed(half.stops), anchor)
        head_links = tuple(reversed(half.links))

        def keep_run(visited: int, mask: int, cost: int, value: int, stops: list[int], lks: list[Link],
                     head_stops: tuple[int, ...] = head_stops, head_links: tuple[Link, ...] = head_links) -> None:
            out.append(Candidate(value, mask, cost, head_stops + tuple(stops), head_links + tuple(lks)))

        grower.grow(anchor, half.visited, half.mask, half.cost, half.value, [], [], half.first + 1, keep_run)
        if grower.halted:
            return

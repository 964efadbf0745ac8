"""Every legal run of one train length through a company's graph, each exactly once.

A run must include a city with the company's station, so runs are grown from those cities
("anchors"). A run through anchor T is two half-runs leaving T by different links, glued at T; it
is produced once by requiring the left half to leave T by the lower-numbered link. A run that meets
several anchors is produced only from the first of them: later anchors treat earlier ones as
already visited. The pruning is the rules themselves: a stop already visited, a path already used
or a train too short ends a branch, and a run goes on only through stops that may be passed (and
through at most `blocked_passes` cities full of others' stations, in a graph built to pass them).
For a train that may leave one stop out of its count (`waive_one`), the distance counts every stop
but the one that takes the most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.router.graph import Link, RouteGraph

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
    passed: int  # blocked cities it goes on through
    top: int  # the most distance one of its stops takes
    visited: int
    mask: int
    cost: int
    value: int
    stops: tuple[int, ...]
    links: tuple[Link, ...]


Emit = Callable[[int, int, int, int, int, int, list[int], list[Link]], None]


class _Grower:
    """Depth-first extension of a run from one end, one link at a time."""

    def __init__(self, graph: RouteGraph, distance: int, should_stop: Callable[[], bool] | None,
                 blocked_passes: int = 0, waive_one: bool = False) -> None:
        self.links = graph.links
        self.costs = graph.costs
        self.values = graph.values
        self.passable = graph.passable
        self.blocked = graph.blocked or (False,) * len(graph.stops)
        self.blocked_passes = blocked_passes
        self.waive_one = waive_one
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

    def grow(self, at: int, passed: int, top: int, visited: int, mask: int, cost: int, value: int,
             stops: list[int], lks: list[Link], start: int, emit: Emit) -> None:
        choices = self.links[at]
        for position in range(start, len(choices)):
            link = choices[position]
            end = link.end
            bit = 1 << end
            if visited & bit or mask & link.mask:
                continue
            taken = self.costs[end]
            new_cost = cost + taken
            new_top = top if top >= taken else taken
            if new_cost - (new_top if self.waive_one else 0) > self.distance:
                continue
            new_value = value + self.values[end]
            new_visited = visited | bit
            new_mask = mask | link.mask
            stops.append(end)
            lks.append(link)
            emit(passed, new_top, new_visited, new_mask, new_cost, new_value, stops, lks)
            through = passed + self.blocked[end]
            if self.passable[end] and through <= self.blocked_passes and not self.stopped():
                self.grow(end, through, new_top, new_visited, new_mask, new_cost, new_value, stops, lks, 0, emit)
            stops.pop()
            lks.pop()


def enumerate_runs(graph: RouteGraph, distance: int, should_stop: Callable[[], bool] | None = None,
                   cap: int | None = None, blocked_passes: int = 0,
                   waive_one: bool = False) -> tuple[list[Candidate], bool]:
    """All runs costing at most `distance`, and whether the list is complete; a run goes on
    through at most `blocked_passes` blocked cities (`RouteGraph.blocked`); with `waive_one`, a
    run's costliest stop is not counted against `distance`.

    `should_stop` is polled now and then; once it says so, or once the list holds more than `cap`
    runs, the search ends early with what it has and reports the list as incomplete.
    """
    out: list[Candidate] = []
    halves: list[_Half] = []  # of the anchor being searched; they count against the cap too
    if cap is not None:
        user_stop = should_stop

        def should_stop() -> bool:
            return len(out) + len(halves) > cap or (user_stop is not None and user_stop())

    grower = _Grower(graph, distance, should_stop, blocked_passes, waive_one)
    banned = 0
    for anchor in graph.tokened:
        if graph.costs[anchor] <= distance or waive_one:
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

    def keep_half(passed: int, top: int, visited: int, mask: int, cost: int, value: int, stops: list[int],
                  lks: list[Link]) -> None:
        halves.append(_Half(first_link[lks[0]], passed, top, visited, mask, cost, value, tuple(stops),
                            tuple(lks)))

    grower.grow(anchor, 0, graph.costs[anchor], banned | (1 << anchor), 0, graph.costs[anchor],
                graph.values[anchor], [], [], 0, keep_half)
    # The anchor at one end of the run.
    for half in halves:
        out.append(Candidate(half.value, half.mask, half.cost, (anchor, *half.stops), half.links))
    if grower.halted:
        return
    # The anchor inside the run: a left half, then a right half leaving by a later link.
    for half in halves:
        head_stops = (*reversed(half.stops), anchor)
        head_links = tuple(reversed(half.links))

        def keep_run(passed: int, top: int, visited: int, mask: int, cost: int, value: int, stops: list[int],
                     lks: list[Link], head_stops: tuple[int, ...] = head_stops,
                     head_links: tuple[Link, ...] = head_links) -> None:
            out.append(Candidate(value, mask, cost, head_stops + tuple(stops), head_links + tuple(lks)))

        grower.grow(anchor, half.passed, half.top, half.visited, half.mask, half.cost, half.value, [], [],
                    half.first + 1, keep_run)
        if grower.halted:
            return

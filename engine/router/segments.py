"""The company's track as chains, and the *segments* between stops that a run is made of.

A segment is a walk on the track graph (router_track) from one stop to another that passes no
other stop (a run counts every stop it passes): chains of track and branching hex sides, through
junctions (a junction more than three chains reach may be passed again by other chains, as the
track graph's split copies allow). Each segment uses a set of *resources* that one company's runs
may use once in all: a chain of track (a twin group, or a split chain through its middle vertex),
a branching side. Between two stops only the segments no other one beats are kept (one using a
subset of its resources and touching every bonus hex it touches), so any run is one of these
segments after another, or uses no less than such a sequence and earns no more.

router_stopcircuit models runs over these segments. Listing them checks the clock (OutOfTime)
and gives up past MAX_WALKS steps: on maps of many junctions they explode (docs/router-proofs.md).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.router.track import OutOfTime, TrackGraph

# Walks explored at most while listing segments; past it the map is too dense for this model (the
# 18USA logs' late positions take 200-1,700; the dense bench maps pass 2 million from two stops).
# It bounds the memory too: the walks kept, each a tuple of chains and one of vertices.
MAX_WALKS = 20_000
POLL_EVERY = 256


@dataclass(frozen=True)
class Chain:
    """One chain of track as a segment sees it: its ends (junction copies merged, a split chain's
    middle vertex left out), the hexes it runs through and what it uses."""

    a: int
    b: int
    hexes: tuple[str, ...]
    resource: int
    track: tuple[int, ...]  # its track-graph edges: a twin group, or a split chain's halves
    middle: int | None = None  # a split chain's middle vertex


@dataclass(frozen=True)
class Segment:
    """A walk from stop `a` to stop `b` over `chains` (in travel order, with the vertices passed)."""

    a: int
    b: int
    chains: tuple[int, ...]
    vertices: tuple[int, ...]  # a, the junctions and sides passed, b (junction copies merged)
    resources: int  # bit set of resources
    hexes: frozenset[str]


class Layout:
    """The company's track as chains between stops, junctions and sides, for listing segments."""

    def __init__(self, graph: TrackGraph) -> None:
        self.graph = graph
        self.base = list(range(len(graph.vertices)))
        for first, copies in graph.copies.items():
            for copy in copies:
                self.base[copy] = first
        self.chains: list[Chain] = []
        self.chain_of: dict[int, int] = {}  # track-graph edge -> its chain
        self.incident: dict[int, list[int]] = {}
        self.side_hex: dict[tuple[int, int], str] = {}
        resources = 0
        seen: set[int] = set()
        for e, edge in enumerate(graph.edges):
            if e in seen:
                continue
            mid = next((v for v in (edge.a, edge.b) if graph.kind[v] == "mid"), None)
            if mid is None:
                group = graph.twins.get(e, [e])
                seen.update(group)
                ends = (self.base[edge.a], self.base[edge.b])
                self._add(Chain(ends[0], ends[1], edge.hexes, resources, tuple(group)))
                for end, vertex in zip(ends, (edge.a, edge.b), strict=True):
                    side = graph.side_hex.get((e, vertex))
                    if side is not None:
                        self.side_hex[(len(self.chains) - 1, end)] = side
            else:
                halves = graph.incident[mid]
                seen.update(halves)
                near = [f for f in halves if graph.side_hex[(f, mid)] != "#far"]
                far = [f for f in halves if graph.side_hex[(f, mid)] == "#far"]
                near_end = next(v for v in (graph.edges[near[0]].a, graph.edges[near[0]].b) if v != mid)
                far_end = next(v for v in (graph.edges[far[0]].a, graph.edges[far[0]].b) if v != mid)
                hexes = graph.edges[near[0]].hexes
                self._add(Chain(self.base[near_end], self.base[far_end], hexes, resources, tuple(halves), mid))
            resources += 1
        # Branching sides are resources too, numbered after the chains.
        self.sides = {v: resources + n for n, v in enumerate(v for v in sorted(graph.side_of)
                                                           if graph.kind[v] == "side")}

    def _add(self, chain: Chain) -> None:
        index = len(self.chains)
        self.chains.append(chain)
        self.chain_of.update(dict.fromkeys(chain.track, index))
        self.incident.setdefault(chain.a, []).append(index)
        self.incident.setdefault(chain.b, []).append(index)

    def segments(self, ends: frozenset[int], bonus_hexes: frozenset[str], deadline: float | None = None,
                 limit: int = MAX_WALKS) -> list[Segment] | None:
        """The segments between stops in `ends` (each pair once, a < b), the dominated ones left
        out; None when listing them takes more than `limit` steps. Raises OutOfTime past `deadline`."""
        graph, chains = self.graph, self.chains
        stops = graph.stop_of
        found: dict[tuple[int, int], list[Segment]] = {}
        steps = 0
        for start in sorted(ends):
            # Depth-first over trails: (vertex, chains so far, vertices so far, resources used).
            stack: list[tuple[int, tuple[int, ...], tuple[int, ...], int]] = [(start, (), (start,), 0)]
            while stack:
                steps += 1
                if steps > limit:
                    return None
                if deadline is not None and steps % POLL_EVERY == 1 and time.perf_counter() > deadline:
                    raise OutOfTime
                at, used, passed, taken = stack.pop()
                came = used[-1] if used else None
                side = self.sides.get(at)
                for c in self.incident.get(at, ()):
                    chain = chains[c]
                    bit = 1 << chain.resource
                    if taken & bit:
                        continue
                    if side is not None and came is not None:
                        own = graph.side_of[at]
                        if (self.side_hex[(came, at)] == own) == (self.side_hex[(c, at)] == own):
                            continue  # a side is crossed from one hex into the other
                    nxt = chain.b if chain.a == at else chain.a
                    if nxt == at:
                        continue
                    now = taken | bit
                    if nxt in stops:
                        if nxt in ends and nxt > start:
                            hexes = frozenset(h for k in (*used, c) for h in chains[k].hexes)
                            found.setdefault((start, nxt), []).append(
                                Segment(start, nxt, (*used, c), (*passed, nxt), now, hexes))
                        continue
                    here = self.sides.get(nxt)
                    if here is not None:
                        if now & (1 << here):
                            continue
                        now |= 1 << here
                    stack.append((nxt, (*used, c), (*passed, nxt), now))
        out: list[Segment] = []
        for pair in sorted(found):
            out.extend(_undominated(found[pair], bonus_hexes))
        return out


    def walk(self, chains: Sequence[int], passed: Sequence[int]) -> tuple[list[int], list[int]]:
        """The walk on the track graph along `chains` through base vertices `passed`: the n-th
        pass of a split junction goes through its n-th copy."""
        graph = self.graph
        passes: dict[int, int] = {}
        current = passed[0]
        vertices, edges = [current], []
        for c, there in zip(chains, passed[1:], strict=True):
            chain = self.chains[c]
            copies = graph.copies.get(there)
            if copies is None:
                target = there
            else:
                target = copies[passes.get(there, 0)]
                passes[there] = passes.get(there, 0) + 1
            if chain.middle is None:
                e = next(e for e in chain.track if {graph.edges[e].a, graph.edges[e].b} == {current, target})
                vertices.append(target)
                edges.append(e)
            else:
                mid = chain.middle
                first = next(e for e in chain.track if {graph.edges[e].a, graph.edges[e].b} == {current, mid})
                second = next(e for e in chain.track if {graph.edges[e].a, graph.edges[e].b} == {mid, target})
                vertices.extend((mid, target))
                edges.extend((first, second))
            current = target
        return vertices, edges

    def pieces(self, vertices: Sequence[int], edges: Sequence[int]) -> list[tuple[int, int, int, frozenset[str]]]:
        """A walk on the track graph cut at its stops: (from stop, to stop, resources, hexes)."""
        graph = self.graph
        out: list[tuple[int, int, int, frozenset[str]]] = []
        begin, used, hexes = vertices[0], 0, set[str]()
        for e, v in zip(edges, vertices[1:], strict=True):
            chain = self.chains[self.chain_of[e]]
            used |= 1 << chain.resource
            hexes.update(chain.hexes)
            if v in self.sides:
                used |= 1 << self.sides[v]
            if v in graph.stop_of:
                out.append((begin, v, used, frozenset(hexes)))
                begin, used, hexes = v, 0, set[str]()
        return out


def _undominated(segments: Sequence[Segment], bonus_hexes: frozenset[str]) -> list[Segment]:
    """The segments no other one beats: fewer (or the same) resources and every bonus hex."""
    ordered = sorted(segments, key=lambda s: (s.resources.bit_count(), len(s.chains)))
    kept: list[tuple[int, frozenset[str], Segment]] = []
    for segment in ordered:
        bonus = segment.hexes & bonus_hexes
        if any(r & segment.resources == r and b >= bonus for r, b, _ in kept):
            continue
        kept.append((segment.resources, bonus, segment))
    return [segment for _, _, segment in kept]



"""The route optimizer's view of the track: a company's stops and the plain-track links between them.

A *link* is one way to get from a stop to the next stop along track that passes no other stop (plain
track, edges, junctions). A run is then a chain of stops joined by links that share no track, so
the search works stop by stop instead of path by path.

Track is a set of resources a company's runs may each use once: every path, and every hex side a
path ends at (rule 12.1: not even the short piece where two tracks of a tile meet at one side may
be used twice; the reference site checks sides the same way). Each resource gets one bit; a link
carries the bit mask of what it uses, which makes "no track used twice" a single `&`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.router.clock import Deadline, passed
from engine.router.network import Network, Node, PathKey, opposite

# A walk from a stop: the stop it reaches, its paths, its hexes (chain) and the hex sides it uses.
Walk = tuple[Node, list[PathKey], list[str], list[tuple[str, int]]]


class TooManyLinks(Exception):
    """The plain track between stops has more walks than the caller allows, or time ran out."""


@dataclass(frozen=True, eq=False)
class Link:
    """Track from stop `start` to stop `end` (indices into RouteGraph.stops) passing no other stop.

    Compared and hashed by identity: each link is built once per graph, and the search keys
    dictionaries on links often.
    """

    start: int
    end: int
    mask: int
    walk: tuple[PathKey, ...]  # paths in travel order from `start`
    chain: tuple[str, ...]  # hexes in travel order, 18xx.games "connections" shape


@dataclass(frozen=True)
class RouteGraph:
    """Everything about a company's network that does not depend on its trains."""

    corporation: str
    stops: tuple[Node, ...]
    values: tuple[int, ...]  # printed revenue in the current phase
    costs: tuple[int, ...]  # distance each stop takes from a train
    passable: tuple[bool, ...]  # a run may go on through it (not an off-board, not a blocked city)
    tokened: tuple[int, ...]  # stops that are cities with the company's station
    links: tuple[tuple[Link, ...], ...]  # links leaving each stop; empty for impassable stops
    path_keys: tuple[PathKey | None, ...]  # bit i of a mask is this path (None: a hex side)
    # Cities full of other companies' stations, where a graph built `through_blocked` lets runs
    # go on (passable) for a train that leaves them out of its count (18USA's switcher).
    blocked: tuple[bool, ...] = ()

    def paths_of(self, mask: int) -> list[PathKey]:
        keys = []
        while mask:
            low = mask & -mask
            key = self.path_keys[low.bit_length() - 1]
            if key is not None:
                keys.append(key)
            mask ^= low
        return keys


def board_signature(board: Network) -> tuple[object, ...]:
    """What the graph depends on: every laid tile, its rotation, and every token.

    Cheap to compute (one pass over the hexes), so a cache keyed on it is invalidated by any tile
    or token change without the engine having to notify anyone.
    """
    return tuple(
        (coord, state.tile_id, state.rotation, tuple(tuple(slots) for slots in state.tokens))
        for coord, state in board.hexes.items()
        if state.tile_laid or state.tokens
    )


def build_graph(board: Network, corporation: str, colors: tuple[str, ...], *,
                link_cap: int | None = None, deadline: Deadline | None = None,
                through_blocked: bool = False) -> RouteGraph:
    """The company's graph of stops and links; TooManyLinks past `link_cap` walks or `deadline`.

    On a late map full of junction tiles the walks between two stops are astronomically many, so
    callers that can do without this graph give a cap.
    """
    budget = _Budget(link_cap, deadline)
    # Stops are found by walking from the company's stations; walks go on only from stops a run
    # may pass through, so a stop reached only through a stop that ends runs is never listed.
    order: list[Node] = sorted((coord, "city", city) for coord, city in board.token_hexes(corporation))
    index: dict[Node, int] = {node: i for i, node in enumerate(order)}
    bits: dict[tuple[str, str, int], int] = {}  # ("path", hex, index) or ("side", hex, edge)
    raw_links: dict[int, list[Walk]] = {}
    passable: list[bool] = []
    tile_paths = _LazyPaths(board)
    i = 0
    while i < len(order):
        node = order[i]
        ok = _passable(board, corporation, node, through_blocked)
        passable.append(ok)
        # Runs are grown only out of stops they may go on through, so only those need links.
        if ok:
            walks = raw_links[i] = _walks_from(board, tile_paths, node, budget)
            for end, _, _, _ in walks:
                if end not in index:
                    index[end] = len(order)
                    order.append(end)
        i += 1
    links: list[tuple[Link, ...]] = []
    for i in range(len(order)):
        seen: set[tuple[int, int]] = set()
        mine: list[Link] = []
        for end, walk, chain, sides in raw_links.get(i, []):
            mask = 0
            for coord, path_index in walk:
                mask |= 1 << bits.setdefault(("path", coord, path_index), len(bits))
            for coord, edge in sides:
                mask |= 1 << bits.setdefault(("side", coord, edge), len(bits))
            j = index[end]
            # Walks round a loop of plain track in either sense use the same paths: keep one.
            if (j, mask) in seen:
                continue
            seen.add((j, mask))
            mine.append(Link(i, j, mask, tuple(walk), tuple(chain)))
        links.append(tuple(mine))
    values, costs = [], []
    for coord, kind, stop_index in order:
        stop = board.hexes[coord].tile.stop(kind, stop_index)
        values.append(stop.revenue_in(colors))
        costs.append(stop.distance_cost)
    tokened = tuple(i for i, (coord, kind, stop_index) in enumerate(order)
                    if kind == "city" and corporation in board.hexes[coord].tokens[stop_index])
    keys: list[PathKey | None] = [(coord, index) if kind == "path" else None
                                  for (kind, coord, index), _ in sorted(bits.items(), key=lambda item: item[1])]
    blocked = tuple(kind == "city" and board.city_is_blocked_for(coord, stop_index, corporation)
                    for coord, kind, stop_index in order) if through_blocked else ()
    return RouteGraph(corporation, tuple(order), tuple(values), tuple(costs), tuple(passable),
                      tokened, tuple(links), tuple(keys), blocked)


class _LazyPaths(dict[str, list[tuple[tuple[str, int], tuple[str, int]]]]):
    """A hex's track paths as laid, worked out the first time a walk enters the hex."""

    def __init__(self, board: Network) -> None:
        super().__init__()
        self.board = board

    def __missing__(self, coord: str) -> list[tuple[tuple[str, int], tuple[str, int]]]:
        paths = self[coord] = self.board.hexes[coord].paths()
        return paths


def _passable(board: Network, corporation: str, node: Node, through_blocked: bool = False) -> bool:
    coord, kind, index = node
    stop = board.hexes[coord].tile.stop(kind, index)
    if stop.must_end_here:
        return False
    if kind == "city" and not through_blocked and board.city_is_blocked_for(coord, index, corporation):
        return False
    return True


class _Budget:
    """Counts walks and steps against a cap and a deadline."""

    def __init__(self, cap: int | None, deadline: Deadline | None) -> None:
        self.left = cap
        self.deadline = deadline
        self.steps = 0

    def walk_found(self) -> None:
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise TooManyLinks

    def step(self) -> None:
        self.steps += 1
        if self.deadline is not None and self.steps % 1024 == 0 and passed(self.deadline):
            raise TooManyLinks


def _walks_from(board: Network, tile_paths: _LazyPaths,
                start: Node, budget: _Budget) -> list[Walk]:
    """Every walk from `start` along plain track to the first stop it meets, using no path and no
    hex side twice.

    A walk crosses a junction at most once (one path in, one out), as the rules say; the engine's
    rebuild_run is laxer there, so these walks are always ones it accepts.
    """
    found: list[Walk] = []
    hexes = board.hexes
    junctions: set[str] = set()
    sides: list[tuple[str, int]] = []

    def step(coord: str, endpoint: tuple[str, int], walk: list[PathKey], chain: list[str]) -> None:
        budget.step()
        for path_index, (a, b) in enumerate(tile_paths[coord]):
            if a == endpoint:
                far = b
            elif b == endpoint:
                far = a
            else:
                continue
            key = (coord, path_index)
            if key in walk:
                continue
            ends = [(coord, point[1]) for point in (a, b) if point[0] == "edge"]
            if any(side in sides for side in ends):
                continue
            kind, index = far
            walk.append(key)
            sides.extend(ends)
            if kind == "edge":
                neighbor = hexes[coord].hexdef.neighbors.get(index)
                if neighbor is not None and neighbor in hexes:
                    chain.append(neighbor)
                    step(neighbor, ("edge", opposite(index)), walk, chain)
                    chain.pop()
            elif kind == "junction":
                if coord not in junctions:
                    junctions.add(coord)
                    step(coord, far, walk, chain)
                    junctions.discard(coord)
            else:
                node = (coord, kind, index)
                # A walk back into its own stop would visit that stop twice.
                if node != start:
                    budget.walk_found()
                    found.append((node, list(walk), list(chain), list(sides)))
            walk.pop()
            del sides[len(sides) - len(ends):]

    step(start[0], (start[1], start[2]), [], [start[0]])
    return found

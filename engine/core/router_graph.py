"""The route optimizer's view of the track: a company's stops and the plain-track links between them.

A *link* is one way to get from a stop to the next stop along track that passes no other stop (plain
track, edges, junctions). A run is then a chain of stops joined by links that share no track path,
so the search works stop by stop instead of path by path. Each track path gets one bit; a link
carries the bit mask of its paths, which makes "no path used twice" a single `&`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.board import Board, opposite
from engine.core.graph import Node, reach_of

PathKey = tuple[str, int]  # (hex coord, index of the path on its tile), as in engine.core.routes


@dataclass(frozen=True)
class Link:
    """Track from stop `start` to stop `end` (indices into RouteGraph.stops) passing no other stop."""

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
    path_keys: tuple[PathKey, ...]  # bit i of a mask is path_keys[i]

    def paths_of(self, mask: int) -> list[PathKey]:
        keys = []
        while mask:
            low = mask & -mask
            keys.append(self.path_keys[low.bit_length() - 1])
            mask ^= low
        return keys


def board_signature(board: Board) -> tuple[object, ...]:
    """What the graph depends on: every laid tile, its rotation, and every token.

    Cheap to compute (one pass over the hexes), so a cache keyed on it is invalidated by any tile
    or token change without the engine having to notify anyone.
    """
    return tuple(
        (coord, state.tile_id, state.rotation, tuple(tuple(slots) for slots in state.tokens))
        for coord, state in board.hexes.items()
        if state.tile_laid or state.tokens
    )


def build_graph(board: Board, corporation: str, colors: tuple[str, ...]) -> RouteGraph:
    reach = reach_of(board, corporation)
    order: list[Node] = sorted(reach.nodes)
    index: dict[Node, int] = {node: i for i, node in enumerate(order)}
    bits: dict[PathKey, int] = {}
    raw_links: dict[int, list[tuple[Node, list[PathKey], list[str]]]] = {}
    passable: list[bool] = []
    tile_paths = {coord: state.paths() for coord, state in board.hexes.items() if state.tile.paths}
    for i, node in enumerate(order):
        ok = _passable(board, corporation, node)
        passable.append(ok)
        # Runs are grown only out of stops they may go on through, so only those need links.
        if ok:
            raw_links[i] = _walks_from(board, tile_paths, node)
    # A link always ends at a stop the company reaches, but add any stray one rather than fail.
    for walks in raw_links.values():
        for end, _, _ in walks:
            if end not in index:
                index[end] = len(order)
                order.append(end)
                passable.append(_passable(board, corporation, end))
    links: list[tuple[Link, ...]] = []
    for i in range(len(order)):
        seen: set[tuple[int, int]] = set()
        mine: list[Link] = []
        for end, walk, chain in raw_links.get(i, []):
            mask = 0
            for key in walk:
                mask |= 1 << bits.setdefault(key, len(bits))
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
    keys = [key for key, _ in sorted(bits.items(), key=lambda item: item[1])]
    return RouteGraph(corporation, tuple(order), tuple(values), tuple(costs), tuple(passable),
                      tokened, tuple(links), tuple(keys))


def _passable(board: Board, corporation: str, node: Node) -> bool:
    coord, kind, index = node
    stop = board.hexes[coord].tile.stop(kind, index)
    if stop.must_end_here:
        return False
    if kind == "city" and board.city_is_blocked_for(coord, index, corporation):
        return False
    return True


def _walks_from(board: Board, tile_paths: dict[str, list[tuple[tuple[str, int], tuple[str, int]]]],
                start: Node) -> list[tuple[Node, list[PathKey], list[str]]]:
    """Every path-simple walk from `start` along plain track to the first stop it meets.

    A walk crosses a junction at most once (one path in, one out), as the rules say; the engine's
    rebuild_run is laxer there, so these walks are always ones it accepts.
    """
    found: list[tuple[Node, list[PathKey], list[str]]] = []
    hexes = board.hexes
    junctions: set[str] = set()

    def step(coord: str, endpoint: tuple[str, int], walk: list[PathKey], chain: list[str]) -> None:
        for path_index, (a, b) in enumerate(tile_paths.get(coord, ())):
            if a == endpoint:
                far = b
            elif b == endpoint:
                far = a
            else:
                continue
            key = (coord, path_index)
            if key in walk:
                continue
            kind, index = far
            walk.append(key)
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
                    found.append((node, list(walk), list(chain)))
            walk.pop()

    step(start[0], (start[1], start[2]), [], [start[0]])
    return found

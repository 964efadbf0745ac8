"""Which track, hexes and stops a company can reach from its station tokens."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from engine.core.board import Board, opposite
from engine.core.position_cache import cached, kept

Node = tuple[str, str, int]  # (hex coord, stop kind, stop index)


@dataclass
class Reach:
    """The part of the map a company's network touches."""

    hexes: dict[str, set[int]] = field(default_factory=dict)  # hex -> edges the network reaches
    nodes: set[Node] = field(default_factory=set)
    paths: set[tuple[str, int]] = field(default_factory=set)


def stop_is_passable(board: Board, node: Node, corporation: str) -> bool:
    coord, kind, index = node
    if kind == "offboard":
        return False
    if kind == "city":
        return not board.city_is_blocked_for(coord, index, corporation)
    return True


def reach_of(board: Board, corporation: str, extra_starts: list[Node] | None = None) -> Reach:
    """Walk the track from every station token of `corporation` (once per position: the answer
    is shared, read it and never change it)."""
    if extra_starts:
        return _walk(board, corporation, _stations(board, corporation) + extra_starts)
    return cached(board, ("reach", corporation),
                  lambda: _walk(board, corporation, _stations(board, corporation)))


def reaches(board: Board, corporation: str, coord: str, edges: Collection[int]) -> bool:
    """Whether the company's network reaches `coord` by one of its `edges` (new track must
    connect to it, 12.2): from the reach kept for this position if there is one, else by a walk
    that stops as soon as it does."""
    known = kept(board, ("reach", corporation))
    if isinstance(known, Reach):
        return not known.hexes.get(coord, set()).isdisjoint(edges)
    if not edges:
        return False
    target = (coord, frozenset(edges))
    return not _walk(board, corporation, _stations(board, corporation), target=target).hexes.get(
        coord, set()).isdisjoint(edges)


def _stations(board: Board, corporation: str) -> list[Node]:
    return [(coord, "city", city) for coord, city in board.token_hexes(corporation)]


def _walk(board: Board, corporation: str, starts: list[Node], enough_nodes: int | None = None,
          target: tuple[str, frozenset[int]] | None = None) -> Reach:
    """The reach from `starts`; with `enough_nodes`, possibly only part of it, once it holds
    that many stops; with a `target` (hex, edges), once it reaches one of those edges."""
    # The map's largest walk, asked at each tile lay and station of a replay: one loop, and each
    # hex's paths read by endpoint (`TileDef.links`), not one by one.
    reach = Reach()
    reached_hexes, nodes, paths = reach.hexes, reach.nodes, reach.paths
    hexes = board.hexes
    visited: set[tuple[str, int, int]] = set()
    stack: list[tuple[str, tuple[str, int]]] = []
    target_coord, target_edges = target if target is not None else (None, frozenset())
    for node in starts:
        coord = node[0]
        nodes.add(node)
        # A token's hex counts as reached from every side, so its first tile may face any way.
        reached_hexes.setdefault(coord, set()).update(range(6))
        stack.append((coord, (node[1], node[2])))
        if coord == target_coord:
            return reach
    while stack:
        coord, endpoint = stack.pop()
        state = hexes[coord]
        for path_index, far, side in state.tile.links(state.rotation).get(endpoint, ()):
            key = (coord, path_index, side)
            if key in visited:
                continue
            visited.add(key)
            paths.add((coord, path_index))
            kind, index = far
            if kind == "edge":
                edges = reached_hexes.get(coord)
                if edges is None:
                    edges = reached_hexes[coord] = set()
                edges.add(index)
                if coord == target_coord and index in target_edges:
                    return reach
                neighbor = state.hexdef.neighbors.get(index)
                if neighbor is not None and neighbor in hexes:
                    entry = opposite(index)
                    edges = reached_hexes.get(neighbor)
                    if edges is None:
                        edges = reached_hexes[neighbor] = set()
                    edges.add(entry)
                    if neighbor == target_coord and entry in target_edges:
                        return reach
                    stack.append((neighbor, ("edge", entry)))
            elif kind == "junction":
                stack.append((coord, far))
            else:
                node = (coord, kind, index)
                nodes.add(node)
                if stop_is_passable(board, node, corporation):
                    stack.append((coord, far))
            if enough_nodes is not None and len(nodes) >= enough_nodes:
                return reach
    return reach


def can_run_a_route(board: Board, corporation: str) -> bool:
    """True when a train would have two stops to run between in one network, one of them a
    station of the company: stops in networks that do not meet make no route (12.4)."""
    # Asked at every step of an operating turn: kept while the track and stations stay as they are.
    return board.kept(("can run a route", corporation), lambda: _can_run_a_route(board, corporation))


def _can_run_a_route(board: Board, corporation: str) -> bool:
    seen: set[Node] = set()
    for coord, city in board.token_hexes(corporation):
        start: Node = (coord, "city", city)
        if start in seen:
            continue
        # A second stop answers the question: the walk stops there.
        nodes = _walk(board, corporation, [start], enough_nodes=2).nodes
        if len(nodes) >= 2:
            return True
        seen |= nodes
    return False

"""Which track, hexes and stops a company can reach from its station tokens."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.board import Board, opposite

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


def reach_of(board: Board, corporation: str, extra_starts: list[Node] | None = None,
             only: list[Node] | None = None) -> Reach:
    """Walk the track from every station token of `corporation` (or from the `only` nodes)."""
    reach = Reach()
    starts: list[Node] = token_nodes(board, corporation) if only is None else list(only)
    starts += extra_starts or []
    visited: set[tuple[str, int, int]] = set()
    stack: list[tuple[str, tuple[str, int]]] = []
    for node in starts:
        coord = node[0]
        reach.nodes.add(node)
        # A token's hex counts as reached from every side, so its first tile may face any way.
        reach.hexes.setdefault(coord, set()).update(range(6))
        stack.append((coord, (node[1], node[2])))
    while stack:
        coord, endpoint = stack.pop()
        state = board.hexes[coord]
        for path_index, (a, b) in enumerate(state.paths()):
            if endpoint == a:
                far = b
            elif endpoint == b:
                far = a
            else:
                continue
            key = (coord, path_index, 0 if endpoint == a else 1)
            if key in visited:
                continue
            visited.add(key)
            reach.paths.add((coord, path_index))
            _follow(board, corporation, reach, stack, coord, far)
    return reach


def _follow(board: Board, corporation: str, reach: Reach,
            stack: list[tuple[str, tuple[str, int]]], coord: str, far: tuple[str, int]) -> None:
    kind, index = far
    if kind == "edge":
        reach.hexes.setdefault(coord, set()).add(index)
        neighbor = board.hexes[coord].hexdef.neighbors.get(index)
        if neighbor is None or neighbor not in board.hexes:
            return
        entry = opposite(index)
        reach.hexes.setdefault(neighbor, set()).add(entry)
        stack.append((neighbor, ("edge", entry)))
    elif kind == "junction":
        stack.append((coord, far))
    else:
        node = (coord, kind, index)
        reach.nodes.add(node)
        if stop_is_passable(board, node, corporation):
            stack.append((coord, far))


def token_nodes(board: Board, corporation: str) -> list[Node]:
    return [(coord, "city", city) for coord, city in board.token_hexes(corporation)]


def can_run_a_route(board: Board, corporation: str) -> bool:
    """True when a train would have two stops to run between, one of them tokened: two stations
    with no track between them are no route."""
    if len(reach_of(board, corporation).nodes) < 2:
        return False
    tokens = token_nodes(board, corporation)
    return len(tokens) <= 1 or any(len(reach_of(board, corporation, only=[node]).nodes) >= 2
                                   for node in tokens)

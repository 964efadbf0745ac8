"""Runs of trains: rebuilding them from a logged action, checking them, and their revenue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.board import Board, opposite
from engine.core.graph import Node
from engine.errors import GameError

PathKey = tuple[str, int]  # (hex coord, index of the path on its tile)


@dataclass(frozen=True)
class Run:
    """One train's run: its stops in order and the track paths it uses."""

    train: str
    stops: tuple[Node, ...]
    paths: tuple[PathKey, ...]
    chains: tuple[tuple[str, ...], ...]
    revenue: int

    def hexes(self) -> list[str]:
        return [stop[0] for stop in self.stops]


def _paths_at(board: Board, coord: str, endpoint: tuple[str, int]) -> list[tuple[int, tuple[str, int]]]:
    state = board.hexes[coord]
    return [(index, far) for index, far, _ in state.tile.links(state.rotation).get(endpoint, ())]


def _walk_chain(board: Board, chain: list[str], start: Node,
                used: set[PathKey]) -> list[tuple[Node, list[PathKey]]]:
    """All ways to walk `chain` from `start` to a stop in its last hex without reusing paths."""
    results: list[tuple[Node, list[PathKey]]] = []

    def step(position: int, coord: str, endpoint: tuple[str, int], taken: list[PathKey]) -> None:
        for path_index, far in _paths_at(board, coord, endpoint):
            key = (coord, path_index)
            if key in used or key in taken:
                continue
            kind, index = far
            if kind == "edge":
                neighbor = board.hexes[coord].hexdef.neighbors.get(index)
                if position + 1 >= len(chain) or neighbor != chain[position + 1]:
                    continue
                step(position + 1, neighbor, ("edge", opposite(index)), taken + [key])
            elif kind == "junction":
                step(position, coord, far, taken + [key])
            elif position == len(chain) - 1:
                node = (coord, kind, index)
                if node != start:
                    results.append((node, taken + [key]))

    step(0, start[0], (start[1], start[2]), [])
    return results


def _stops_in(board: Board, coord: str) -> list[Node]:
    if coord not in board.hexes:
        raise GameError(f"{coord} is not a hex on this map")
    return [(coord, stop.kind, stop.index) for stop in board.hexes[coord].tile.stops]


def rebuild_run(board: Board, chains: list[list[str]], used: set[PathKey]) -> tuple[list[Node], list[PathKey]]:
    """Find the stops and paths a logged run uses (chains of hexes from stop to stop).

    Each chain may be written in either direction; consecutive chains share a stop.
    """
    if not chains or any(not chain or not isinstance(chain, list) for chain in chains):
        raise GameError("a run must go from one stop to another")
    segments: list[list[tuple[Node, Node, list[PathKey]]]] = []
    for chain in chains:
        walks = []
        for first in _stops_in(board, chain[0]):
            for end, paths in _walk_chain(board, chain, first, used):
                walks.append((first, end, paths))
                walks.append((end, first, paths))
        if not walks:
            if used and any(_walk_chain(board, chain, first, set()) for first in _stops_in(board, chain[0])):
                raise GameError(f"the run segment {'-'.join(chain)} needs track that another train of the "
                                f"company already uses; no track may be used twice (12.4)")
            raise GameError(f"there is no track for the run segment {'-'.join(chain)}")
        segments.append(walks)

    def solve(index: int, at: Node | None, taken: list[PathKey],
              stops: list[Node]) -> tuple[list[Node], list[PathKey]] | None:
        if index == len(segments):
            return stops, taken
        for start, end, paths in segments[index]:
            if at is not None and start != at:
                continue
            if any(path in taken for path in paths):
                continue
            found = solve(index + 1, end, taken + paths, stops + ([start] if index == 0 else []) + [end])
            if found:
                return found
        return None

    found = solve(0, None, [], [])
    if found is None:
        raise GameError(f"the run {' / '.join('-'.join(c) for c in chains)} does not join up into one route")
    return found


def check_run(board: Board, corporation: str, stops: list[Node], distance: int,
              colors: tuple[str, ...]) -> int:
    """Apply the rules for one run and return its revenue."""
    if len(set(stops)) != len(stops):
        raise GameError("a run may not visit the same city or off-board area twice")
    if not any(kind == "city" and corporation in board.hexes[coord].tokens[index]
               for coord, kind, index in stops):
        raise GameError(f"each run must include a city with a {corporation} station")
    revenue = 0
    length = 0
    groups_seen: dict[str, str] = {}
    for position, (coord, kind, index) in enumerate(stops):
        stop = board.hexes[coord].tile.stop(kind, index)
        inner = 0 < position < len(stops) - 1
        if inner and stop.must_end_here:
            raise GameError(f"a run must end at the off-board area {coord}")
        if not inner and stop.may_not_end_here:
            raise GameError(f"a run may pass through {coord} but not start or end there")
        for group in stop.groups:
            if group in groups_seen:
                raise GameError(f"a run may stop in {group} only once ({groups_seen[group]} and {coord})")
            groups_seen[group] = coord
        if inner and kind == "city" and board.city_is_blocked_for(coord, index, corporation):
            raise GameError(f"the city at {coord} is full of other companies' stations; a run may end there but not pass through")
        length += stop.distance_cost
        revenue += stop.revenue_in(colors)
    if len(stops) < 2:
        raise GameError("a run must visit at least two stops")
    if length > distance:
        raise GameError(f"a {distance}-train may visit at most {distance} stops; this run has {length}")
    return revenue


def describe(stops: list[Node] | tuple[Node, ...]) -> str:
    return "-".join(stop[0] for stop in stops)


def action_routes(action: dict[str, Any]) -> list[dict[str, Any]]:
    routes = action.get("routes")
    if not isinstance(routes, list):
        raise GameError("run_routes needs a list of routes")
    return routes

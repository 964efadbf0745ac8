"""The company's track as a graph for the whole-network route model (router_model).

Unlike router_graph, which joins stops by every plain-track walk between them (fine on small
maps, astronomically many walks on a late map full of junction tiles), this graph keeps plain
track as it is: its vertices are stops, the centre junctions of plain tiles, and the hex sides
where more than two pieces of track meet; its edges are chains of tile paths between them. A run
is then a path in this graph, and its size grows with the map, not with the number of runs.

Chains are joined at a hex side when exactly one path of each hex meets there, and at a junction
only two paths reach: a train passing there must use both, so they behave as one piece of track.
Sides where more track meets stay vertices, so the model can tell that a train crosses from one
hex into the other.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.router.network import Network, Node, PathKey, opposite

POLL_EVERY = 64  # hexes or vertices between looks at the clock
NEAR, FAR = "#near", "#far"  # the two sides of a chain's middle vertex (see _split_junctions)


class OutOfTime(Exception):
    """The deadline passed while the graph was being built."""


@dataclass(frozen=True, eq=False)
class TrackEdge:
    """A chain of tile paths between two vertices; `hexes` in travel order from `a` to `b`."""

    a: int
    b: int
    paths: tuple[PathKey, ...]
    hexes: tuple[str, ...]


@dataclass
class TrackGraph:
    """Vertices are stops, junctions and branching sides; edges are chains of track between them.

    `kind[v]` is "stop", "junction" or "side". For a side vertex, `side_of[v]` is the hex one
    group of its edges lies in: a train passing the side leaves one hex for the other, so it uses
    one edge with `side_hex[e, v] == side_of[v]` and one without.
    """

    vertices: list[tuple[str, ...]] = field(default_factory=list)
    kind: list[str] = field(default_factory=list)
    stop_of: dict[int, Node] = field(default_factory=dict)
    edges: list[TrackEdge] = field(default_factory=list)
    incident: list[list[int]] = field(default_factory=list)
    side_of: dict[int, str] = field(default_factory=dict)
    # (edge, side vertex) -> the hex on whose side of the border the edge reaches the vertex
    side_hex: dict[tuple[int, int], str] = field(default_factory=dict)
    # Edge -> the parallel edges of one chain between copies of split junctions (itself
    # included): a company's runs use at most one of them (see _split_junctions).
    twins: dict[int, list[int]] = field(default_factory=dict)
    # First copy of a split junction -> all its copies (see _split_junctions).
    copies: dict[int, tuple[int, ...]] = field(default_factory=dict)

    def vertex(self, key: tuple[str, ...], kind: str) -> int:
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.vertices)
            self.vertices.append(key)
            self.kind.append(kind)
            self.incident.append([])
        return found

    def __post_init__(self) -> None:
        self._index: dict[tuple[str, ...], int] = {}

    def stop_vertex(self, node: Node) -> int | None:
        return self._index.get(("stop", node[0], node[1], str(node[2])))

    def junction_of(self, coord: str) -> tuple[int, ...]:
        """The vertices of the junction at the centre of hex `coord` (several if it is split,
        the first first), or () if the graph has none."""
        first = self._index.get(("junction", coord))
        if first is None:
            return ()
        return self.copies.get(first, (first,))


def _check(deadline: float | None, counter: list[int]) -> None:
    counter[0] += 1
    if deadline is not None and counter[0] % POLL_EVERY == 0 and time.perf_counter() > deadline:
        raise OutOfTime


def build_track_graph(board: Network, starts: list[Node], stops_passable: dict[Node, bool],
                      deadline: float | None = None) -> TrackGraph:
    """The track reachable from `starts`, walking on through stops that `stops_passable` allows.

    `stops_passable(node)` says whether some train may go on through a stop (a train of the
    company; the model decides which); stops it does not list are passable.
    Raises OutOfTime past `deadline`.
    """
    counter = [0]
    # Pieces: each tile path as (endpoint key a, endpoint key b), keyed per hex.
    side_key: dict[tuple[str, int], tuple[str, ...]] = {}
    hexes = board.hexes

    def endpoint_key(coord: str, endpoint: tuple[str, int]) -> tuple[str, ...]:
        kind, index = endpoint
        if kind == "edge":
            neighbor = hexes[coord].hexdef.neighbors.get(index)
            if neighbor is None or neighbor not in hexes:
                return ("dead", coord, str(index))
            mine, theirs = (coord, index), (neighbor, opposite(index))
            key = side_key.get(mine)
            if key is None:
                first, second = sorted((mine, theirs))
                key = ("side", first[0], str(first[1]), second[0], str(second[1]))
                side_key[mine] = side_key[theirs] = key
            return key
        if kind == "junction":
            return ("junction", coord)
        return ("stop", coord, kind, str(index))

    # Walk outwards from the starts over tile paths.
    pieces: dict[PathKey, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    by_point: dict[tuple[str, ...], list[PathKey]] = {}
    seen_points: set[tuple[str, ...]] = set()
    stack: list[tuple[str, ...]] = []
    for node in starts:
        key = ("stop", node[0], node[1], str(node[2]))
        if key not in seen_points:
            seen_points.add(key)
            stack.append(key)
    tile_paths: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    while stack:
        _check(deadline, counter)
        point = stack.pop()
        coords = [point[1]] if point[0] != "side" else [point[1], point[3]]
        for coord in coords:
            paths = tile_paths.get(coord)
            if paths is None:
                paths = tile_paths[coord] = [(endpoint_key(coord, a), endpoint_key(coord, b))
                                             for a, b in hexes[coord].paths()]
            for index, (a, b) in enumerate(paths):
                if point not in (a, b):
                    continue
                piece = (coord, index)
                if piece not in pieces:
                    pieces[piece] = (a, b)
                    by_point.setdefault(a, []).append(piece)
                    by_point.setdefault(b, []).append(piece)
                far = b if a == point else a
                if far in seen_points or far[0] == "dead":
                    continue
                seen_points.add(far)
                if far[0] == "stop":
                    node = (far[1], far[2], int(far[3]))
                    if not stops_passable.get(node, True):
                        continue
                stack.append(far)
    # Sides where only one hex's track arrives lead nowhere; junctions with one path are dead
    # ends. Remove such pieces until none is left.
    alive = set(pieces)
    changed = True
    while changed:
        changed = False
        for point, keys in by_point.items():
            if point[0] == "stop":
                continue
            live = [key for key in keys if key in alive]
            if not live:
                continue
            dead = len(live) == 1 or point[0] == "dead"
            if point[0] == "side" and not dead:
                dead = len({key[0] for key in live}) < 2
            if dead:
                alive.difference_update(live)
                changed = True
    graph = TrackGraph()
    # Chains: join pieces through sides where exactly one piece of each hex meets, and through
    # junctions that only two pieces reach (a train that enters by one leaves by the other).
    through: dict[tuple[str, ...], list[PathKey]] = {}
    for point, keys in by_point.items():
        live = [key for key in keys if key in alive]
        if point[0] in ("side", "junction") and len(live) == 2:
            through[point] = live
    used: set[PathKey] = set()
    for start in sorted(alive):
        _check(deadline, counter)
        if start in used:
            continue
        # Extend the chain both ways from this piece while it crosses joinable sides.
        chain = [start]
        used.add(start)
        a, b = pieces[start]
        ends: list[tuple[str, ...] | None] = []
        end: tuple[str, ...] | None
        for direction, end in ((0, a), (1, b)):
            point = end
            while point in through:
                nxt = next(key for key in through[point] if key != (chain[0] if direction == 0 else chain[-1]))
                if nxt in used:
                    end = None  # a closed loop of plain track: no vertex on it
                    break
                used.add(nxt)
                if direction == 0:
                    chain.insert(0, nxt)
                else:
                    chain.append(nxt)
                x, y = pieces[nxt]
                point = end = y if x == point else x
            ends.append(end)
        if ends[0] is None or ends[1] is None:
            continue
        va = _vertex_for(graph, ends[0])
        vb = _vertex_for(graph, ends[1])
        if va == vb:
            continue  # a loop back to its own vertex can never be part of a run
        hexes_in_order = _dedupe([key[0] for key in chain])
        edge_index = len(graph.edges)
        graph.edges.append(TrackEdge(va, vb, tuple(chain), hexes_in_order))
        graph.incident[va].append(edge_index)
        graph.incident[vb].append(edge_index)
        for vertex, piece in ((va, chain[0]), (vb, chain[-1])):
            if graph.kind[vertex] == "side":
                graph.side_hex[(edge_index, vertex)] = piece[0]
    for vertex, kind in enumerate(graph.kind):
        if kind == "side":
            graph.side_of[vertex] = graph.vertices[vertex][1]
    return _split_junctions(graph)


def _split_junctions(graph: TrackGraph) -> TrackGraph:
    """The graph with each junction that more than three chains reach made into several vertices.

    A run may pass one junction twice by different paths (tile 60's six paths meet at its
    centre; the reference site accepts such runs, and the engine's run check does too), but a
    vertex of a circuit is entered once. So a junction reached by k chains becomes k // 2 copies.
    A chain between few copies becomes one parallel edge per pair of copies (`twins`, of which
    the runs use one). A chain between two junctions of several copies each gets a middle vertex
    ("mid") joined to every copy at both ends, and the chain's track goes on the halves towards
    one end; a mid is passed like a branching side (one half of each kind, one train at most),
    so a train still uses each chain once, whole.
    """
    split = {v: len(graph.incident[v]) // 2 for v, kind in enumerate(graph.kind)
             if kind == "junction" and len(graph.incident[v]) >= 4}
    if not split:
        return graph
    out = TrackGraph()
    copies: dict[int, list[int]] = {}
    for v, key in enumerate(graph.vertices):
        copies[v] = [out.vertex(key if n == 0 else (*key, f"#{n}"), graph.kind[v]) for n in range(split.get(v, 1))]
        if v in graph.stop_of:
            out.stop_of[copies[v][0]] = graph.stop_of[v]
        if v in graph.side_of:
            out.side_of[copies[v][0]] = graph.side_of[v]
    for v in split:
        out.copies[copies[v][0]] = tuple(copies[v])

    def add(a: int, b: int, paths: tuple[PathKey, ...], hexes: tuple[str, ...]) -> int:
        index = len(out.edges)
        out.edges.append(TrackEdge(a, b, paths, hexes))
        out.incident[a].append(index)
        out.incident[b].append(index)
        return index

    for e, edge in enumerate(graph.edges):
        a_hex = graph.side_hex.get((e, edge.a))
        b_hex = graph.side_hex.get((e, edge.b))
        ends_a, ends_b = copies[edge.a], copies[edge.b]
        if len(ends_a) * len(ends_b) <= max(len(ends_a) + len(ends_b), 4):
            # Few enough pairs of copies: one parallel edge each, of which a company uses one.
            group = [add(va, vb, edge.paths, edge.hexes) for va in ends_a for vb in ends_b]
            for index in group:
                out.twins[index] = group
                a, b = out.edges[index].a, out.edges[index].b
                for end, side in ((a, a_hex), (b, b_hex)):
                    if side is not None:
                        out.side_hex[(index, end)] = side
            continue
        mid = out.vertex(("mid", str(e)), "mid")
        # A train passing the middle comes from one copy of the near end and goes on to the far
        # end, never back to another copy: the rule of a branching side, with two pseudo-hexes.
        out.side_of[mid] = NEAR
        # The track goes on the half towards a split end, as often as that end has copies.
        near, far, side = (edge.a, edge.b, b_hex) if edge.a in split else (edge.b, edge.a, a_hex)
        paths = edge.paths if near == edge.a else tuple(reversed(edge.paths))
        hexes = edge.hexes if near == edge.a else tuple(reversed(edge.hexes))
        for copy in copies[near]:
            out.side_hex[(add(copy, mid, paths, hexes), mid)] = NEAR
        for copy in copies[far]:
            index = add(mid, copy, (), ())
            out.side_hex[(index, mid)] = FAR
            if side is not None:
                out.side_hex[(index, copy)] = side
    return out


def _vertex_for(graph: TrackGraph, point: tuple[str, ...]) -> int:
    if point[0] == "stop":
        vertex = graph.vertex(point, "stop")
        graph.stop_of[vertex] = (point[1], point[2], int(point[3]))
        return vertex
    return graph.vertex(point, point[0])


def _dedupe(coords: list[str]) -> tuple[str, ...]:
    out: list[str] = []
    for coord in coords:
        if not out or out[-1] != coord:
            out.append(coord)
    return tuple(out)

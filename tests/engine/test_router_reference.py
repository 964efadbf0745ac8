"""A brute-force reference for the route optimizer, and checks of the reference itself.

The reference shares no code with the optimizer: it walks the board's track path by path from
every stop on the map, keeps every walk that is a legal run (rule 12.1/12.4 as the engine checks
them: no path and no hex side used twice by a company's runs), and tries every combination of runs
for the trains. It is slow and obviously exhaustive.
Title route hooks are applied here straight from their documented meaning.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import product
from pathlib import Path
from typing import Any

from engine.core.board import Board, opposite
from engine.core.entities import Corporation, Train
from engine.core.game import BaseGame
from engine.core.routes import check_run, rebuild_run
from engine.router_cli import run_positions

Node = tuple[str, str, int]
PathKey = tuple[str, int]
Side = tuple[str, int]  # (hex coord, edge)
RefRun = tuple[tuple[Node, ...], frozenset[PathKey], frozenset[Side]]  # stops in order, paths, sides


def _passable(board: Board, corporation: str, node: Node) -> bool:
    coord, kind, index = node
    stop = board.hexes[coord].tile.stop(kind, index)
    if stop.must_end_here:
        return False
    if kind == "city":
        slots = board.hexes[coord].tokens[index]
        return corporation in slots or any(slot is None for slot in slots)
    return True


def reference_runs(board: Board, corporation: str, distance: int) -> list[RefRun]:
    """Every legal run of a `distance` train, once each (a run and its reverse are the same)."""
    found: dict[frozenset[PathKey], tuple[tuple[Node, ...], frozenset[Side]]] = {}

    def cost(stops: list[Node]) -> int:
        return sum(board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in stops)

    def go(coord: str, endpoint: tuple[str, int], stops: list[Node], used: list[PathKey],
           sides: frozenset[Side]) -> None:
        for path_index, (a, b) in enumerate(board.hexes[coord].paths()):
            if endpoint not in (a, b) or (coord, path_index) in used:
                continue
            ends = {(coord, point[1]) for point in (a, b) if point[0] == "edge"}
            if ends & sides:
                continue
            far = b if a == endpoint else a
            taken = used + [(coord, path_index)]
            now_sides = sides | ends
            if far[0] == "edge":
                neighbor = board.hexes[coord].hexdef.neighbors.get(far[1])
                if neighbor in board.hexes:
                    go(neighbor, ("edge", opposite(far[1])), stops, taken, now_sides)
            elif far[0] == "junction":
                go(coord, far, stops, taken, now_sides)
            else:
                node = (coord, far[0], far[1])
                if node in stops or cost(stops + [node]) > distance:
                    continue
                now = stops + [node]
                if any(k == "city" and corporation in board.hexes[c].tokens[i] for c, k, i in now):
                    found.setdefault(frozenset(taken), (tuple(now), now_sides))
                if _passable(board, corporation, node):
                    go(coord, far, now, taken, now_sides)

    for coord, state in board.hexes.items():
        for stop in state.tile.stops:
            start = (coord, stop.kind, stop.index)
            if cost([start]) <= distance:
                go(coord, (stop.kind, stop.index), [start], [], frozenset())
    return [(stops, paths, sides) for paths, (stops, sides) in found.items()]


def run_value(game: BaseGame, corp: Corporation, train: Train, run: RefRun) -> int:
    """Printed values of the stops, then the title's per-run hooks."""
    stops, paths, _ = run
    colors = game.colors_available()
    total = 0
    for node in stops:
        coord, kind, index = node
        printed = game.board.hexes[coord].tile.stop(kind, index).revenue_in(colors)
        total += game.route_stop_revenue(corp, train, node, printed)
    bonuses = game.route_track_bonuses(corp, train)
    return total + sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in paths})


def _breaks_roles(game: BaseGame, corp: Corporation, stops: tuple[Node, ...]) -> bool:
    roles = game.route_stop_roles(corp)
    if any(roles[end].never_end for end in (stops[0], stops[-1]) if end in roles):
        return True
    areas = [roles[stop].area for stop in stops if stop in roles and roles[stop].area is not None]
    return len(areas) != len(set(areas))


def _attachment_bonus(game: BaseGame, corp: Corporation, picked: Sequence[tuple[Train, tuple[Node, ...]]]) -> int:
    """The most the attachments add, each given to one train or none (value-only ones)."""
    attachments = game.route_attachments(corp)
    assert not any(a.distance_bonus or a.skips for a in attachments), "the reference values runs only"

    def worth(attachment: Any, train: Train, stops: tuple[Node, ...]) -> int:
        if attachment.trains is not None and train.id not in attachment.trains:
            return 0
        counted = sum(1 for c, k, i in stops if game.board.hexes[c].tile.stop(k, i).distance_cost > 0)
        hexes = {c for c, _, _ in stops}
        best_bonus = max((amount for needed, amount in attachment.run_bonuses if needed <= hexes), default=0)
        return attachment.stop_bonus * counted + best_bonus

    best = 0
    for holders in product(range(len(picked) + 1), repeat=len(attachments)):
        best = max(best, sum(worth(a, *picked[h]) for a, h in zip(attachments, holders, strict=True)
                             if h < len(picked)))
    return best


def reference_best(game: BaseGame, corp: Corporation, trains: Sequence[Train] | None = None) -> int:
    """The best total over every combination of runs (or no run) for the company's trains."""
    trains = list(corp.trains if trains is None else trains)
    by_distance: dict[int, list[RefRun]] = {}
    options: list[list[tuple[RefRun, int]]] = []
    for train in trains:
        runs = by_distance.setdefault(train.distance, reference_runs(game.board, corp.id, train.distance))
        options.append([(run, run_value(game, corp, train, run)) for run in runs])
    limits = game.route_end_limits(corp)
    best = 0
    picked: list[tuple[Train, RefRun, int]] = []

    def leaf() -> None:
        nonlocal best
        for hexes, most in limits:
            if sum(1 for _, (stops, _, _), _ in picked if stops[0][0] in hexes or stops[-1][0] in hexes) > most:
                return
        if any(_breaks_roles(game, corp, run[0]) for _, run, _ in picked):
            return
        bonus = _attachment_bonus(game, corp, [(train, run[0]) for train, run, _ in picked])
        best = max(best, sum(value for _, _, value in picked) + bonus)

    def choose(index: int, used: frozenset[PathKey], sides: frozenset[Side]) -> None:
        if index == len(trains):
            leaf()
            return
        choose(index + 1, used, sides)
        for run, value in options[index]:
            if used.isdisjoint(run[1]) and sides.isdisjoint(run[2]):
                picked.append((trains[index], run, value))
                choose(index + 1, used | run[1], sides | run[2])
                picked.pop()

    choose(0, frozenset(), frozenset())
    return best


def engine_value(game: BaseGame, corp_id: str, run: RefRun, distance: int) -> int:
    return check_run(game.board, corp_id, list(run[0]), distance, game.colors_available())


# --- the reference checked on its own ----------------------------------------------------------
FIXTURE = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "18Texas" / "65394.json"


def test_reference_runs_pass_the_engines_run_check_and_include_the_logged_runs() -> None:
    checked = 0
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        corp = state.corporations[action["entity"]]
        trains = {train.id: train for train in corp.trains}
        for route in action["routes"]:
            train = trains[route["train"]]
            runs = reference_runs(state.board, corp.id, train.distance)
            for run in runs:
                assert engine_value(state, corp.id, run, train.distance) == run_value(state, corp, train, run)
                checked += 1
            # The logged run is one of them (the reference stores each run in one direction).
            stops, paths = rebuild_run(state.board, route["connections"], set())
            assert (frozenset(paths), frozenset(stops)) in {(p, frozenset(s)) for s, p, _ in runs}
    assert checked > 1000

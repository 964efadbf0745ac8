"""A brute-force reference for the route optimizer, and checks of the reference itself.

The reference shares no code with the optimizer: it walks the board's track path by path from
every stop on the map, keeps every walk that is a legal run (rule 12.1/12.4 as the engine checks
them), and tries every combination of runs for the trains. It is slow and obviously exhaustive.
Title route hooks are applied here straight from their documented meaning.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from engine.core.board import Board, opposite
from engine.core.entities import Corporation, Train
from engine.core.game import BaseGame
from engine.core.routes import check_run, rebuild_run
from engine.router_cli import run_positions

Node = tuple[str, str, int]
PathKey = tuple[str, int]
RefRun = tuple[tuple[Node, ...], frozenset[PathKey]]  # stops in order, paths used


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
    found: dict[frozenset[PathKey], tuple[Node, ...]] = {}

    def cost(stops: list[Node]) -> int:
        return sum(board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in stops)

    def go(coord: str, endpoint: tuple[str, int], stops: list[Node], used: list[PathKey]) -> None:
        for path_index, (a, b) in enumerate(board.hexes[coord].paths()):
            if endpoint not in (a, b) or (coord, path_index) in used:
                continue
            far = b if a == endpoint else a
            taken = used + [(coord, path_index)]
            if far[0] == "edge":
                neighbor = board.hexes[coord].hexdef.neighbors.get(far[1])
                if neighbor in board.hexes:
                    go(neighbor, ("edge", opposite(far[1])), stops, taken)
            elif far[0] == "junction":
                go(coord, far, stops, taken)
            else:
                node = (coord, far[0], far[1])
                if node in stops or cost(stops + [node]) > distance:
                    continue
                now = stops + [node]
                if any(k == "city" and corporation in board.hexes[c].tokens[i] for c, k, i in now):
                    found.setdefault(frozenset(taken), tuple(now))
                if _passable(board, corporation, node):
                    go(coord, far, now, taken)

    for coord, state in board.hexes.items():
        for stop in state.tile.stops:
            start = (coord, stop.kind, stop.index)
            if cost([start]) <= distance:
                go(coord, (stop.kind, stop.index), [start], [])
    return [(stops, paths) for paths, stops in found.items()]


def run_value(game: BaseGame, corp: Corporation, train: Train, run: RefRun) -> int:
    """Printed values of the stops, then the title's per-run hooks."""
    stops, paths = run
    colors = game.colors_available()
    total = 0
    for node in stops:
        coord, kind, index = node
        printed = game.board.hexes[coord].tile.stop(kind, index).revenue_in(colors)
        total += game.route_stop_revenue(corp, train, node, printed)
    bonuses = game.route_track_bonuses(corp, train)
    total += sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in paths})
    return total + game.route_run_bonus(corp, train, stops)


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
            if sum(1 for _, (stops, _), _ in picked if stops[0][0] in hexes or stops[-1][0] in hexes) > most:
                return
        bonus = game.route_company_bonus(corp, [(train, run[0]) for train, run, _ in picked])
        best = max(best, sum(value for _, _, value in picked) + sum(bonus.values()))

    def choose(index: int, used: frozenset[PathKey]) -> None:
        if index == len(trains):
            leaf()
            return
        choose(index + 1, used)
        for run, value in options[index]:
            if used.isdisjoint(run[1]):
                picked.append((trains[index], run, value))
                choose(index + 1, used | run[1])
                picked.pop()

    choose(0, frozenset())
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
            assert (frozenset(paths), frozenset(stops)) in {(p, frozenset(s)) for s, p in runs}
    assert checked > 1000

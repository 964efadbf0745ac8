"""A brute-force reference for the route optimizer, and checks of the reference itself.

The reference reads the title's printed data on its own: the track paths, stops, revenues,
distance costs and which stops end a run come from the map and tile JSON (``game.data``), with
a laid tile's rotation applied here, and the value of a stop in the current phase comes from
the map's own phase-to-colour table. It walks that track path by path from every stop on the
map, keeps every walk that is a legal run (rule 12.1/12.4: a run includes a city with the
company's station, visits a stop at most once, passes no city full of other companies'
stations and no off-board area, and no path or hex side is used twice by a company's runs), and
tries every combination of runs for the trains. It is slow and obviously exhaustive.

What it takes from the engine, and nothing more: the position it is given (which tile lies on
each hex with which rotation, whose stations are in each city, the current phase's name) and
the title's route hooks (engine/core/route_hooks.py: stop values per train, track bonuses, stop
roles, end limits and attachments, which are the title's rules for runs beyond the printed
track; 18Texas uses none). The hooks are declarative, so the reference applies them from their
documented meaning: it calls no engine code to value or check a run.
It shares no code with the optimizer nor with the engine's run check (engine/core/routes.py):
the checks below compare it with that run check and with the revenues the reference site
logged, each an independent computation.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from engine.core.entities import Corporation, Train
from engine.core.game import BaseGame
from engine.core.routes import check_run
from engine.router_cli import run_positions

Node = tuple[str, str, int]  # (hex, "city" | "town" | "offboard", index)
Endpoint = tuple[str, int]  # ("edge", 0-5) or a stop (kind, index) or ("junction", 0)
PathKey = tuple[str, int]  # (hex, index of the path in the tile's data)
Side = tuple[str, int]  # (hex coord, edge)
RefRun = tuple[tuple[Node, ...], frozenset[PathKey], frozenset[Side]]  # stops in order, paths, sides
STOP_KINDS = {"cities": "city", "towns": "town", "offboards": "offboard"}


@dataclass(frozen=True)
class Stop:
    revenue: int  # in the current phase
    cost: int  # how much of a train's distance it takes
    ends_runs: bool  # an off-board area: a run may start or end there, never pass through
    never_end: bool = False  # printed `route_may_not_end_here` (18USA rural junctions)
    groups: tuple[str, ...] = ()  # printed `groups`: a run stops in each group once (Mexico)


class PrintedBoard:
    """The map as the title's data print it, with the tiles laid in the given position."""

    def __init__(self, game: BaseGame) -> None:
        printed = {raw["coord"]: raw for raw in game.data["map"]["hexes"]}
        tiles = {raw["name"]: raw for raw in game.data["tiles"]["tiles"]}
        colors = game.data["map"]["phase_colors_for_revenue"]  # e.g. {"yellow": ["2", "3", "4"], ...}
        phase = game.phase.name
        self.color = next((color for color, phases in colors.items() if phase in phases), None)
        assert self.color is not None, f"the map data give no revenue colour for phase {phase}"
        # A stop printed with fewer colours keeps its last one (18USA's X20-X22 have no gray value).
        self.colors_so_far = list(colors)[:list(colors).index(self.color) + 1]
        self.neighbors = {coord: {int(edge): other for edge, other in raw.get("neighbors", {}).items()}
                          for coord, raw in printed.items()}
        self.tokens: dict[str, list[list[str | None]]] = {}
        self.paths: dict[str, list[tuple[Endpoint, Endpoint]]] = {}
        self.stops: dict[Node, Stop] = {}
        for coord, here in game.board.hexes.items():
            # A laid tile's id is "<tile name>-<copy>"; an untouched hex shows what is printed.
            raw = tiles[here.tile_id.rsplit("-", 1)[0]] if here.tile_laid else printed[coord]
            self.tokens[coord] = here.tokens
            self.paths[coord] = [(_endpoint(p["a"], here.rotation), _endpoint(p["b"], here.rotation))
                                 for p in raw.get("paths", [])]
            for key, kind in STOP_KINDS.items():
                for stop in raw.get(key, []):
                    self.stops[(coord, kind, int(stop["index"]))] = self._stop(kind, stop)

    def _stop(self, kind: str, raw: dict[str, Any]) -> Stop:
        revenue = raw["revenue"]
        value = revenue if isinstance(revenue, int) else \
            int(next(revenue[color] for color in reversed(self.colors_so_far) if color in revenue))
        ends = bool(raw.get("route_must_end_here", kind == "offboard"))
        return Stop(value, int(raw.get("distance_cost", 1)), ends, bool(raw.get("route_may_not_end_here")),
                    tuple(raw.get("groups") or ()))

    def stops_in(self, coord: str) -> list[Node]:
        return [node for node in self.stops if node[0] == coord]

    def passable(self, corporation: str, node: Node) -> bool:
        """A run may go on through this stop: not an off-board area nor a city others fill."""
        if self.stops[node].ends_runs:
            return False
        coord, kind, index = node
        if kind == "city":
            slots = self.tokens[coord][index]
            return corporation in slots or any(slot is None for slot in slots)
        return True

    def has_station(self, corporation: str, node: Node) -> bool:
        coord, kind, index = node
        return kind == "city" and corporation in self.tokens[coord][index]


def _endpoint(raw: dict[str, Any], rotation: int) -> Endpoint:
    if "edge" in raw:
        return ("edge", (int(raw["edge"]) + rotation) % 6)
    for kind in ("city", "town", "offboard"):
        if kind in raw:
            return (kind, int(raw[kind]))
    assert raw.get("junction"), f"unknown path end {raw}"
    return ("junction", 0)


def reference_runs(board: PrintedBoard, corporation: str, distance: int) -> list[RefRun]:
    """Every legal run of a `distance` train, once each (a run and its reverse are the same)."""
    found: dict[frozenset[PathKey], tuple[tuple[Node, ...], frozenset[Side]]] = {}

    def cost(stops: list[Node]) -> int:
        return sum(board.stops[node].cost for node in stops)

    def go(coord: str, endpoint: Endpoint, stops: list[Node], used: list[PathKey],
           sides: frozenset[Side]) -> None:
        for path_index, (a, b) in enumerate(board.paths[coord]):
            if endpoint not in (a, b) or (coord, path_index) in used:
                continue
            ends = {(coord, point[1]) for point in (a, b) if point[0] == "edge"}
            if ends & sides:
                continue
            far = b if a == endpoint else a
            taken = used + [(coord, path_index)]
            now_sides = sides | ends
            if far[0] == "edge":
                neighbor = board.neighbors[coord].get(far[1])
                if neighbor in board.paths:
                    go(neighbor, ("edge", (far[1] + 3) % 6), stops, taken, now_sides)
            elif far[0] == "junction":
                go(coord, far, stops, taken, now_sides)
            else:
                node = (coord, far[0], far[1])
                if node in stops or cost(stops + [node]) > distance:
                    continue
                now = stops + [node]
                if any(board.has_station(corporation, stop) for stop in now):
                    found.setdefault(frozenset(taken), (tuple(now), now_sides))
                if board.passable(corporation, node):
                    go(coord, far, now, taken, now_sides)

    for start in board.stops:
        if cost([start]) <= distance:
            go(start[0], (start[1], start[2]), [start], [], frozenset())
    return [(stops, paths, sides) for paths, (stops, sides) in found.items()]


def run_value(game: BaseGame, board: PrintedBoard, corp: Corporation, train: Train, run: RefRun) -> int:
    """Printed values of the stops, then the title's per-run hooks."""
    stops, paths, _ = run
    total = sum(game.route_stop_revenue(corp, train, node, board.stops[node].revenue) for node in stops)
    bonuses = game.route_track_bonuses(corp, train)
    return total + sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in paths})


def _breaks_roles(game: BaseGame, board: PrintedBoard, corp: Corporation, stops: tuple[Node, ...]) -> bool:
    """The title's stop roles or the printed stop flags forbid this run."""
    roles = game.route_stop_roles(corp)
    if any(roles[end].never_end for end in (stops[0], stops[-1]) if end in roles):
        return True
    if any(board.stops[end].never_end for end in (stops[0], stops[-1])):
        return True
    areas = [roles[stop].area for stop in stops if stop in roles and roles[stop].area is not None]
    groups = [group for stop in stops for group in board.stops[stop].groups]
    return len(areas) != len(set(areas)) or len(groups) != len(set(groups))


def _attachment_bonus(game: BaseGame, board: PrintedBoard, corp: Corporation,
                      picked: Sequence[tuple[Train, tuple[Node, ...]]]) -> int:
    """The most the attachments add, each given to one train or none (value-only ones)."""
    attachments = game.route_attachments(corp)
    assert not any(a.distance_bonus or a.skips for a in attachments), "the reference values runs only"

    def worth(attachment: Any, train: Train, stops: tuple[Node, ...]) -> int:
        if attachment.trains is not None and train.id not in attachment.trains:
            return 0
        counted = sum(1 for node in stops if board.stops[node].cost > 0 and node not in attachment.no_stop_bonus)
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
    board = PrintedBoard(game)
    trains = list(corp.trains if trains is None else trains)
    by_distance: dict[int, list[RefRun]] = {}
    options: list[list[tuple[RefRun, int]]] = []
    for train in trains:
        runs = by_distance.setdefault(train.distance, reference_runs(board, corp.id, train.distance))
        options.append([(run, run_value(game, board, corp, train, run)) for run in runs])
    limits = game.route_end_limits(corp)
    best = 0
    picked: list[tuple[Train, RefRun, int]] = []

    def leaf() -> None:
        nonlocal best
        for hexes, most in limits:
            if sum(1 for _, (stops, _, _), _ in picked if stops[0][0] in hexes or stops[-1][0] in hexes) > most:
                return
        if any(_breaks_roles(game, board, corp, run[0]) for _, run, _ in picked):
            return
        bonus = _attachment_bonus(game, board, corp, [(train, run[0]) for train, run, _ in picked])
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


# --- the reference checked on its own ----------------------------------------------------------
DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURE = DATA / "fixtures" / "18Texas" / "65394.json"
GENERATED = sorted((DATA / "generated" / "18Texas").glob("*.json"))


def test_every_reference_run_is_legal_and_worth_the_same_to_the_engines_run_check() -> None:
    """Two separate computations agree on >1000 runs: the reference's walks and values, and
    the engine's own run check (engine/core/routes.py) given the same stops."""
    checked = 0
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        corp = state.corporations[action["entity"]]
        board = PrintedBoard(state)
        for train in {train.distance: train for train in corp.trains}.values():
            for run in reference_runs(board, corp.id, train.distance):
                engine = check_run(state.board, corp.id, list(run[0]), train.distance, state.colors_available())
                assert engine == run_value(state, board, corp, train, run), run[0]
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("log_path", GENERATED, ids=[path.stem for path in GENERATED])
def test_the_reference_values_every_logged_run_as_the_reference_site_did(log_path: Path) -> None:
    """Each run the reference site logged (stops, track and revenue) is one of the reference's
    runs, worth exactly the logged revenue."""
    runs = 0
    for state, action in run_positions(json.loads(log_path.read_text())):
        corp = state.corporations[action["entity"]]
        board = PrintedBoard(state)
        trains = {train.id: train for train in corp.trains}
        for route in action["routes"]:
            train = trains[route["train"]]
            hexes = {coord for chain in route["connections"] for coord in chain}
            stops = route["hexes"]
            matching = [run for run in reference_runs(board, corp.id, train.distance)
                        if [c for c, _, _ in run[0]] in (stops, stops[::-1]) and {c for c, _ in run[1]} == hexes]
            where = f"action {action['id']}: {corp.id} {train.id} {'-'.join(stops)}"
            assert matching, f"{where} is not among the reference's runs"
            assert {run_value(state, board, corp, train, run) for run in matching} == {route["revenue"]}, where
            runs += 1
    assert runs > 20

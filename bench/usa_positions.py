"""The run positions of the 18USA logs in tests/data, rebuilt on the board alone (for bench/router.py).

The 18USA game itself does not exist yet, so this is a board-only harness: the board is dealt
from the log's seed (red-area values, metropolises), every `lay_tile` is put on it in order,
and at each `run_routes` the stations are those the reference trace shows for every company
(so stations placed by home choices, mergers and closings are right too), each in the first city
of its hex with a free slot. The company runs the trains the trace gives it; a Pullman is an
attachment. No 18USA revenue hook is modelled except Mexico (one red area, at most two runs
ending there): the optimizer's figures are only compared with one another, not with the
revenue the players declared, which includes resource and token bonuses.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.core.board import Board
from engine.core.entities import Train
from engine.core.graph import Node
from engine.core.route_hooks import Attachment, EndLimit, StopRole
from engine.router import CoreRules, RouteProblem
from engine.titles.g18usa.board_setup import lay_metropolis_tiles, map_with_red_area_values
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import SETUP_OPTIONS, setup_from_seed

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
LOGS = [(DATA / "fixtures" / "18USA" / "109372.json", DATA / "traces" / "109372.jsonl.gz")] + [
    (path, path.parent / "traces" / f"{path.stem}.jsonl.gz")
    for path in sorted((DATA / "generated" / "18USA").glob("*.json"))]


class UsaLogRules(CoreRules):
    """Mexico as one location that at most two of a company's runs may end in; a Pullman."""

    def __init__(self, board: Board, pullman: bool) -> None:
        self.roles: dict[Node, StopRole] = {}
        mexico = set()
        for coord, state in board.hexes.items():
            for stop in state.tile.stops:
                groups = getattr(stop, "groups", ()) or ()
                if "Mexico" in groups:
                    self.roles[(coord, stop.kind, stop.index)] = StopRole(area="Mexico")
                    mexico.add(coord)
        self.limits: tuple[EndLimit, ...] = ((frozenset(mexico), 2),) if mexico else ()
        self.extras = (Attachment("pullman", stop_bonus=20),) if pullman else ()
        self.hooks = frozenset({"route_stop_roles", "route_end_limits", "route_attachments"})

    def stop_roles(self) -> dict[Node, StopRole]:
        return self.roles

    def end_limits(self) -> tuple[EndLimit, ...]:
        return self.limits

    def attachments(self) -> tuple[Attachment, ...]:
        return self.extras


def _train_name(train_id: str) -> str:
    return train_id.rsplit("-", 1)[0]


def _stations(board: Board, corps: list[dict[str, Any]]) -> None:
    for state in board.hexes.values():
        for slots in state.tokens:
            slots[:] = [None] * len(slots)
    for corp in corps:
        if corp.get("closed"):
            continue
        for coord in corp.get("tokens", []):
            state = board.hexes.get(coord)
            if state is None:
                continue
            for slots in state.tokens:
                if None in slots:
                    slots[slots.index(None)] = corp["id"]
                    break


def run_problems(log_path: Path, trace_path: Path) -> Iterator[tuple[int, RouteProblem, int]]:
    """(action id, the problem of the company about to run, the revenue it declared)."""
    data = load_data()
    distances = {raw["name"]: int(raw["distance"]) for raw in data["entities"]["trains"]}
    colors = {raw["name"]: tuple(raw["tiles"]) for raw in data["entities"]["phases"]}
    with gzip.open(trace_path, "rt") as handle:
        trace = [json.loads(line) for line in handle]
    head = trace[0]["setup"]
    setup = setup_from_seed(head["seed"], head["players"], SETUP_OPTIONS)
    board = Board(map_with_red_area_values(data["map"], setup), data["tiles"])
    lay_metropolis_tiles(board, setup)
    for position, action in enumerate(json.loads(log_path.read_text())["actions"]):
        if action["type"] == "lay_tile":
            name = action["tile"].rsplit("-", 1)[0]
            board.place_tile(action["hex"], board.tiles[name], action["tile"], action["rotation"])
        elif action["type"] == "run_routes" and action.get("routes"):
            before = trace[position]  # the state after the previous action
            _stations(board, before["corps"])
            corp = next(corp for corp in before["corps"] if corp["id"] == action["entity"])
            # The trains that ran (the trace may list a company's trains only after its run).
            ran = [route["train"] for route in action["routes"]]
            trains = tuple(Train(train_id, name, distances[name], 0, None) for train_id in ran
                           for name in [_train_name(train_id)] if distances.get(name, 0) > 0)
            pullman = "P" in corp["trains"] or any(_train_name(train_id) == "P" for train_id in ran)
            declared = sum(route["revenue"] for route in action["routes"])
            yield action["id"], RouteProblem(board, corp["id"], colors[str(before["phase"])], trains,
                                             UsaLogRules(board, pullman)), declared

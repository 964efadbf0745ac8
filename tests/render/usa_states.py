"""Real 18USA board positions for the render tests: fixture 109372's map replayed to an action.

The 18USA game class is not written yet, so positions come from the map replay of the engine
tests (`tests/engine/titles/g18usa/usa_map_replay.py`: every lay, station and marker checked by
the 18USA map rules), with what only the game knows taken from the reference trace: the phase,
who holds which private, the round. Replayed once per test session.
"""

from __future__ import annotations

import copy
import json
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tests" / "engine" / "titles" / "g18usa") not in sys.path:  # also for bench/
    sys.path.insert(0, str(ROOT / "tests" / "engine" / "titles" / "g18usa"))

from usa_logs import FIXTURE, trace_lines  # noqa: E402
from usa_map_replay import MapReplay  # noqa: E402

from engine import load_game  # noqa: E402
from engine.core.game import BaseGame  # noqa: E402
from engine.core.routes import Run, rebuild_run  # noqa: E402
from engine.titles.g18usa.usa_map import UsaMap  # noqa: E402
from render.cli import truncate_log  # noqa: E402
from render.from_usa_map import usa_map_view  # noqa: E402
from render.view import MapView  # noqa: E402

TRACE = ROOT / "tests" / "data" / "traces" / "109372.jsonl.gz"
# 18xx.games action ids of fixture 109372: the first stock round with subsidies still on the map
# (three companies started), the fourth operating round of phase 4 with bridges, P8's marker,
# resource tokens and a run, and the end of the game (phase 8).
USA_STATES: dict[str, int | None] = {"usa_early": 112, "usa_middle": 676, "usa_end": None}


@dataclass
class UsaPosition:
    umap: UsaMap
    line: dict[str, Any]  # the reference trace after the action
    last_hexes: list[str]
    runs: list[tuple[str, Run]]

    @property
    def phase(self) -> str:
        return str(self.line["phase"])

    def private_owners(self) -> dict[str, str]:
        return {company: corp["id"] for corp in self.line["corps"] for company in corp["companies"]}

    def caption(self) -> str:
        line = self.line
        number = f"{line['turn']}.{line['round_num']}" if line["round"] == "Operating Round" else str(line["turn"])
        return f"Phase {self.phase} \u2014 {line['round']} {number} \u2014 after action {line['id']}"

    def map_view(self) -> MapView:
        return usa_map_view(self.umap, self.phase, last_hexes=self.last_hexes, runs=self.runs,
                            private_owners=self.private_owners(), caption=self.caption())


class _Replay(MapReplay):
    """The map replay, keeping the last tile laid and the last runs as the game would."""

    def __init__(self, log: Path, trace: Path, wanted: set[int]) -> None:
        super().__init__(log, trace)
        self.wanted = wanted
        self.last_hexes: list[str] = []
        self.last_runs: list[tuple[str, Run]] = []
        self.snapshots: dict[int | None, UsaPosition] = {}

    def sync_tokens(self, action: dict[str, Any], after: dict[str, Any]) -> None:
        super().sync_tokens(action, after)
        if action["id"] in self.wanted:
            self.snapshots[action["id"]] = UsaPosition(copy.deepcopy(self.umap), after,
                                                       list(self.last_hexes), list(self.last_runs))

    def step(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        super().step(action, before, after)
        if action["type"] == "lay_tile":
            self.last_hexes = [str(action["hex"])]
        elif action["type"] == "run_routes":
            used: set[tuple[str, int]] = set()
            runs = []
            for route in action["routes"]:
                stops, paths = rebuild_run(self.umap.board, route["connections"], used)
                used.update(paths)
                runs.append((str(action["entity"]), Run(route["train"], tuple(stops), tuple(paths), (),
                                                        int(route["revenue"]))))
            self.last_runs = runs


@cache
def usa_positions() -> dict[int | None, UsaPosition]:
    """The board after each action id of USA_STATES (None: the whole log), from one replay."""
    wanted = {upto for upto in USA_STATES.values() if upto is not None}
    replay = _Replay(FIXTURE, TRACE, wanted)
    report = replay.run()
    assert not report.problems, report.problems[:3]
    replay.snapshots[None] = UsaPosition(replay.umap, replay.trace[-2], replay.last_hexes, replay.last_runs)
    return replay.snapshots


def usa_position(upto: int | None) -> UsaPosition:
    """The board after action id `upto` of USA_STATES. Shared: do not change it."""
    return usa_positions()[upto]


def trace_line(upto: int | None) -> dict[str, Any]:
    """The reference trace after action id `upto` (None: the last state)."""
    lines = [line for line in trace_lines(TRACE) if "id" in line]
    if upto is None:
        return lines[-1]
    return next(line for line in reversed(lines) if line["id"] <= upto)


@cache
def game_after(upto: int) -> BaseGame:
    """The 18USA game class's own position after action id `upto` of fixture 109372 (the game
    replays the fixture exactly only so far: see tests/engine/titles/g18usa/test_18usa_replay.py).
    Shared: do not change it."""
    log = json.loads(FIXTURE.read_text())
    return load_game(truncate_log(log, upto)).state

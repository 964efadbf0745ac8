"""The map part of the 13 18USA logs replayed with the 18USA map rules (rules 12.2-12.4, 13).

Every logged tile lay must be legal and cost exactly what the company paid in the reference
trace; every station must land where the trace has it; every run must rebuild on our board,
obey the run rules and be worth exactly its logged revenue.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from usa_logs import LOGS, read_log
from usa_map_replay import SITE_OPTIONS, MapReplay

from engine.errors import GameError
from engine.titles.g18usa.track import TrackTurn, check_lay

IDS = [log.stem for log, _ in LOGS]


def logged(log: Path, kind: str) -> int:
    return sum(1 for action in read_log(log)["actions"] if action["type"] == kind)


@pytest.mark.parametrize(("log", "trace"), LOGS, ids=IDS)
def test_every_lay_station_and_run_of_the_log_is_legal_and_exact(log: Path, trace: Path) -> None:
    report = MapReplay(log, trace, SITE_OPTIONS).run()
    assert report.problems == []
    assert report.lays == logged(log, "lay_tile")
    assert report.stations == logged(log, "place_token")
    assert report.runs == sum(len(a["routes"]) for a in read_log(log)["actions"] if a["type"] == "run_routes")
    assert report.unexplained == []
    assert report.runs_explained == report.runs


PROBES = [
    # (what, entity, hex, tile, rotation, phase, message part)
    ("green before phase 3", "corp", "C29", "14-0", 0, "2", "cannot be laid"),
    ("a city tile on plain track", "corp", "D26", "5-0", 0, "2", "cannot be laid"),
    ("plain track on a city", "corp", "C29", "7-0", 0, "2", "cannot be laid"),
    ("a private's tile without it", "corp", "C29", "X20-0", 0, "2", "only through P27"),
    ("New York without its stubs", "corp", "E27", "7-0", 0, "2", "legal rotations"),
    ("an unknown tile", "corp", "C29", "999-0", 0, "2", "no tile"),
    ("off the map", "corp", "Z99", "7-0", 0, "2", "not a hex"),
    ("a red area", "corp", "A27", "7-0", 0, "2", "no tile can be laid"),
]


@pytest.mark.parametrize("probe", PROBES, ids=[p[0] for p in PROBES])
def test_illegal_probes_at_the_start_of_fixture_109372_are_refused(probe: tuple[object, ...]) -> None:
    _, _, coord, tile, rotation, phase, message = probe
    log, trace = LOGS[0]
    replay = MapReplay(log, trace, SITE_OPTIONS)
    umap = replay.umap
    before = json.dumps({c: s.tile_id for c, s in umap.board.hexes.items()})
    # A company with a station in Boston and New York, so both are on its network.
    umap.board.hexes["C29"].tokens[0][0] = "PRR"
    umap.board.hexes["D28"].tokens[0][0] = "PRR"
    turn = TrackTurn("PRR", str(phase), home="C29", first_turn=True)
    with pytest.raises(GameError, match=str(message)):
        check_lay(umap, turn, "PRR", str(coord), str(tile), int(rotation))  # type: ignore[call-overload]
    assert json.dumps({c: s.tile_id for c, s in umap.board.hexes.items()}) == before

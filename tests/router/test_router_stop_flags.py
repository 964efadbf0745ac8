"""Stops the tiles themselves restrict (18USA's kinds), in both searches, against the reference.

18USA prints two run limits on its stops rather than through title hooks: a rural junction's
town `route_may_not_end_here` (a run passes through it but never starts or ends there) and an
off-board's `groups` (Mexico's six hexes are one location: a run stops in at most one of them).
Here such flags are printed onto random 18Texas positions, in the title's data (which the
brute-force reference reads) and on the board's tiles (which the optimizer and the engine read)
alike, and the optimizer must still equal the reference.
"""

from __future__ import annotations

import copy
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from test_router_reference import reference_best
from test_router_small import random_position

from engine import GameError
from engine.core.game import BaseGame
from engine.core.graph import reach_of
from engine.core.most_earnings import best_runs
from engine.core.tiles import StopDef
from engine.router_cli import run_positions

GROUP = "red area"
FIXTURE = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "18Texas" / "65394.json"


def _flagged(stop: StopDef, never_end: bool, group: bool) -> StopDef:
    return replace(stop, may_not_end_here=stop.may_not_end_here or never_end,
                   groups=stop.groups + ((GROUP,) if group else ()))


def flag_stops(state: BaseGame, corp_id: str, seed: int) -> tuple[set[str], set[str]]:
    """Print `route_may_not_end_here` on some towns the company reaches (among them those its
    unflagged best runs end at) and a shared group on some of its off-boards (among them those
    one of those runs stops at); returns (town hexes flagged, off-board hexes grouped).

    A laid tile's flag is printed on the tile kind, so every hex with that tile gets it."""
    rng = random.Random(seed)
    board = state.board
    plain = best_runs(copy.deepcopy(state), corp_id)
    state.data = copy.deepcopy(state.data)
    reach = reach_of(board, corp_id)
    towns = sorted({c for c, kind, _ in reach.nodes if kind == "town"})
    chosen = set(towns if seed % 3 == 0 else rng.sample(towns, k=min(len(towns), seed % 3)))
    chosen |= {c for run in plain.runs for c, kind, _ in (run.stops[0], run.stops[-1]) if kind == "town" and seed % 2}
    names = {board.hexes[c].tile.name for c in chosen if board.hexes[c].tile_laid}
    printed = {c for c in chosen if not board.hexes[c].tile_laid}
    offboards = sorted({c for c, kind, _ in reach.nodes if kind == "offboard"})
    grouped = set(offboards if seed % 4 == 0 else rng.sample(offboards, k=min(len(offboards), 2)))
    grouped |= {c for run in plain.runs[:1] for c, kind, _ in run.stops if kind == "offboard"}
    if len(grouped) < 2:
        grouped = set()
    for raw in state.data["tiles"]["tiles"]:
        if raw["name"] in names:
            for town in raw.get("towns", []):
                town["route_may_not_end_here"] = True
    for raw in state.data["map"]["hexes"]:
        if raw["coord"] in printed:
            for town in raw.get("towns", []):
                town["route_may_not_end_here"] = True
        if raw["coord"] in grouped:
            for offboard in raw.get("offboards", []):
                offboard["groups"] = [*offboard.get("groups", []), GROUP]
    flagged = set()
    for coord, here in board.hexes.items():
        never_end = (here.tile_laid and here.tile.name in names) or coord in printed
        group = coord in grouped
        if never_end or group:
            stops = tuple(_flagged(stop, never_end and stop.kind == "town", group and stop.kind == "offboard")
                          for stop in here.tile.stops)
            here.tile = replace(here.tile, stops=stops)
        if never_end and here.tile.towns:
            flagged.add(coord)
    return flagged, grouped


@pytest.mark.parametrize("seed", range(40))
def test_printed_stop_flags_equal_brute_force(seed: int) -> None:
    state, mover = random_position(seed, tiles=30 + seed % 16)
    flagged, grouped = flag_stops(state, mover, seed)
    corp = state.corporations[mover]
    expected = reference_best(state, corp)
    for method in ("listing", "model"):
        result = best_runs(state, corp, method=method, time_budget=20.0)
        assert result.proven_optimal and result.engine_disagreements == 0, method
        assert result.total == expected, method
        for run in result.runs:
            for end in (run.stops[0], run.stops[-1]):
                assert not (end[1] == "town" and end[0] in flagged)
            assert sum(1 for coord, _, _ in run.stops if coord in grouped) <= 1


def test_flags_change_the_answer_somewhere() -> None:
    """The flags above are not idle: on some positions the best answer with them earns less."""
    lower = 0
    for seed in range(40):
        state, mover = random_position(seed, tiles=30 + seed % 16)
        before = best_runs(copy.deepcopy(state), mover).total
        flag_stops(state, mover, seed)
        after = best_runs(state, mover).total
        assert after <= before
        lower += after < before
    assert lower >= 10


def test_the_engine_refuses_a_run_ending_at_a_flagged_stop() -> None:
    """The core run check reads the same flags, so the optimizer and the engine agree."""
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        answer = best_runs(state, action["entity"])
        ends = {run.stops[-1] for run in answer.runs if run.stops[-1][1] == "town"}
        if not ends:
            continue
        trial = copy.deepcopy(state)
        end = sorted(ends)[0]
        here = trial.board.hexes[end[0]]
        here.tile = replace(here.tile, stops=tuple(_flagged(s, s.kind == "town", False) for s in here.tile.stops))
        trial.importing = False
        with pytest.raises(GameError, match="not start or end"):
            trial.process(answer.to_action(action["entity"]))
        return
    pytest.fail("no logged position had a best run ending at a town")

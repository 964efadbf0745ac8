"""The route optimizer checked inside random play (for the random-play benches, not a test).

Random play asks `best_runs(state, corp, time_budget=1.0)` for every run, as the bot's proposal
does. With a check switched on (`OptimizerCheck`, `checking`), every such answer that is not
proven optimal is solved again with a long budget (`LONG_BUDGET`), and every answer on a network
small enough for the brute-force reference (`tests/router/test_router_reference.py`) is compared
with it. A 1 s answer below the better one is counted and printed; on a small network it is a finding,
and the position is kept as a JSON log in tests/data/positions/ (the game's document up to that
point, `load_game` or `usa_positions.kept_position` replays it). On a large network the 1 s
answer is the best found in its time, as designed: those positions are kept only where
`large_dir` says (random play is seeded, so the seed and the action count rebuild them too).
A small network left unproven is counted too (it should be proven in well under a second).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.core.entities import Corporation
from engine.core.game import BaseGame
from engine.core.graph import reach_of
from engine.core.most_earnings import best_runs
from engine.router import RouteResult

ROUTER_TESTS = Path(__file__).resolve().parent / "router"  # the brute-force reference
if str(ROUTER_TESTS) not in sys.path:
    sys.path.append(str(ROUTER_TESTS))

LONG_BUDGET = 20.0  # seconds for the second solve of an unproven answer
# A network the brute force lists in about a second at most: track paths the company reaches,
# runnable trains, and their length past `SHORT_PATHS` paths (measured on deep 18USA random play:
# 107 paths and three trains up to a 4+ in 0.5 s; it grows with all three).
SMALL_PATHS = 120
SMALL_TRAINS = 3
SHORT_TRAIN = 5
SHORT_PATHS = 60
KEEP = Path(__file__).resolve().parent / "data" / "positions"


@dataclass
class Finding:
    where: str
    corporation: str
    fast: int  # the 1 s answer
    better: int  # the brute force's or the long solve's
    how: str  # "brute force" or "20 s solve"
    seconds: float  # the 1 s call's wall time
    cpu: float  # and its CPU time
    paths: int
    kept: str | None


@dataclass
class OptimizerCheck:
    """What the check saw over the games it watched."""

    keep_dir: Path | None = KEEP  # for findings on small networks
    large_dir: Path | None = None  # for the others
    label: str = ""  # a name for kept positions: the bench, title and options
    calls: int = 0
    unproven: int = 0
    brute_forced: int = 0
    long_solved: int = 0
    small_unproven: list[str] = field(default_factory=list)
    brute_failed: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    slowest_small: tuple[float, str] = (0.0, "")  # wall seconds of the slowest small network's call
    slowest_brute: tuple[float, str] = (0.0, "")
    kept_turns: set[tuple[str, str]] = field(default_factory=set)  # (round, company): one position a turn
    # The better answer of each turn's runs: the run after an upgrade is attached asks again (same
    # track and trains), and an unproven answer equal to the one before is not solved again.
    solved_turns: dict[tuple[str, str, int], int] = field(default_factory=dict)

    def check(self, state: BaseGame, corp: Corporation, result: RouteResult, seconds: float, cpu: float) -> None:
        self.calls += 1
        reach = reach_of(state.board, corp.id)
        paths = len(reach.paths)
        runners = [train for train in corp.trains if train.distance > 0]
        where = (f"{type(state).TITLE} seed {state.seed}, action {len(state.raw_actions)}, "
                 f"{state.round_title()}, {corp.id} {[t.name for t in corp.trains]}, {paths} paths")
        longest = max((train.distance for train in runners), default=0)
        small = paths <= SMALL_PATHS and len(runners) <= SMALL_TRAINS and (longest <= SHORT_TRAIN or paths <= SHORT_PATHS)
        if not result.proven_optimal:
            self.unproven += 1
        if small:
            if seconds > self.slowest_small[0]:
                self.slowest_small = (seconds, f"{where}: {seconds:.2f} s wall, {cpu:.2f} s CPU, {result.method}")
            if not result.proven_optimal:
                self.small_unproven.append(f"{where}: {seconds:.2f} s wall, {cpu:.2f} s CPU, {result.method}, "
                                           f"${result.total}")
        if small and brute_force_applies(state, corp):
            self.brute_forced += 1
            began = time.perf_counter()
            try:
                better, how = brute_force(state, corp), "brute force"
            except Exception as error:  # noqa: BLE001 - the reference's own gap: reported, the game goes on
                self.brute_failed.append(f"{where}: {error!r}")
                print(f"    the brute force failed at {where}: {error!r}", flush=True)
                return
            if time.perf_counter() - began > self.slowest_brute[0]:
                self.slowest_brute = (time.perf_counter() - began, where)
        elif not result.proven_optimal:
            turn = (f"{state.seed} {state.round_title()}", corp.id, result.total)
            how = f"{LONG_BUDGET:.0f} s solve"
            if turn in self.solved_turns:
                better = self.solved_turns[turn]
            else:
                self.long_solved += 1
                better = self.solved_turns[turn] = best_runs(state.snapshot(), corp.id, time_budget=LONG_BUDGET).total
        else:
            return
        if better > result.total:
            kept = self.keep(self.keep_dir if small else self.large_dir, state, corp, result.total, better, how)
            self.findings.append(Finding(where, corp.id, result.total, better, how, seconds, cpu, paths, kept))
            print(f"    optimizer below the {how}: ${result.total} < ${better} at {where} "
                  f"({seconds:.2f} s wall, {cpu:.2f} s CPU, {result.method}, proven {result.proven_optimal}); "
                  f"kept {kept}", flush=True)

    def keep(self, folder: Path | None, state: BaseGame, corp: Corporation, fast: int, better: int,
             how: str) -> str | None:
        turn = (f"{state.seed} {state.round_title()}", corp.id)
        if folder is None or turn in self.kept_turns:
            return None  # the same turn once more, after an attachment chosen
        self.kept_turns.add(turn)
        options = "_".join(sorted(state.options))
        if len(options) > 40:  # the site's reading is many options: a digest of them
            options = hashlib.sha1(options.encode()).hexdigest()[:8]
        name = f"optimizer_{type(state).TITLE.lower()}_{state.seed}{'_' + options if options else ''}_" \
               f"{len(state.raw_actions)}_{corp.id}"
        name = "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in name)
        load = os.getloadavg()[0]
        document = {
            "title": type(state).TITLE,
            "players": [{"id": p.id, "name": p.name} for p in state.players],
            "settings": {"seed": state.seed},
            "stationmaster": {"rule_options": sorted(state.options)},
            "description": f"Random play ({self.label}) up to {corp.id}'s run in {state.round_title()}: "
                           f"best_runs with a 1 s budget answered ${fast}, the {how} ${better} "
                           f"(load average {load:.1f}).",
            "actions": list(state.raw_actions),
        }
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}.json").write_text(json.dumps(document, separators=(",", ":")))
        return name

    def summary(self) -> str:
        lines = [f"optimizer check: {self.calls} calls, {self.unproven} unproven, {self.brute_forced} "
                 f"brute-forced, {self.long_solved} solved again for {LONG_BUDGET:.0f} s, "
                 f"{len(self.findings)} below the better answer, {len(self.small_unproven)} small networks unproven",
                 f"  slowest small network: {self.slowest_small[1] or 'none'}",
                 f"  slowest brute force: {self.slowest_brute[0]:.2f} s at {self.slowest_brute[1] or 'none'}"]
        lines += [f"  small unproven: {line}" for line in self.small_unproven[:10]]
        lines += [f"  brute force failed: {line}" for line in self.brute_failed[:10]]
        lines += [f"  below: ${f.fast} < ${f.better} ({f.how}) at {f.where}, {f.seconds:.2f} s wall, "
                  f"{f.cpu:.2f} s CPU, kept {f.kept}" for f in self.findings]
        return "\n".join(lines)


CHECK: OptimizerCheck | None = None


@contextmanager
def checking(check: OptimizerCheck) -> Iterator[OptimizerCheck]:
    """Check every random-play run proposal made inside the block."""
    global CHECK
    previous, CHECK = CHECK, check
    try:
        yield check
    finally:
        CHECK = previous


@contextmanager
def bench_check(enabled: bool, label: str) -> Iterator[OptimizerCheck | None]:
    """A bench's `--check-optimizer`: the check on inside the block when asked for, its summary
    printed at the end."""
    if not enabled:
        yield None
        return
    large = os.environ.get("STATIONMASTER_KEEP_LARGE")  # a folder for large networks' positions
    with checking(OptimizerCheck(label=label, large_dir=Path(large) if large else None)) as check:
        try:
            yield check
        finally:
            print(check.summary(), flush=True)


def proposed_runs(state: BaseGame, corp: Corporation | str, time_budget: float = 1.0) -> RouteResult:
    """`best_runs` as random play asks it (the bot's proposal), checked when a check is on."""
    corporation = state.corporation(corp) if isinstance(corp, str) else corp
    began, cpu = time.perf_counter(), time.process_time()
    result = best_runs(state, corporation, time_budget=time_budget)
    seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
    if CHECK is not None:
        CHECK.check(state, corporation, result, seconds, cpu)
    return result


# --- the brute force ------------------------------------------------------------------------------
def brute_force_applies(state: BaseGame, corp: Corporation) -> bool:
    """The reference values runs only: no switcher or extender (an upgrade changing distance)."""
    return not any(attachment.changes_distance for attachment in state.route_attachments(corp))


def _usa_data(state: BaseGame) -> dict[str, Any]:
    """The red areas' dealt values (P6's token where it lies) and the rural junctions."""
    from engine.titles.g18usa.board_setup import map_with_red_area_values
    from engine.titles.g18usa.stations import VALUE_TOKEN
    from engine.titles.g18usa.usa_map import rural_junction_tiles

    dealt = map_with_red_area_values(state.data["map"], state.usa)  # type: ignore[attr-defined]
    tokens = dealt["randomized_setup"]["red_area_value_tokens"]
    p6 = dict(zip(tokens["value_colors"], tokens["p6_token"], strict=True))
    revalued = {coord for coord, here in state.board.hexes.items() if here.markers_of(VALUE_TOKEN)}
    revalued = {coord for start in revalued for coord in state.umap.red_area_hexes(start)}  # type: ignore[attr-defined]
    hexes = []
    for raw in dealt["hexes"]:
        if raw["coord"] in revalued:
            raw = {**raw, "offboards": [stop | {"revenue": p6} for stop in raw.get("offboards", [])],
                   "towns": [stop | {"revenue": p6} for stop in raw.get("towns", [])]}
        hexes.append(raw)
    return {**state.data, "map": {**dealt, "hexes": hexes},
            "tiles": rural_junction_tiles(state.data["tiles"], state.options)}


# The title's data as the reference reads it after setup (what setup deals onto the printed map).
PRINTED_AFTER_SETUP: dict[str, Callable[[BaseGame], dict[str, Any]]] = {"18USA": _usa_data}


def brute_force(state: BaseGame, corp: Corporation) -> int:
    from test_router_reference import reference_best

    trial = state.snapshot()
    prepare = PRINTED_AFTER_SETUP.get(type(state).TITLE)
    if prepare is not None:
        trial.data = prepare(trial)
    mine = trial.corporation(corp.id)
    return reference_best(trial, mine, [train for train in mine.trains if train.distance > 0])

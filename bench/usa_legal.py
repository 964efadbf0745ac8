"""How long 18USA's legal-moves query takes along every 18USA log (run by hand, not a test).

    python bench/usa_legal.py [--every N] [--game-only | --board-only] [--cold] [--again]
                              [--profile] [LOG-STEM ...]

Two harnesses, because the 18USA game class does not replay every log to its end yet:
* board: the map part of each log replayed on the board alone (tests' `usa_map_replay.py`: the
  board dealt from the seed, every lay, station and marker applied, ownership from the reference
  trace). Before every lay_tile and place_token of an operating company (every Nth with
  --every), the company's legal lays (`legal_lays`), its legal stations (`legal_stations`) and
  the two together (the map part of its legal-move set); with --again, both once more in the
  same position (answers kept per position).
* game: the 18USA game class on each log as far as it follows the reference; before every
  action, `engine.legal.legal_moves` (the whole legal-move set of whoever acts).
Prints p50, p95 and max milliseconds per query kind, over all positions of all logs, by the wall
clock and by the process's CPU time.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "engine" / "titles" / "g18usa")]

from usa_logs import LOGS, read_log  # noqa: E402
from usa_map_replay import SITE_OPTIONS, MapReplay  # noqa: E402

from engine import GameError  # noqa: E402
from engine.legal import legal_moves  # noqa: E402
from engine.log import SITE_RULES, document_options, new_game  # noqa: E402
from engine.titles.g18usa.stations import legal_stations  # noqa: E402
from engine.titles.g18usa.track import legal_lays  # noqa: E402
from engine.titles.g18usa.usa_map import forget_geometry  # noqa: E402

Times = dict[str, list[tuple[float, float]]]


def timed(query: Callable[[], object]) -> tuple[float, float]:
    """(wall clock, this process's CPU) seconds of one call; the CPU time is what other
    programs on the machine disturb less."""
    wall, cpu = time.perf_counter(), time.process_time()
    query()
    return time.perf_counter() - wall, time.process_time() - cpu


class TimedReplay(MapReplay):
    """The board-only replay, timing the map queries before each lay and station."""

    def __init__(self, log_path: Path, trace_path: Path, every: int, times: Times, again: bool,
                 cold: bool) -> None:
        super().__init__(log_path, trace_path, SITE_OPTIONS)
        self.every = every
        self.again = again
        self.cold = cold
        self.times = times
        self.seen = 0

    def step(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        if action["type"] in ("lay_tile", "place_token") and before["round"] == "Operating Round":
            self.seen += 1
            if self.seen % self.every == 0:
                self.measure(action, before)
        super().step(action, before, after)

    def measure(self, action: dict[str, Any], before: dict[str, Any]) -> None:
        entity = str(action["entity"])
        corp_id = str(action.get("tokener") or (
            entity if action["entity_type"] == "corporation" else self.owner_of(before, entity)))
        turn = self.track_turn(before, corp_id)
        if self.cold:
            forget_geometry()
        lays = timed(lambda: legal_lays(self.umap, turn))
        stations = timed(lambda: legal_stations(self.umap, corp_id))
        self.times["board: legal lays"].append(lays)
        self.times["board: legal stations"].append(stations)
        self.times["board: lays + stations"].append((lays[0] + stations[0], lays[1] + stations[1]))
        if self.again:
            self.times["board: lays + stations again"].append(
                timed(lambda: (legal_lays(self.umap, turn), legal_stations(self.umap, corp_id))))


def board_positions(logs: list[tuple[Path, Path]], every: int, times: Times, again: bool,
                    cold: bool) -> None:
    for log_path, trace_path in logs:
        start = time.perf_counter()
        replay = TimedReplay(log_path, trace_path, every, times, again, cold)
        replay.run()
        print(f"  board {log_path.stem}: {replay.seen // every} positions, "
              f"{time.perf_counter() - start:.1f} s", flush=True)


def game_positions(logs: list[tuple[Path, Path]], every: int, times: Times) -> None:
    for log_path, _ in logs:
        log = read_log(log_path)
        game = new_game(log["title"], log["players"], log["settings"]["seed"],
                        document_options(log) or [SITE_RULES])
        state = game.state
        state.importing = True
        measured = 0
        for index, action in enumerate(log["actions"]):
            if index % every == 0:
                times["game: legal moves"].append(timed(partial(legal_moves, state)))
                measured += 1
            try:
                state.apply(action)
            except GameError:
                break
        print(f"  game {log_path.stem}: {measured} positions (stopped at action {index})", flush=True)


def percentiles(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"p50 {statistics.median(ordered) * 1000:6.2f}  p95 {p95 * 1000:6.2f}  "
            f"max {ordered[-1] * 1000:7.2f} ms")


def report(times: Times) -> None:
    for kind, values in times.items():
        if values:
            print(f"{kind:30} n={len(values):5}  wall {percentiles([v[0] for v in values])}   "
                  f"cpu {percentiles([v[1] for v in values])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--every", type=int, default=1, help="time every Nth position")
    parser.add_argument("--game-only", action="store_true")
    parser.add_argument("--board-only", action="store_true")
    parser.add_argument("--profile", action="store_true", help="print the top of a cProfile")
    parser.add_argument("--cold", action="store_true",
                        help="forget the rotations kept for the process before each board query, as "
                             "in a process that has not seen an 18USA game yet")
    parser.add_argument("--again", action="store_true",
                        help="also time a second query in each board position (the kept answer)")
    parser.add_argument("logs", nargs="*", help="log stems (default: all 13)")
    args = parser.parse_args()
    logs = [(log, trace) for log, trace in LOGS if not args.logs or log.stem in args.logs]
    times: Times = {"board: legal lays": [], "board: legal stations": [], "board: lays + stations": [],
                    "board: lays + stations again": [], "game: legal moves": []}
    profile = cProfile.Profile() if args.profile else None
    if profile:
        profile.enable()
    if not args.game_only:
        board_positions(logs, args.every, times, args.again, args.cold)
    if not args.board_only:
        game_positions(logs, args.every, times)
    if profile:
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
    report(times)


if __name__ == "__main__":
    main()

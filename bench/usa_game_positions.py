"""The run positions of the 18USA logs as the game class reaches them (for bench/router.py).

Unlike bench/usa_positions.py (the board alone, Mexico and the Pullman as its only rules), each
log (all 166: the shared logs and the larger corpus of issue 29) is replayed through the real
18USA game, as tests/engine/titles/g18usa/usa_tracecheck.py does, and before each `run_routes`
the optimizer answers for the game as it stands: the title's own route hooks (red areas by
phase, tokens, resources, privates, attachments already chosen) and the engine's run check of
its answer. A log is followed until the game first refuses one of its actions (where our engine
still differs from the reference), so the positions are only those the game really reaches.

A position whose answer is not proven or earns less than the players' runs is searched again as
the bot's follow-up does after such a proposal: from a fresh copy of the game, for at most
--follow-up seconds (default 20). They are listed in one table: log, action, company, trains,
found, declared (what the logged routes earned), the follow-up's answer and whether it is
proven, its bound (the most the trains could earn: the answer when proven, else the search's
bound, "?" if it reached none), the proposal's and the follow-up's wall and CPU seconds.

    python bench/usa_game_positions.py [--budget S] [--follow-up S] [--jobs N] [LOG-NAME-SUFFIX ...]
"""

from __future__ import annotations

import copy
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "engine" / "titles" / "g18usa"))

from usa_logs import ALL_LOGS, read_log  # noqa: E402
from usa_tracecheck import start  # noqa: E402

from engine import GameError  # noqa: E402
from engine.core.most_earnings import best_runs  # noqa: E402
from engine.router import RouteResult  # noqa: E402


@dataclass(frozen=True)
class Timed:
    action: int  # index of the run_routes action in the log
    corporation: str
    declared: int  # what the players' runs earned
    result: RouteResult
    wall: float
    cpu: float
    trains: str = ""  # the company's trains by distance, "8+6"
    follow_up: RouteResult | None = None  # the longer search after a listed proposal
    follow_up_wall: float = 0.0
    follow_up_cpu: float = 0.0

    @property
    def listed(self) -> bool:
        return self.result.total < self.declared or not self.result.proven_optimal


def game_positions(log_path: Path, budget: float, follow_up: float = 20.0) -> Iterator[Timed]:
    """Each run position the game reaches in this log, solved within `budget` seconds."""
    log = read_log(log_path)
    game = start(log)
    for index, action in enumerate(log["actions"]):
        if action["type"] == "run_routes" and action.get("routes"):
            entity = str(action["entity"])
            started, used = time.perf_counter(), time.process_time()
            result = best_runs(game, entity, time_budget=budget)
            wall, cpu = time.perf_counter() - started, time.process_time() - used
            declared = sum(int(route.get("revenue") or 0) for route in action["routes"])
            trains = "+".join(str(train.distance) for train in sorted(
                game.corporation(entity).trains, key=lambda train: -train.distance) if train.distance)
            timed = Timed(index, entity, declared, result, wall, cpu, trains)
            if timed.listed:
                fresh = copy.deepcopy(game)
                started, used = time.perf_counter(), time.process_time()
                longer = best_runs(fresh, entity, time_budget=follow_up)
                timed = replace(timed, follow_up=longer, follow_up_wall=time.perf_counter() - started,
                                follow_up_cpu=time.process_time() - used)
            yield timed
        try:
            game.apply(action)
        except GameError:
            return


def main() -> None:
    args = sys.argv[1:]
    options = ("--budget", "--follow-up", "--jobs")
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    follow_up = float(args[args.index("--follow-up") + 1]) if "--follow-up" in args else 20.0
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 1
    wanted = [arg for index, arg in enumerate(args) if not arg.startswith("--")
              and (index == 0 or args[index - 1] not in options)]
    time_game_logs(budget, wanted, follow_up, jobs)


def _log_positions(job: tuple[Path, float, float]) -> tuple[str, list[Timed]]:
    log_path, budget, follow_up = job
    return log_path.stem, list(game_positions(log_path, budget, follow_up))


def _bound(item: Timed) -> str:
    """The most the trains could earn, as far as the searches know."""
    if item.result.proven_optimal:
        return str(item.result.total)
    longer = item.follow_up
    if longer is not None and longer.proven_optimal:
        return str(longer.total)
    bounds = [found.bound for found in (item.result, longer) if found is not None and found.bound is not None]
    return str(min(bounds)) if bounds else "?"


def time_game_logs(budget: float, wanted: list[str] | None = None, follow_up: float = 20.0,
                   jobs: int = 1) -> None:
    """Print the figures of each log and of all of them, then the table of the positions not
    proven or below the players' revenue with their follow-ups."""
    sys.path.insert(0, str(ROOT / "bench"))
    from router import line, percentile

    paths = [log_path for log_path, _ in ALL_LOGS
             if not wanted or any(log_path.stem.endswith(name) for name in wanted)]
    work = [(path, budget, follow_up) for path in paths]
    everything: list[tuple[str, Timed]] = []
    with Pool(jobs) as pool:
        for stem, timed in pool.imap(_log_positions, work):
            if not timed:
                continue
            proven = sum(item.result.proven_optimal for item in timed)
            print(line(f"18USA game {stem}", [t.wall for t in timed], proven, [t.cpu for t in timed]),
                  flush=True)
            everything += [(stem, item) for item in timed]
    if not everything:
        return
    listed = [(name, item) for name, item in everything if item.listed]
    if listed:
        print(f"{'log':26s} {'action':>6s} {'company':7s} {'trains':9s} {'found':>5s} {'declared':>8s} "
              f"{'later':>5s} {'proven':6s} {'bound':>5s} {'wall s':>6s} {'cpu s':>6s} "
              f"{'later wall':>10s} {'later cpu':>9s}")
        for name, item in listed:
            longer = item.follow_up
            later = "-" if longer is None else str(longer.total)
            proven_later = "-" if longer is None else ("yes" if longer.proven_optimal else "no")
            print(f"{name:26s} {item.action:6d} {item.corporation:7s} {item.trains:9s} {item.result.total:5d} "
                  f"{item.declared:8d} {later:>5s} {proven_later:6s} {_bound(item):>5s} "
                  f"{item.wall:6.3f} {item.cpu:6.3f} {item.follow_up_wall:10.3f} {item.follow_up_cpu:9.3f}",
                  flush=True)
    timed = [item for _, item in everything]
    proven = sum(item.result.proven_optimal for item in timed)
    below = sum(item.result.total < item.declared for item in timed)
    print(line(f"all 18USA game positions (budget {budget} s)", [t.wall for t in timed], proven,
               [t.cpu for t in timed]) + f"  below the players' revenue: {below}", flush=True)
    followed = [item for _, item in listed if item.follow_up is not None]
    if followed:
        closed = [item for item in followed if item.follow_up is not None and item.follow_up.proven_optimal]
        below_later = sum(item.follow_up is not None and item.follow_up.total < item.declared for item in followed)
        walls = [item.follow_up_wall for item in closed] or [0.0]
        print(f"follow-ups ({follow_up} s): {len(closed)}/{len(followed)} proven, wall of the proven "
              f"p50 {percentile(walls, 0.5):.2f} s max {max(walls):.2f} s; below the players' revenue: "
              f"{below_later}", flush=True)
    share = 100.0 * proven / len(timed)
    print(f"proven within the budget: {share:.2f}% of {len(timed)} positions", flush=True)


if __name__ == "__main__":
    main()

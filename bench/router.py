"""Seconds the route optimizer takes (run by hand, not a test).

    python bench/router.py [--warm] [--dense N] [--budget S] [--jobs N] [--no-logs] [--no-kept]
                           [--no-usa] [--board-usa] [LOG.json ...]

Logs (default: the real and generated 18Texas games in tests/data, the larger corpus included): every logged run position,
cold (each position on a fresh copy of the game, so no cache) unless --warm. Then the positions
random play kept in tests/data/positions whose company may attach P19's switcher or P30's
extender (each the best of three cold runs; the listing search proves them). Then every run
position the 18USA game reaches in the 18USA logs, with the title's own hooks and run check
(bench/usa_game_positions.py: all 166 logs, N at a time with --jobs N, each position not proven
followed by the bot's 20 s follow-up search); with --board-usa also every logged run position rebuilt on the
board alone (bench/usa_positions.py, the logs' later positions too). Then N dense
positions of each kind (default 3), under the time budget (default 2 s), each with 8+8 trains and
with 6+6 and a Pullman, hooks on (resource bonuses, bonus tokens, an end limit, a red area of
several hexes):
* synthetic (bench/dense_position.py): about 200 hexes of brown and gray track;
* the real 18USA map (bench/dense_usa.py): every hex that takes tiles tiled brown or gray.
Prints p50, p95 and max seconds (wall clock, and the process's CPU time, which other programs
on the machine disturb less), how many answers were proven optimal, and the peak memory.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import resource
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dense_position import COMPANY, dense_board  # noqa: E402
from dense_usa import COMPANY as USA_COMPANY  # noqa: E402
from dense_usa import MEXICO, dense_usa_board  # noqa: E402

from engine import GameError  # noqa: E402
from engine.core.entities import Train  # noqa: E402
from engine.core.graph import Node  # noqa: E402
from engine.core.most_earnings import best_runs  # noqa: E402
from engine.core.route_hooks import Attachment, EndLimit, StopRole  # noqa: E402
from engine.legal import legal_moves  # noqa: E402
from engine.log import load_game  # noqa: E402
from engine.router import CoreRules, RouteProblem, solve_problem  # noqa: E402
from engine.router_cli import run_positions  # noqa: E402

DATA = ROOT / "tests" / "data"
DEFAULT_LOGS = [*sorted((DATA / "fixtures" / "18Texas").glob("*.json")),
                *sorted((DATA / "generated" / "18Texas").glob("*.json")),
                *sorted((DATA / "generated" / "18Texas-more").glob("*.json"))]
ALL_COLORS = ("yellow", "green", "brown", "gray")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def line(label: str, seconds: list[float], proven: int, cpu: list[float] | None = None) -> str:
    text = (f"{label:34s} {len(seconds):4d} runs  p50 {statistics.median(seconds):.4f} s  "
            f"p95 {percentile(seconds, 0.95):.4f} s  max {max(seconds):.4f} s  "
            f"proven {proven}/{len(seconds)}")
    if cpu:
        text += (f"  (cpu p50 {statistics.median(cpu):.4f} p95 {percentile(cpu, 0.95):.4f} "
                 f"max {max(cpu):.4f})")
    return text


def time_log(path: Path, warm: bool) -> tuple[list[float], list[float], int]:
    seconds, cpu = [], []
    proven = 0
    for state, action in run_positions(json.loads(path.read_text())):
        position = state if warm else copy.deepcopy(state)
        started, used = time.perf_counter(), time.process_time()
        result = best_runs(position, action["entity"])
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        proven += result.proven_optimal
    return seconds, cpu, proven


def time_kept_upgrades(budget: float) -> None:
    """The kept 18USA positions with a switcher or an extender to attach, each the best of three
    cold searches (wall and CPU seconds)."""
    seconds, cpu = [], []
    proven = 0
    for path in sorted((DATA / "positions").glob("*.json")):
        try:
            state = load_game(json.loads(path.read_text())).state
        except GameError as refused:  # a stale kept position (tests/kept_positions.py)
            print(f"  {path.stem[:58]:58s} no longer replays: {str(refused)[:60]}")
            continue
        state.importing = False
        move = next((m for m in legal_moves(state) if m["type"] == "run_routes"), None)
        if move is None:
            continue
        corp = state.corporations[str(move["entity"])]
        if not any(attachment.changes_distance for attachment in state.route_attachments(corp)):
            continue
        tries = []
        for _ in range(3):
            position = copy.deepcopy(state)
            started, used = time.perf_counter(), time.process_time()
            result = best_runs(position, corp.id, time_budget=budget)
            tries.append((time.perf_counter() - started, time.process_time() - used, result))
        wall, used_cpu, result = min(tries, key=lambda found: found[0])
        print(f"  {path.stem[:58]:58s} {corp.id:4s} ${result.total:4d} {result.method:7s} "
              f"{'proven' if result.proven_optimal else 'open  '} {wall:.4f} s (cpu {used_cpu:.4f})")
        seconds.append(wall)
        cpu.append(used_cpu)
        proven += result.proven_optimal
    if seconds:
        print(line("kept switcher/extender positions", seconds, proven, cpu), flush=True)


class DenseRules(CoreRules):
    """18USA-style hooks on the dense position: resources, bonus tokens, Mexico-like limits."""

    def __init__(self, board: object, seed: int) -> None:
        hexes = sorted(board.hexes)  # type: ignore[attr-defined]
        plain = [c for c in hexes if board.hexes[c].tile.junction]  # type: ignore[attr-defined]
        reds = [c for c in hexes if board.hexes[c].hexdef.color == "red"]  # type: ignore[attr-defined]
        self.resources = {coord: 10 + 10 * (i % 2) for i, coord in enumerate(plain[seed::9])}
        self.bonus = {coord: 10 for coord in hexes[seed::17]}
        self.limits: tuple[EndLimit, ...] = ((frozenset(reds[:3]), 2),)
        self.roles = {(coord, "offboard", 0): StopRole(area="south") for coord in reds[:2]}
        self.extras: tuple[Attachment, ...] = ()
        self.hooks = frozenset({"route_stop_revenue", "route_track_bonuses", "route_stop_roles",
                                "route_end_limits", "route_attachments"})

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int:
        return printed + self.bonus.get(stop[0], 0)

    def track_bonuses(self, train: Train) -> dict[str, int]:
        return self.resources

    def stop_roles(self) -> Mapping[Node, StopRole]:
        return self.roles

    def end_limits(self) -> tuple[EndLimit, ...]:
        return self.limits

    def attachments(self) -> tuple[Attachment, ...]:
        return self.extras


class UsaRules(DenseRules):
    """The hooks on the real map: Mexico one red area whose hexes end at most two runs."""

    def __init__(self, board: object, seed: int) -> None:
        super().__init__(board, seed)
        hexes = sorted(board.hexes)  # type: ignore[attr-defined]
        plain = [c for c in hexes if board.hexes[c].tile.junction]  # type: ignore[attr-defined]
        self.resources = {coord: 10 + 10 * (i % 2) for i, coord in enumerate(plain[seed % 7::7])}
        mexico = [coord for coord in MEXICO if coord in board.hexes]  # type: ignore[attr-defined]
        self.limits = ((frozenset(mexico), 2),)
        self.roles = {(coord, "offboard", 0): StopRole(area="Mexico") for coord in mexico}


def _pair(label: str, board: Any, company: str, rules: type[DenseRules], seed: int) -> list[tuple[str, RouteProblem]]:
    eights = (Train("8-0", "8", 8, 0, None), Train("8-1", "8", 8, 0, None))
    sixes = (Train("6-0", "6", 6, 0, None), Train("6-1", "6", 6, 0, None))
    with_pullman = rules(board, seed)
    with_pullman.extras = (Attachment("pullman", stop_bonus=20),)
    return [(f"{label} {seed} 8+8", RouteProblem(board, company, ALL_COLORS, eights, rules(board, seed))),
            (f"{label} {seed} 6+6+Pullman", RouteProblem(board, company, ALL_COLORS, sixes, with_pullman))]


def dense_problems(count: int) -> list[tuple[str, RouteProblem]]:
    problems = []
    for seed in range(1, count + 1):
        problems += _pair("dense", dense_board(seed), COMPANY, DenseRules, seed)
    return problems


def usa_problems(count: int) -> list[tuple[str, RouteProblem]]:
    problems = []
    for seed in range(1, count + 1):
        problems += _pair("dense 18USA", dense_usa_board(seed), USA_COMPANY, UsaRules, seed)
    return problems


def time_problems(title: str, problems: list[tuple[str, RouteProblem]], budget: float) -> None:
    seconds: list[float] = []
    cpu: list[float] = []
    proven = 0
    for label, problem in problems:
        started, used = time.perf_counter(), time.process_time()
        result = solve_problem(problem, time_budget=budget)
        seconds.append(time.perf_counter() - started)
        cpu.append(time.process_time() - used)
        proven += result.proven_optimal
        print(f"{label:34s} {seconds[-1]:.3f} s (cpu {cpu[-1]:.3f})  total {result.total}  "
              f"{'proven' if result.proven_optimal else 'NOT proven'}  ({result.method})", flush=True)
    if seconds:
        print(line(f"{title} (budget {budget} s)", seconds, proven, cpu))


def _board_positions() -> Any:
    """bench/usa_positions.py, loaded by its path: the 18USA tests have a usa_positions module too,
    which tests/engine/titles/g18usa/usa_tracecheck.py (bench/usa_game_positions.py) imports."""
    spec = importlib.util.spec_from_file_location("bench_usa_positions", ROOT / "bench" / "usa_positions.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def time_usa_logs(budget: float) -> None:
    """Every run position of the 18USA logs, rebuilt on the board alone (bench/usa_positions.py)."""
    board_positions = _board_positions()
    USA_LOGS, run_problems = board_positions.LOGS, board_positions.run_problems  # noqa: N806
    seconds: list[float] = []
    cpu: list[float] = []
    proven = 0
    for log_path, trace_path in USA_LOGS:
        mine: list[float] = []
        mine_cpu: list[float] = []
        good = 0
        for _, problem, _ in run_problems(log_path, trace_path):
            started, used = time.perf_counter(), time.process_time()
            result = solve_problem(problem, time_budget=budget)
            mine.append(time.perf_counter() - started)
            mine_cpu.append(time.process_time() - used)
            good += result.proven_optimal
        if mine:
            print(line(f"18USA {log_path.stem}", mine, good, mine_cpu), flush=True)
        seconds += mine
        cpu += mine_cpu
        proven += good
    if seconds:
        print(line(f"all 18USA logs (budget {budget} s)", seconds, proven, cpu), flush=True)


def main() -> None:
    args = sys.argv[1:]
    warm = "--warm" in args
    dense = int(args[args.index("--dense") + 1]) if "--dense" in args else 3
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 1
    skip = {index + 1 for index, arg in enumerate(args) if arg in ("--dense", "--budget", "--jobs")}
    logs = [Path(arg) for index, arg in enumerate(args) if not arg.startswith("--") and index not in skip]
    everything: list[float] = []
    cpu: list[float] = []
    proven = 0
    for path in [] if "--no-logs" in args else logs or DEFAULT_LOGS:
        seconds, used, good = time_log(path, warm)
        if seconds:
            print(line(path.stem, seconds, good, used))
        everything += seconds
        cpu += used
        proven += good
    if everything:
        print(line("all logs" + (" (warm cache)" if warm else " (cold)"), everything, proven, cpu))
    if "--no-kept" not in args:
        time_kept_upgrades(budget)
    if "--no-usa" not in args:
        from usa_game_positions import time_game_logs

        time_game_logs(budget, jobs=jobs)
    if "--board-usa" in args:
        time_usa_logs(budget)
    time_problems("dense synthetic", dense_problems(dense), budget)
    time_problems("dense 18USA map", usa_problems(dense), budget)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()

"""Seconds the route optimizer takes (run by hand, not a test).

    python bench/router.py [--warm] [--dense N] [--budget S] [LOG.json ...]

Logs (default: the real and generated 18Texas games in tests/data): every logged run position,
cold (each position on a fresh copy of the game, so no cache) unless --warm. Then N dense
synthetic positions (bench/dense_position.py, default 3): about 200 hexes of brown and gray
track with many stations and hooks on (resource bonuses, bonus tokens, an end limit, a red area
of two hexes), each with 8+8 trains and with 6+6 and a Pullman, under the time budget (default
2 s). Prints p50, p95 and max seconds, how many answers were proven optimal, and the process's
peak memory.
"""

from __future__ import annotations

import copy
import json
import resource
import statistics
import sys
import time
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from dense_position import COMPANY, dense_board  # noqa: E402

from engine.core.entities import Train  # noqa: E402
from engine.core.graph import Node  # noqa: E402
from engine.core.route_hooks import Attachment, EndLimit, StopRole  # noqa: E402
from engine.core.router import best_runs, solve_problem  # noqa: E402
from engine.core.router_problem import CoreRules, RouteProblem  # noqa: E402
from engine.router_cli import run_positions  # noqa: E402

DATA = ROOT / "tests" / "data"
DEFAULT_LOGS = [*sorted((DATA / "fixtures" / "18Texas").glob("*.json")),
                *sorted((DATA / "generated" / "18Texas").glob("*.json"))]
ALL_COLORS = ("yellow", "green", "brown", "gray")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def line(label: str, seconds: list[float], proven: int) -> str:
    return (f"{label:34s} {len(seconds):4d} runs  p50 {statistics.median(seconds):.4f} s  "
            f"p95 {percentile(seconds, 0.95):.4f} s  max {max(seconds):.4f} s  "
            f"proven {proven}/{len(seconds)}")


def time_log(path: Path, warm: bool) -> tuple[list[float], int]:
    seconds = []
    proven = 0
    for state, action in run_positions(json.loads(path.read_text())):
        position = state if warm else copy.deepcopy(state)
        started = time.perf_counter()
        result = best_runs(position, action["entity"])
        seconds.append(time.perf_counter() - started)
        proven += result.proven_optimal
    return seconds, proven


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


def dense_problems(count: int) -> list[tuple[str, RouteProblem]]:
    problems = []
    for seed in range(1, count + 1):
        board = dense_board(seed)
        eights = (Train("8-0", "8", 8, 0, None), Train("8-1", "8", 8, 0, None))
        problems.append((f"dense {seed} 8+8", RouteProblem(board, COMPANY, ALL_COLORS, eights,
                                                            DenseRules(board, seed))))
        sixes = (Train("6-0", "6", 6, 0, None), Train("6-1", "6", 6, 0, None))
        rules = DenseRules(board, seed)
        rules.extras = (Attachment("pullman", stop_bonus=20),)
        problems.append((f"dense {seed} 6+6+Pullman", RouteProblem(board, COMPANY, ALL_COLORS, sixes, rules)))
    return problems


def main() -> None:
    args = sys.argv[1:]
    warm = "--warm" in args
    dense = int(args[args.index("--dense") + 1]) if "--dense" in args else 3
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    skip = {index + 1 for index, arg in enumerate(args) if arg in ("--dense", "--budget")}
    logs = [Path(arg) for index, arg in enumerate(args) if not arg.startswith("--") and index not in skip]
    everything: list[float] = []
    proven = 0
    for path in logs or DEFAULT_LOGS:
        seconds, good = time_log(path, warm)
        if seconds:
            print(line(path.stem, seconds, good))
        everything += seconds
        proven += good
    if everything:
        print(line("all logs" + (" (warm cache)" if warm else " (cold)"), everything, proven))
    dense_seconds: list[float] = []
    dense_proven = 0
    for label, problem in dense_problems(dense):
        started = time.perf_counter()
        result = solve_problem(problem, time_budget=budget)
        took = time.perf_counter() - started
        dense_seconds.append(took)
        dense_proven += result.proven_optimal
        print(f"{label:34s} {took:.3f} s  total {result.total}  "
              f"{'proven' if result.proven_optimal else 'NOT proven'}  ({result.method})")
    if dense_seconds:
        print(line(f"dense (budget {budget} s)", dense_seconds, dense_proven))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process: {peak:.0f} MB")


if __name__ == "__main__":
    main()

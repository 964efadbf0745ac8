"""Seconds the route optimizer takes at every logged run of the fixtures (run by hand, not a test).

    /work/venv/bin/python bench/router.py [--warm] [LOG.json ...]

Default logs: the real 18Texas game (tests/data/fixtures/18Texas) and the generated ones
(tests/data/generated/18Texas). Each position is timed cold (the optimizer's cache cleared first)
unless --warm. Prints p50, p95 and max seconds per log and overall, and whether every answer was
proven optimal. Goal on the 2-core machines: p95 < 0.1 s and max < 1 s.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.router import best_runs, clear_cache  # noqa: E402
from engine.router_cli import run_positions  # noqa: E402

DATA = ROOT / "tests" / "data"
DEFAULT_LOGS = [*sorted((DATA / "fixtures" / "18Texas").glob("*.json")),
                *sorted((DATA / "generated" / "18Texas").glob("*.json"))]
GOAL_P95 = 0.1
GOAL_MAX = 1.0


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def time_log(path: Path, warm: bool) -> tuple[list[float], bool]:
    seconds = []
    proven = True
    for state, action in run_positions(json.loads(path.read_text())):
        if not warm:
            clear_cache()
        started = time.perf_counter()
        result = best_runs(state, action["entity"])
        seconds.append(time.perf_counter() - started)
        proven = proven and result.proven_optimal
    return seconds, proven


def line(label: str, seconds: list[float], proven: bool) -> str:
    return (f"{label:32s} {len(seconds):4d} runs  p50 {statistics.median(seconds):.4f} s  "
            f"p95 {percentile(seconds, 0.95):.4f} s  max {max(seconds):.4f} s  "
            f"{'all proven optimal' if proven else 'NOT ALL PROVEN'}")


def main() -> None:
    warm = "--warm" in sys.argv[1:]
    logs = [Path(arg) for arg in sys.argv[1:] if arg != "--warm"] or DEFAULT_LOGS
    everything: list[float] = []
    all_proven = True
    for path in logs:
        seconds, proven = time_log(path, warm)
        if seconds:
            print(line(path.stem, seconds, proven))
        everything += seconds
        all_proven = all_proven and proven
    if not everything:
        print("no run_routes actions in these logs")
        return
    print(line("all" + (" (warm cache)" if warm else " (cold cache)"), everything, all_proven))
    meets = percentile(everything, 0.95) < GOAL_P95 and max(everything) < GOAL_MAX and all_proven
    print(f"goal p95 < {GOAL_P95} s, max < {GOAL_MAX} s, all proven: {'met' if meets else 'MISSED'}")


if __name__ == "__main__":
    main()

"""Median seconds per map / market / table PNG of real engine positions (run by hand, not a test).

    /work/venv/bin/python bench/render.py [runs]

Positions: the 18Texas fixture after action ids 40 and 200 and at its end. Each timing is the
whole path the bot takes after a move: engine state -> view -> SVG -> PNG bytes.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "render"))

from engine_states import state_after  # noqa: E402

from render import png  # noqa: E402
from render.from_engine import map_view, market_view, table_view  # noqa: E402
from render.map_svg import map_svg  # noqa: E402
from render.market_svg import market_svg  # noqa: E402
from render.table_svg import table_svg  # noqa: E402

GOAL_MAP_SECONDS = 0.3


def median_seconds(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    fn()  # warm-up: imports, font loading, caches
    times = []
    size = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - t0)
    return statistics.median(times), size


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    worst_map = 0.0
    for label, upto in (("after 40", 40), ("after 200", 200), ("end", None)):
        state = state_after(upto)
        cases: dict[str, Callable[[], bytes]] = {
            "map png": lambda s=state: png.map_png(map_svg(map_view(s))),
            "map svg only": lambda s=state: map_svg(map_view(s)).encode(),
            "map png optimized": lambda s=state: png.map_png(map_svg(map_view(s)), optimize=True),
            "market png": lambda s=state: png.market_png(market_svg(market_view(s))),
            "table png": lambda s=state: png.table_png(table_svg(table_view(s))),
        }
        for name, fn in cases.items():
            med, size = median_seconds(fn, runs)
            if name == "map png":
                worst_map = max(worst_map, med)
            print(f"{label:10s} {name:18s} median {med:.3f} s   {size / 1024:4.0f} KiB")
    verdict = "meets" if worst_map < GOAL_MAP_SECONDS else "MISSES"
    print(f"slowest map png median {worst_map:.3f} s: {verdict} the {GOAL_MAP_SECONDS} s goal")


if __name__ == "__main__":
    main()

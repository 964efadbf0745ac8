"""Median seconds per map / market / table PNG over a few runs (run by hand, not a test).

    /work/venv/bin/python bench/render.py [runs]
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

from texas_views import SAMPLE_MARKET_TOKENS, sample_map, sample_table, texas_market  # noqa: E402

from render import png  # noqa: E402
from render.map_svg import map_svg  # noqa: E402
from render.market_svg import market_svg  # noqa: E402
from render.table_svg import table_svg  # noqa: E402


def median_seconds(fn: Callable[[], bytes], runs: int) -> tuple[float, int]:
    times = []
    size = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        size = len(fn())
        times.append(time.perf_counter() - t0)
    return statistics.median(times), size


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    mv, kv, tv = sample_map(), texas_market(SAMPLE_MARKET_TOKENS), sample_table()
    cases: dict[str, Callable[[], bytes]] = {
        "map svg+png": lambda: png.map_png(map_svg(mv)),
        "map svg+png optimized": lambda: png.map_png(map_svg(mv), optimize=True),
        "market svg+png": lambda: png.market_png(market_svg(kv)),
        "table svg+png": lambda: png.table_png(table_svg(tv)),
        "map svg only": lambda: map_svg(mv).encode(),
    }
    for name, fn in cases.items():
        med, size = median_seconds(fn, runs)
        print(f"{name:24s} median {med:.3f} s   {size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()

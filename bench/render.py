"""Median seconds per map / market / table PNG of real positions (run by hand, not a test).

    python bench/render.py [runs]

18Texas: the fixture after action ids 40 and 200 and at its end, from the engine. 18USA: fixture
109372 early (first stock round), middle (phase 4) and at its end; the map from the board the
18USA map rules rebuild from the log, the market and table from the reference trace (the 18USA
game class is not written yet). Each timing is the whole path the bot takes after a move:
position -> view -> SVG -> PNG bytes (and the close-up of the last lay a move's reply adds). Wall time and the process's CPU time are both given: on a
busy machine the CPU time is what the drawing costs.
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
from usa_states import USA_STATES, trace_line, usa_position  # noqa: E402
from usa_trace_views import usa_market_view, usa_table_view  # noqa: E402

from render import png  # noqa: E402
from render.closeup import close_up  # noqa: E402
from render.from_engine import map_view, market_view, table_view  # noqa: E402
from render.map_svg import map_svg  # noqa: E402
from render.market_svg import market_svg  # noqa: E402
from render.table_svg import table_svg  # noqa: E402
from render.view import MapView  # noqa: E402

GOALS = {"18Texas": 0.3, "18USA": 0.6}  # seconds per map PNG


def median_seconds(fn: Callable[[], bytes], runs: int) -> tuple[float, float, int]:
    fn()  # warm-up: imports, font loading, caches
    wall, cpu = [], []
    size = 0
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        size = len(fn())
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall), statistics.median(cpu), size


def _near(view: MapView, otherwise: str) -> MapView:
    """The close-up a move's reply shows: around the last lay (or a big city before any)."""
    return close_up(view, sorted(view.highlight_hexes) or [otherwise])


def texas_cases() -> dict[str, dict[str, Callable[[], bytes]]]:
    cases = {}
    for label, upto in (("after 40", 40), ("after 200", 200), ("end", None)):
        state = state_after(upto)
        cases[label] = {
            "map png": lambda s=state: png.map_png(map_svg(map_view(s))),
            "map svg only": lambda s=state: map_svg(map_view(s)).encode(),
            "map png optimized": lambda s=state: png.map_png(map_svg(map_view(s)), optimize=True),
            "close-up png": lambda s=state: png.map_png(map_svg(_near(map_view(s), "F13"))),
            "market png": lambda s=state: png.market_png(market_svg(market_view(s))),
            "table png": lambda s=state: png.table_png(table_svg(table_view(s))),
        }
    return cases


def usa_cases() -> dict[str, dict[str, Callable[[], bytes]]]:
    cases = {}
    for label, upto in USA_STATES.items():
        position, line = usa_position(upto), trace_line(upto)
        cases[label] = {
            "map png": lambda p=position: png.map_png(map_svg(p.map_view())),
            "map svg only": lambda p=position: map_svg(p.map_view()).encode(),
            "map png optimized": lambda p=position: png.map_png(map_svg(p.map_view()), optimize=True),
            "close-up png": lambda p=position: png.map_png(map_svg(_near(p.map_view(), "D20"))),
            "market png": lambda t=line: png.market_png(market_svg(usa_market_view(t))),
            "table png": lambda t=line: png.table_png(table_svg(usa_table_view(t))),
        }
    return cases


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    for title, cases in (("18Texas", texas_cases()), ("18USA", usa_cases())):
        worst_map = 0.0
        for label, named in cases.items():
            for name, fn in named.items():
                wall, cpu, size = median_seconds(fn, runs)
                if name == "map png":
                    worst_map = max(worst_map, wall)
                print(f"{title:8s} {label:11s} {name:18s} median {wall:.3f} s (cpu {cpu:.3f} s)   "
                      f"{size / 1024:5.0f} KiB")
        verdict = "meets" if worst_map <= GOALS[title] else "MISSES"
        print(f"{title}: slowest map png median {worst_map:.3f} s: {verdict} the {GOALS[title]} s goal")


if __name__ == "__main__":
    main()

"""matplotlib against pygal (SVG through the pictures' CairoSVG) for the charts of a game's
story, on 18USA game 109372 (run by hand; pygal is not a dependency: `pip install pygal`).

    python bench/chart_libraries.py [runs] [--out DIR]

Each library draws the same three charts (engine.story) at the same size, 1,400 x 861 px; the
times are per chart once the library is loaded, and the import is timed apart. `--out` writes
both sets of PNGs to look at side by side. matplotlib is the one `render/charts.py` uses.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.history import History  # noqa: E402
from engine.story import KINDS, Chart, chart  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18USA" / "109372.json"
WIDTH, HEIGHT = 1400, 861


def pygal_png(drawn: Chart) -> bytes:
    import cairosvg
    import pygal
    from pygal.style import Style

    colors = tuple(series.color or "#1f77b4" for series in drawn.series)
    figure = pygal.Line(width=WIDTH, height=HEIGHT, x_label_rotation=60, show_dots=True, dots_size=3,
                        stroke_style={"width": 3}, title=drawn.title, legend_at_bottom=False,
                        style=Style(colors=colors, font_family="DejaVu Sans", label_font_size=13,
                                    major_label_font_size=13, legend_font_size=13, title_font_size=17))
    figure.x_labels = list(drawn.x_labels)
    for series in drawn.series:
        figure.add(series.name, list(series.points))
    return bytes(cairosvg.svg2png(bytestring=figure.render()))


def matplotlib_png(drawn: Chart) -> bytes:
    from render.charts import chart_png

    return chart_png(drawn)


def measure(name: str, draw: Callable[[Chart], bytes], charts: dict[str, Chart], runs: int,
            out: Path | None) -> None:
    started = time.perf_counter()
    draw(charts["values"])  # loads the library and its fonts
    print(f"{name}: first chart (with the import) {time.perf_counter() - started:.2f} s")
    for kind, drawn in charts.items():
        walls, cpus = [], []
        data = b""
        for _ in range(runs):
            wall, cpu = time.perf_counter(), time.process_time()
            data = draw(drawn)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"  {kind:<8} wall median {statistics.median(walls):.3f} s  cpu median {statistics.median(cpus):.3f} s  "
              f"{len(data) // 1024} KB")
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"{name}-{kind}.png").write_bytes(data)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("runs", nargs="?", type=int, default=5)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    history = History.of_document(json.loads(FIXTURE.read_text()))
    charts = {kind: chart(history, kind) for kind in KINDS}
    measure("matplotlib", matplotlib_png, charts, args.runs, args.out)
    try:
        import pygal  # noqa: F401
    except ImportError:
        print("pygal is not installed: pip install pygal")
        return
    measure("pygal", pygal_png, charts, args.runs, args.out)


if __name__ == "__main__":
    main()

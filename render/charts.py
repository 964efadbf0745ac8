"""Charts of a game's story (`engine.story`) as PNGs, drawn with matplotlib.

Chosen over pygal through CairoSVG after drawing the same three charts of fixture 109372 with
both (`bench/chart_libraries.py`, at load 11, CPU medians per chart once loaded): matplotlib
0.41 / 0.39 / 0.33 s (values, prices, revenue), pygal 0.43 / 0.77 / 0.42 s; pygal loads faster
(1.1 s against several seconds for matplotlib's first chart, paid once per worker process) but
its lines stay thin, its legend swatches pale, and it joins a company's line across the rounds
it was off the market, where matplotlib gives control over line widths, outlines of light
colours, tick thinning and the legend's place.

Sized for Discord's preview and a phone: 1,400 x 861 px, text at least 14 pt (27 px at full
size, 11 px where Discord's preview shows the picture 550 px wide; a tap opens it full size).

The object API (a `Figure` with an Agg canvas) keeps no state between charts, so charts can
be drawn from several threads or in the bot's worker process.
"""

from __future__ import annotations

import functools
import io
import logging
import math
from pathlib import Path

from matplotlib import font_manager
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from engine.story import Chart
from render import fonts

# The Noto fallbacks have no bold: matplotlib says so for every bold title, and draws them in
# their regular weight, which is right for the few glyphs DejaVu Sans lacks.
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

WIDTH_IN, HEIGHT_IN, DPI = 10.0, 6.15, 140  # 1,400 x 861 px
FONT_PT = 15.0
TITLE_PT = 19.0
# Players have no colour of their own: a palette readable on white, in seat order.
PLAYER_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
# The most x labels shown; with more, only every n-th round is labelled (ticks stay on all).
MAX_X_LABELS = 24
OUTLINE = "#444444"


@functools.lru_cache(maxsize=1)
def font_families() -> tuple[str, ...]:
    """The pictures' font first, then the Noto fonts the render package ships, so that names
    in any script are drawn (matplotlib falls back along the list glyph by glyph)."""
    families = ["DejaVu Sans"]
    for folder in fonts.font_dirs():
        for path in sorted(Path(folder).rglob("*.[to]tf")):
            if not any(path.name.startswith(prefix) for prefix in ("NotoSans[", "NotoSansSymbols", "NotoEmoji",
                                                                    "NotoSansCJK")):
                continue
            try:
                font_manager.fontManager.addfont(str(path))
                name = font_manager.FontProperties(fname=str(path)).get_name()
            except (OSError, RuntimeError, ValueError):
                continue
            if name not in families:
                families.append(name)
    return tuple(families)


def _thinned(chart: Chart) -> list[str]:
    """The x labels, at most MAX_X_LABELS of them: all when they fit, else the main rounds'
    (`Chart.major`) with no two side by side, every n-th of those if still too many."""
    labels = list(chart.x_labels)
    if len(labels) <= MAX_X_LABELS:
        return labels
    keep = [index for index, major in enumerate(chart.major) if major] or list(range(len(labels)))
    spaced: list[int] = []
    for index in keep:  # neighbours' slanted labels overlap: one of two neighbours is enough
        if not spaced or index - spaced[-1] >= 2:
            spaced.append(index)
    step = max(1, math.ceil(len(spaced) / MAX_X_LABELS))
    shown = set(spaced[::step])
    return [label if index in shown else "" for index, label in enumerate(labels)]


def _is_light(color: str) -> bool:
    """Whether a colour is too pale to read as a line on white (Gold, LightSkyBlue...)."""
    from matplotlib.colors import to_rgb

    try:
        red, green, blue = to_rgb(color)
    except ValueError:
        return False
    return 0.299 * red + 0.587 * green + 0.114 * blue > 0.6


def chart_png(chart: Chart) -> bytes:
    """The chart as PNG bytes: a line per player or company, company lines in the company's
    map colour (outlined in dark grey where the colour is pale), the legend beside the plot."""
    figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(figure)
    families = list(font_families())
    axes = figure.add_subplot()
    xs = list(range(len(chart.x_labels)))
    for number, series in enumerate(chart.series):
        color = series.color or PLAYER_COLORS[number % len(PLAYER_COLORS)]
        ys = [math.nan if point is None else point for point in series.points]
        pale = _is_light(color)
        if pale:  # a dark line under a pale one, so that Gold reads on white
            axes.plot(xs, ys, color=OUTLINE, linewidth=5.0, label="_nolegend_")
        axes.plot(xs, ys, label=series.name, color=color, linewidth=3.0, marker="o", markersize=5,
                  markeredgecolor=OUTLINE if pale else color)
    axes.set_xticks(xs)
    axes.set_xticklabels(_thinned(chart), rotation=60, ha="right", fontsize=FONT_PT - 1, family=families)
    axes.tick_params(axis="y", labelsize=FONT_PT)
    axes.set_ylabel(chart.y_label, fontsize=FONT_PT, family=families)
    axes.set_title(chart.title, fontsize=TITLE_PT, family=families, weight="bold")
    axes.grid(True, axis="y", color="#dddddd")
    axes.set_xlim(-0.5, max(len(xs) - 0.5, 0.5))
    if chart.series:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=FONT_PT,
                    prop={"family": families, "size": FONT_PT}, ncol=1 if len(chart.series) <= 12 else 2,
                    frameon=False, handlelength=1.5)
    else:
        axes.text(0.5, 0.5, "nothing to show yet", ha="center", va="center", fontsize=FONT_PT,
                  transform=axes.transAxes)
    # Fixed margins (tight_layout would lay every text out twice): the legend's column on the
    # right, the slanted round names below.
    figure.subplots_adjust(left=0.10, right=0.80 if len(chart.series) <= 12 else 0.70, top=0.93, bottom=0.15)
    out = io.BytesIO()
    figure.savefig(out, format="png", dpi=DPI, pil_kwargs={"compress_level": 4})
    return out.getvalue()

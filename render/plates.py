"""Small plates on a hex: phase-dependent values and the marks a title puts on the map.

Both are placed with the hex's `Placer`, after the track and the cities, so they never cover
a station or a revenue.
"""

from __future__ import annotations

from render import geometry as g
from render.geometry import FONT_REV, FONT_SMALL, Point
from render.placer import A, Placer, R
from render.svgkit import attrs, esc, text, text_width
from render.view import MarkerView, PhaseValue

Layers = dict[str, list[str]]
PHASE_LABEL_H = 8.5  # the row of phase names above phase-dependent values
STRIP_H = 4.0  # the tile-colour band above a value, where phase names do not fit
# Labelled values wider than this are drawn with colour bands instead (18USA red areas have
# four values: "2–2+", "3–4+", "5–6", "7+" would not fit beside their track).
MAX_LABELLED_W = 62.0
PLATE_H = 11.0
# Where marker plates go, best first: the lower and upper middle, then the four sides.
PLATE_SPOTS: list[Point] = [(0.0, R * 0.62), (0.0, -R * 0.62), (-R * 0.42, R * 0.3), (R * 0.42, R * 0.3),
                            (-R * 0.42, -R * 0.3), (R * 0.42, -R * 0.3), (0.0, R * 0.45), (0.0, -R * 0.45),
                            (0.0, 0.0)]


def phase_boxes(values: tuple[PhaseValue, ...], current: int, origin: Point, placer: Placer,
                out: Layers, candidates: list[Point], cls: str, colors: tuple[str, ...] = (),
                coord: str | None = None) -> None:
    """Phase-dependent values side by side, each under the phases it holds in ("2–4", "5+"),
    or, where those names would not fit, under a band of its tile colour; the one in force is
    inverted (black box) so it reads at a glance."""
    labelled = any(label for label, _ in values)
    widths = _labelled_widths(values)
    if banded := is_banded(values, colors):
        labelled = False
        widths = [max(14.0, text_width(str(v), FONT_REV, bold=True) + 5.0) for _, v in values]
    label_h = PHASE_LABEL_H if labelled else (STRIP_H if banded else 0.0)
    height = 14.0 + label_h
    total = sum(widths)
    p = placer.place_box(candidates, total, height)
    x = origin[0] + p[0] - total / 2
    top = origin[1] + p[1] - height / 2
    parts = [f'<g {attrs(cls=cls, data_coord=coord, data_current=values[current][1] if values else None)}>']
    for k, ((label, v), w) in enumerate(zip(values, widths, strict=True)):
        now = k == current
        ink = "#fff" if now else "#555"
        parts.append(f'<rect class="phase-value" data-phase="{esc(label)}" data-current="{int(now)}" '
                     f'x="{g.fmt(x)}" y="{g.fmt(top)}" width="{g.fmt(w)}" height="{g.fmt(height)}" '
                     f'fill="{"#000" if now else "#fff"}" stroke="#000" stroke-width="1"/>')
        if labelled:
            parts.append(text(x + w / 2, top + label_h / 2 + 0.5, label, FONT_SMALL, bold=True, fill=ink,
                              cls="phase-label"))
        elif banded:
            parts.append(f'<rect class="phase-band" data-color="{esc(colors[k])}" x="{g.fmt(x + 1)}" '
                         f'y="{g.fmt(top + 1)}" width="{g.fmt(w - 2)}" height="{g.fmt(STRIP_H - 1)}" '
                         f'fill="{g.HEX_FILL.get(colors[k], colors[k])}"/>')
        parts.append(text(x + w / 2, top + label_h + 7.0, str(v), FONT_REV, bold=True, fill=ink))
        x += w
    out["revenue"].append("".join(parts) + "</g>")


def is_banded(values: tuple[PhaseValue, ...], colors: tuple[str, ...]) -> bool:
    """Whether phase values are drawn under tile-colour bands rather than phase names."""
    if len(colors) != len(values) or len(values) < 2:
        return False
    return not any(label for label, _ in values) or sum(_labelled_widths(values)) > MAX_LABELLED_W


def _labelled_widths(values: tuple[PhaseValue, ...]) -> list[float]:
    return [max(14.0, text_width(str(v), FONT_REV, bold=True) + 5.0,
                text_width(label, FONT_SMALL, bold=True) + 4.0) for label, v in values]


def marker_plates(markers: tuple[MarkerView, ...], coord: str, origin: Point, placer: Placer,
                  out: Layers) -> None:
    for marker in markers:
        _plate(marker, coord, origin, placer, out)


def _plate(m: MarkerView, coord: str, origin: Point, placer: Placer, out: Layers) -> None:
    """A rounded plate with the marker's text, then its phase values as "+10" "+20" boxes."""
    pad = 3.0
    text_w = text_width(m.text, FONT_SMALL, bold=True) if m.text else 0.0
    boxes = [text_width(f"+{v}", FONT_SMALL, bold=True) + 4.0 for _, v in m.values]
    width = (text_w + 2 * pad if m.text else pad) + sum(boxes) + (pad if boxes else 0.0)
    width = min(width, 2 * A - 4.0)
    p = placer.place_box(PLATE_SPOTS, width, PLATE_H)
    x0, y0 = origin[0] + p[0] - width / 2, origin[1] + p[1] - PLATE_H / 2
    stroke = m.text_color if m.hollow else "#000"
    a = attrs(cls=f"marker marker-{m.kind}", data_kind=m.kind, data_coord=coord, data_owner=m.owner,
              data_source=m.source, data_current=m.values[m.current_index][1] if m.values else None)
    parts = [f'<g {a}><rect x="{g.fmt(x0)}" y="{g.fmt(y0)}" width="{g.fmt(width)}" height="{g.fmt(PLATE_H)}" '
             f'rx="3" fill="{esc(m.fill)}" stroke="{esc(stroke)}" stroke-width="1"'
             + (' stroke-dasharray="2 1.5"' if m.hollow else "") + "/>"]
    if m.text:
        parts.append(text(x0 + pad + text_w / 2, y0 + PLATE_H / 2, m.text, FONT_SMALL, bold=True,
                          fill=m.text_color))
    x = x0 + (text_w + 2 * pad if m.text else pad)
    for k, ((_, v), w) in enumerate(zip(m.values, boxes, strict=True)):
        now = k == m.current_index
        parts.append(f'<rect class="marker-value" data-current="{int(now)}" x="{g.fmt(x)}" y="{g.fmt(y0 + 1.5)}" '
                     f'width="{g.fmt(w)}" height="{g.fmt(PLATE_H - 3)}" fill="{"#000" if now else "#fff"}" '
                     f'stroke="#000" stroke-width="0.6"/>')
        parts.append(text(x + w / 2, y0 + PLATE_H / 2, f"+{v}", FONT_SMALL, bold=True,
                          fill="#fff" if now else "#555"))
        x += w
    out["marker"].append("".join(parts) + "</g>")

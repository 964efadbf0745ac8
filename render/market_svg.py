"""The stock market picture: MarketView -> SVG text.

18Texas is a left-aligned grid of rows of different lengths with par cells, a ledge under
cells that have nothing below them, and arrows where a move wraps to another row. A
one-dimensional market (18USA) is wrapped into lines of WRAP cells so it fits a phone.
"""

from __future__ import annotations

from render.geometry import fmt
from render.svgkit import attrs, document, esc, text, text_width
from render.view import MarketCellView, MarketView

# Cells hold three tokens side by side, large enough to read on a phone (2x output scale).
CELL_W = 64.0
CELL_H = 60.0
# A one-row market reads like text, ten spaces a line; its spaces are taller to carry the
# dividend thresholds at the bottom, as printed.
CELL_W_1D = 72.0
CELL_H_1D = 72.0
MARGIN = 14.0
TITLE_H = 28.0
WRAP = 10
TOKEN_R = 10.0
# A one-row market's wider spaces take bigger tokens: four-letter ids (18USA's MILW, SLSF, ATSF)
# fit inside the disc at the smallest legible size, where at TOKEN_R they ran over its edge.
TOKEN_R_1D = 11.5
FONT_PRICE = 11.0
FONT_TOKEN = 8.0
FONT_SMALL = 6.5

CELL_FILL = "#f7f1de"
PAR_FILL = "#f4a6a6"
ZONE_FILL = {"yellow": "#fde900", "orange": "#f9b233", "brown": "#cb7745", "red": "#ec232a",
             "gray": "#bcbdc0", "green": "#71bf44", "blue": "#35a7ff",
             "acquisition": "#f6b26b", "liquidation": "#a9a9a9"}
LEDGE_COLOR = "#b00000"
LEGEND_2D = ("pink: par values \u00b7 red line: ledge \u00b7 \u25b2\u25bc: row changes \u00b7 "
             "tokens: top of the stack first (left)",)
LEGEND_1D = ("Read left to right, line by line \u00b7 pink: par values \u00b7 orange: acquisition \u00b7 "
             "gray: liquidation \u00b7 tokens: top of the stack first (left)",
             "Bottom of a space: the dividend per share that moves the price 1, 2, 3 or 4 steps right")
LEGEND_LINE_H = 14.0


def market_svg(view: MarketView) -> str:
    """Render the stock market as SVG text."""
    cells = [_placed(c, view.kind) for c in view.cells]
    rows = max((r for r, _, _ in cells), default=0) + 1
    cols = max((c for _, c, _ in cells), default=0) + 1
    cell_w, cell_h = (CELL_W_1D, CELL_H_1D) if view.kind == "1d" else (CELL_W, CELL_H)
    legend = LEGEND_1D if view.kind == "1d" else LEGEND_2D
    width = max(2 * MARGIN + cols * cell_w,
                *(text_width(line, FONT_SMALL + 2) + 2 * MARGIN for line in legend))
    height = TITLE_H + 2 * MARGIN + rows * cell_h + 2.0 + LEGEND_LINE_H * len(legend)
    body = [text(MARGIN, TITLE_H / 2 + 4, view.title, 14.0, anchor="start", bold=True, cls="title")]
    body.append('<g class="layer" data-layer="cells">')
    for r, c, cell in cells:
        body.append(_cell(cell, MARGIN + c * cell_w, TITLE_H + MARGIN + r * cell_h, cell_w, cell_h))
    body.append("</g>")
    body.append('<g class="layer" data-layer="ledges">')
    for r, c, cell in cells:
        if cell.on_ledge and view.kind == "2d":
            x, y = MARGIN + c * CELL_W, TITLE_H + MARGIN + (r + 1) * CELL_H
            body.append(f'<line {attrs(cls="ledge", data_row=cell.row, data_col=cell.col)} x1="{fmt(x)}" '
                        f'y1="{fmt(y)}" x2="{fmt(x + CELL_W)}" y2="{fmt(y)}" stroke="{LEDGE_COLOR}" '
                        f'stroke-width="4" stroke-linecap="square"/>')
    body.append("</g>")
    body.append('<g class="layer" data-layer="tokens">')
    for r, c, cell in cells:
        body.extend(_tokens(cell, MARGIN + c * cell_w, TITLE_H + MARGIN + r * cell_h, cell_w, cell_h,
                            TOKEN_R_1D if view.kind == "1d" else TOKEN_R))
    body.append("</g>")
    legend_y = TITLE_H + MARGIN + rows * cell_h + 10.0
    for k, line in enumerate(legend):
        body.append(text(MARGIN, legend_y + k * LEGEND_LINE_H, line, FONT_SMALL + 2, anchor="start",
                         fill="#444", cls="market-legend"))
    return document(width, height, body)


def _placed(cell: MarketCellView, kind: str) -> tuple[int, int, MarketCellView]:
    if kind == "1d":
        return (cell.col // WRAP, cell.col % WRAP, cell)
    return (cell.row, cell.col, cell)


def _cell(cell: MarketCellView, x: float, y: float, w: float, h: float) -> str:
    fill = PAR_FILL if cell.is_par else ZONE_FILL.get(cell.zone or "", CELL_FILL)
    a = attrs(cls="market-cell", data_row=cell.row, data_col=cell.col, data_price=cell.price,
              data_par=int(cell.is_par), data_ledge=int(cell.on_ledge), data_zone=cell.zone,
              data_label=cell.label)
    parts = [f'<g {a}><rect x="{fmt(x)}" y="{fmt(y)}" width="{fmt(w)}" height="{fmt(h)}" '
             f'fill="{fill}" stroke="#555" stroke-width="1"/>']
    if cell.price or not cell.label:
        parts.append(text(x + w / 2, y + 10, str(cell.price), FONT_PRICE, bold=True, cls="price"))
        if cell.label:
            parts.append(text(x + w / 2, y + 20, cell.label, FONT_SMALL, cls="cell-label"))
    else:  # a space without a price of its own (18USA's acquisition and liquidation spaces)
        parts.append(text(x + w / 2, y + 10, cell.label, _fit(cell.label, FONT_SMALL + 1.5, w - 4, True),
                          bold=True, cls="cell-label"))
    if cell.thresholds:
        line = " ".join(str(v) for v in cell.thresholds)
        parts.append(text(x + w / 2, y + h - 7, line, _fit(line, FONT_SMALL + 0.5, w - 4), fill="#333",
                          cls="thresholds", data_values=",".join(str(v) for v in cell.thresholds)))
    if cell.up_arrow:  # right from the last cell of a row goes up a row
        parts.append(_arrow(x + w - 7, y + 9, up=True))
    if cell.down_arrow:  # left from the first cell of a row goes down a row
        parts.append(_arrow(x + 7, y + 9, up=False))
    parts.append("</g>")
    return "".join(parts)


def _arrow(cx: float, cy: float, up: bool) -> str:
    s = 5.0
    tip, base = (cy - s, cy + s) if up else (cy + s, cy - s)
    cls = "arrow-up" if up else "arrow-down"
    return (f'<polygon class="{cls}" points="{fmt(cx - s)},{fmt(base)} {fmt(cx + s)},{fmt(base)} '
            f'{fmt(cx)},{fmt(tip)}" fill="#222"/>')


def _fit(line: str, size: float, room: float, bold: bool = False) -> float:
    """The size at which `line` fits in `room`, never under the legible minimum."""
    return max(FONT_SMALL, min(size, size * room / max(1.0, text_width(line, size, bold))))


def _tokens(cell: MarketCellView, x: float, y: float, w: float, h: float, token_r: float) -> list[str]:
    """Tokens in reading order, three to a line: the top of the stack first (top left).

    Side by side rather than overlapping, so every abbreviation stays readable; beyond six
    tokens the lines overlap a little (no title has that many corporations in one cell).
    """
    n = len(cell.tokens)
    out = []
    lines = max(1, (n + 2) // 3)
    top = 24.0 if cell.label and cell.price else 20.0  # below the price (and its label)
    bottom = h - (14.0 if cell.thresholds else 0.0)  # above the thresholds
    line_step = min(2 * token_r + 1, (bottom - top - 2 * token_r) / max(1, lines - 1)) if lines > 1 else 0
    for k, tok in enumerate(cell.tokens):
        in_line = min(3, n - (k // 3) * 3)  # centre a short line in the cell
        cx = x + w / 2 + ((k % 3) - (in_line - 1) / 2) * (2 * token_r + 0.5)
        cy = y + top + token_r + (k // 3) * line_step
        # Shrink long ids just enough to fit the disc, never below the legible minimum.
        fit = FONT_TOKEN * (2 * token_r - 3) / max(1.0, text_width(tok.corporation, FONT_TOKEN, True))
        size = max(FONT_SMALL, min(FONT_TOKEN, fit))
        out.append(f'<g {attrs(cls="token", data_corp=tok.corporation, data_order=k, data_row=cell.row, data_col=cell.col)}>'
                   f'<circle cx="{fmt(cx)}" cy="{fmt(cy)}" r="{fmt(token_r)}" fill="{esc(tok.fill_color)}" '
                   f'stroke="#000" stroke-width="1"/>'
                   + text(cx, cy, tok.corporation, size, bold=True, fill=tok.text_color) + "</g>")
    return out

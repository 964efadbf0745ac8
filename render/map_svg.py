"""The map picture: MapView -> SVG text.

Draw order is explicit and global (not per hex) so that nothing of one hex is painted over
by its neighbour: fills, terrain, track, route overlays, cities and towns, tokens, text,
last-move outlines, then the coordinate frame, title and route legend.
"""

from __future__ import annotations

from render import geometry as g
from render.hex_parts import LAYERS, TRACK_W, draw_hex, path_geometry
from render.plates import is_banded
from render.svgkit import attrs, document, esc, text, wrapped
from render.view import HexView, MapView, RouteView

MARGIN = 26.0  # room for the coordinate frame
TITLE_H = 30.0
FONT_COORD = 10.0
FONT_TITLE = 14.0
FONT_LEGEND = 11.0
FONT_KEY = 9.0
KEY_H = 16.0
TITLE_LINE = 20.0  # each further line of a caption too long for the picture
KEY_JOINER = " \u00b7 "


def map_svg(view: MapView) -> str:
    """Render the map as SVG text (deterministic: same view, same bytes)."""
    if not view.hexes:
        return document(200, 100, [text(100, 50, "empty map", FONT_TITLE)])
    xs = [h.x for h in view.hexes]
    ys = [h.y for h in view.hexes]
    min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
    half_w = g.HEX_SIZE * g.SQRT3 / 2
    left = MARGIN + half_w - g.hex_center(min_x, 0)[0]
    width = g.hex_center(max_x, 0)[0] - g.hex_center(min_x, 0)[0] + 2 * half_w + 2 * MARGIN
    # A close-up is narrower than its caption and key: they go on as many lines as they need.
    heading = [view.title, *view.caption.split(" \u2014 ")] if view.caption else [view.title]
    title_lines = wrapped(heading, " \u2014 ", FONT_TITLE, width - 2 * MARGIN, bold=True) if view.title or view.caption else []
    title_h = TITLE_H + TITLE_LINE * max(len(title_lines) - 1, 0)
    top = title_h + MARGIN + g.HEX_SIZE - g.hex_center(0, min_y)[1]
    map_bottom = top + g.hex_center(0, max_y)[1] + g.HEX_SIZE + MARGIN
    key = map_key(view)
    key_lines = wrapped(key.split(KEY_JOINER), KEY_JOINER, FONT_KEY, width - 2 * MARGIN) if key else []
    key_h = KEY_H * len(key_lines)
    legend_h = _legend_height(view.routes)
    height = map_bottom + key_h + legend_h

    def origin(h: HexView) -> g.Point:
        cx, cy = g.hex_center(h.x, h.y)
        return (cx + left, cy + top)

    by_coord = {h.coord: h for h in view.hexes}
    layers: dict[str, list[str]] = {name: [] for name in LAYERS}
    for h in view.hexes:
        parts = draw_hex(h, origin(h))
        tile = f' data-tile="{esc(h.tile_name)}"' if h.tile_name else ""
        layers["fill"].append(f'<g class="hex" data-coord="{esc(h.coord)}" data-color="{esc(h.color)}"{tile}>'
                              + "".join(parts["fill"]) + "</g>")
        for name in LAYERS[1:]:
            layers[name].extend(parts[name])
    layers["route"] = _routes(view.routes, by_coord, origin)

    body: list[str] = []
    for line, words in enumerate(title_lines):
        body.append(text(MARGIN, TITLE_H / 2 + 4 + TITLE_LINE * line, words, FONT_TITLE, anchor="start", bold=True,
                         cls="title"))
    for name in LAYERS:
        body.append(f'<g class="layer" data-layer="{name}">' + "\n".join(layers[name]) + "</g>")
    body.append(_highlights(view, by_coord, origin))
    body.append(_frame(view, origin, width, top - g.HEX_SIZE - MARGIN / 2, map_bottom - MARGIN / 2))
    for line, words in enumerate(key_lines):
        body.append(text(MARGIN, map_bottom + KEY_H * line + KEY_H / 2, words, FONT_KEY, anchor="start", fill="#444",
                         cls="map-key"))
    body.append(_legend(view.routes, map_bottom + key_h))
    return document(width, height, body)


def map_key(view: MapView) -> str:
    """One line explaining the signs this map uses (only those it uses)."""
    hexes = view.hexes
    stops = [s for h in hexes for s in (*h.cities, *h.towns, *((h.offboard,) if h.offboard else ()))]
    parts = []
    if any(len(s.values) > 1 for s in stops):
        parts.append("black box: value in force")
    if any(is_banded(s.values, s.value_colors) for s in stops):
        parts.append("colour band: the tiles' phase")
    if any(m.hollow for h in hexes for m in h.markers):
        parts.append("dashed plate: resource not yet placed")
    if any(h.metropolis for h in hexes):
        parts.append("dark red ring: metropolis")
    if view.highlight_hexes:
        parts.append("magenta: last tile laid")
    return "Key: " + KEY_JOINER.join(parts) if parts else ""


def _routes(routes: tuple[RouteView, ...], by_coord: dict[str, HexView], origin: object) -> list[str]:
    out: list[str] = []
    for k, route in enumerate(routes):
        color = g.route_color(route.color, k)
        pieces = []
        for seg in route.segments:
            h = by_coord.get(seg.coord)
            if h is None:
                continue
            d, _ = path_geometry(h, seg.path, origin(h))  # type: ignore[operator]
            pieces.append(f'<path {attrs(cls="route-segment", data_coord=seg.coord, d=d)}/>')
        a = attrs(cls="route", data_train=route.train, data_corp=route.corporation or None,
                  data_revenue=route.revenue, data_index=k)
        # Narrower than the track so the black track shows as an outline around the run.
        out.append(f'<g {a} fill="none" stroke="{esc(color)}" stroke-width="{g.fmt(TRACK_W * 0.6)}" '
                   f'stroke-linecap="round">' + "".join(pieces) + "</g>")
    return out


def _highlights(view: MapView, by_coord: dict[str, HexView], origin: object) -> str:
    parts = ['<g class="layer" data-layer="highlight">']
    pts = g.corner_offsets(g.HEX_SIZE - 2.5)
    for coord in sorted(view.highlight_hexes):
        h = by_coord.get(coord)
        if h is None:
            continue
        ox, oy = origin(h)  # type: ignore[operator]
        parts.append(f'<polygon class="highlight" data-coord="{esc(coord)}" '
                     f'points="{g.polygon_points(pts, ox, oy)}" fill="none" stroke="{g.HIGHLIGHT_COLOR}" '
                     f'stroke-width="4" stroke-linejoin="round"/>')
    parts.append("</g>")
    return "".join(parts)


def _frame(view: MapView, origin: object, width: float, y_top: float, y_bottom: float) -> str:
    """Row letters left and right, column numbers top and bottom, as on printed boards."""
    parts = ['<g class="coords">']
    rows: dict[str, float] = {}
    cols: dict[str, float] = {}
    for h in view.hexes:
        ox, oy = origin(h)  # type: ignore[operator]
        letters = h.coord.rstrip("0123456789")
        rows.setdefault(letters, oy)
        cols.setdefault(h.coord[len(letters):], ox)
    for letters, y in sorted(rows.items(), key=lambda kv: kv[1]):
        for x in (MARGIN / 2, width - MARGIN / 2):
            parts.append(text(x, y, letters, FONT_COORD, bold=True, cls="coord-row", fill="#444"))
    for number, x in sorted(cols.items(), key=lambda kv: kv[1]):
        for y in (y_top, y_bottom):
            parts.append(text(x, y, number, FONT_COORD, bold=True, cls="coord-col", fill="#444"))
    parts.append("</g>")
    return "".join(parts)


def _legend_height(routes: tuple[RouteView, ...]) -> float:
    return 0.0 if not routes else 14.0 + 18.0 * len(routes) + 18.0


def _legend(routes: tuple[RouteView, ...], y0: float) -> str:
    if not routes:
        return ""
    parts = ['<g class="legend">']
    y = y0 + 10.0
    for k, route in enumerate(routes):
        color = g.route_color(route.color, k)
        who = f"{route.corporation} " if route.corporation else ""
        label = f"{who}{route.train}-train: ${route.revenue}"
        parts.append(f'<g class="legend-entry" data-index="{k}"><line x1="{g.fmt(MARGIN)}" y1="{g.fmt(y)}" '
                     f'x2="{g.fmt(MARGIN + 30)}" y2="{g.fmt(y)}" stroke="#000" stroke-width="{g.fmt(TRACK_W)}"/>'
                     f'<line x1="{g.fmt(MARGIN)}" y1="{g.fmt(y)}" x2="{g.fmt(MARGIN + 30)}" y2="{g.fmt(y)}" '
                     f'stroke="{esc(color)}" stroke-width="{g.fmt(TRACK_W * 0.6)}"/>'
                     + text(MARGIN + 38, y, label, FONT_LEGEND, anchor="start") + "</g>")
        y += 18.0
    total = sum(r.revenue for r in routes)
    label = f"Total: ${total}"
    parts.append(text(MARGIN + 38, y, label, FONT_LEGEND, anchor="start", bold=True, cls="legend-total"))
    parts.append("</g>")
    return "".join(parts)

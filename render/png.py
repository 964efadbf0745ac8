"""SVG text -> PNG bytes with CairoSVG, within the limits Discord and phones need.

Guarantees (checked, not hoped for): the output is at most `max_width` pixels wide, the
smallest font in the SVG comes out at >= MIN_FONT_PX pixels, and the PNG is smaller than
MAX_BYTES (palette-quantised, then scaled down, if it would not be).
"""

from __future__ import annotations

import io
import re

import cairosvg

MAX_WIDTH_PX = 2400
MIN_FONT_PX = 12.0
MAX_BYTES = 8 * 1024 * 1024
# Natural output scales: the map is drawn with hex size 50 units and wants ~2000 px width.
MAP_SCALE = 2.4
MARKET_SCALE = 2.0
TABLE_SCALE = 1.5

_FONT_RE = re.compile(r'font-size="([0-9.]+)"')
_WIDTH_RE = re.compile(r'<svg[^>]*\swidth="([0-9.]+)"')


class RenderLimitError(ValueError):
    """The picture cannot meet the size or legibility guarantees."""


def svg_width(svg: str) -> float:
    m = _WIDTH_RE.search(svg)
    if m is None:
        raise RenderLimitError("SVG has no width attribute")
    return float(m.group(1))


def min_font_size(svg: str) -> float:
    sizes = [float(s) for s in _FONT_RE.findall(svg)]
    return min(sizes) if sizes else MIN_FONT_PX


def output_scale(svg: str, scale: float, max_width: int = MAX_WIDTH_PX) -> float:
    """The scale actually used: `scale`, reduced to fit max_width, and never so small that
    the smallest text drops under MIN_FONT_PX (then RenderLimitError: the view is too big
    for one legible picture and must be split)."""
    s = min(scale, max_width / svg_width(svg))
    smallest = min_font_size(svg)
    if smallest * s < MIN_FONT_PX - 1e-6:
        raise RenderLimitError(
            f"smallest text would be {smallest * s:.1f} px at scale {s:.2f} (min {MIN_FONT_PX})"
        )
    return s


def svg_to_png(svg: str, scale: float = 2.0, max_width: int = MAX_WIDTH_PX,
               optimize: bool = False) -> bytes:
    """Convert SVG text to PNG bytes.

    `optimize` palette-quantises the image with Pillow (about a third of the bytes, slower);
    it is also applied automatically when the plain PNG would exceed MAX_BYTES.
    """
    s = output_scale(svg, scale, max_width)
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=s)
    if optimize or len(png) >= MAX_BYTES:
        png = _quantize(png)
    while len(png) >= MAX_BYTES:  # last resort; legibility check above still bounds scale
        s *= 0.85
        png = _quantize(cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=s))
    return png


def _quantize(png: bytes) -> bytes:
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        rgb = im.convert("RGB")
        pal = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        buf = io.BytesIO()
        pal.save(buf, format="PNG", optimize=True)
        return buf.getvalue()


def map_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, MAP_SCALE, optimize=optimize)


def market_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, MARKET_SCALE, optimize=optimize)


def table_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, TABLE_SCALE, optimize=optimize)

"""SVG text -> PNG bytes with CairoSVG, within the limits Discord and phones need.

Guarantees (checked, not hoped for): the output is at most `max_width` pixels wide, the
smallest font in the SVG comes out at >= MIN_FONT_PX pixels, and the PNG is smaller than
MAX_BYTES (palette-quantised, then scaled down, if it would not be).
"""

from __future__ import annotations

import io
import re
import struct
import zlib

from render import fonts

fonts.configure()  # before Cairo first asks fontconfig for a font

from cairosvg.parser import Tree  # noqa: E402
from cairosvg.surface import PNGSurface  # noqa: E402
from PIL import Image  # noqa: E402

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
    image = rasterize(svg, s)
    png = _quantize(image) if optimize else encode_rgb(image)
    if len(png) >= MAX_BYTES:
        png = _quantize(image)
    while len(png) >= MAX_BYTES:  # last resort; legibility check above still bounds scale
        s *= 0.85
        png = _quantize(rasterize(svg, s))
    return png


def rasterize(svg: str, scale: float) -> Image.Image:
    """Draw the SVG with CairoSVG into an RGB image (the pictures have opaque backgrounds).

    CairoSVG's own svg2png spends more time in cairo's PNG writer than in drawing (it tries
    every row filter on RGBA); taking the pixels and encoding them here is 3x faster.
    """
    # output=None: CairoSVG draws in memory and leaves the pixels on surface.cairo.
    surface = PNGSurface(Tree(bytestring=svg.encode("utf-8")), None, 96, scale=scale)
    cairo = surface.cairo
    cairo.flush()
    size = (cairo.get_width(), cairo.get_height())
    # Cairo's ARGB32 is native-endian B, G, R, A bytes on little-endian machines.
    raw = "BGRX" if struct.pack("=I", 1)[0] == 1 else "XRGB"
    image = Image.frombuffer("RGB", size, bytes(cairo.get_data()), "raw", raw, cairo.get_stride(), 1)
    surface.finish()  # output None: releases the cairo surface, writes nothing
    return image


def encode_rgb(image: Image.Image, level: int = 3) -> bytes:
    """A plain RGB PNG with no row filters and fast zlib.

    Flat colours and long runs (hex fills, table rows) compress as well unfiltered as with
    Pillow's adaptive filters, at a fraction of the time.
    """
    width, height = image.size
    data = image.tobytes()
    stride = width * 3
    rows = b"".join(b"\x00" + data[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows, level)) + chunk(b"IEND", b""))


def _quantize(image: Image.Image) -> bytes:
    pal = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def map_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, MAP_SCALE, optimize=optimize)


def market_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, MARKET_SCALE, optimize=optimize)


def table_png(svg: str, optimize: bool = False) -> bytes:
    return svg_to_png(svg, TABLE_SCALE, optimize=optimize)

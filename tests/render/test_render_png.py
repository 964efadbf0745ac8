"""PNG conversion with the real CairoSVG: signature, size limits, legibility guarantee."""

from __future__ import annotations

import struct

import pytest
from texas_views import sample_map

from render import png
from render.map_svg import map_svg
from render.svgkit import document, text

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE
    w, h = struct.unpack(">II", data[16:24])
    return w, h


@pytest.fixture(scope="module")
def map_bytes() -> bytes:
    return png.map_png(map_svg(sample_map()))


def test_map_png_valid_and_within_limits(map_bytes: bytes) -> None:
    w, h = _size(map_bytes)
    assert 1600 <= w <= png.MAX_WIDTH_PX
    assert h > w  # Texas is taller than wide
    assert len(map_bytes) < png.MAX_BYTES


def test_smallest_map_text_is_legible() -> None:
    svg = map_svg(sample_map())
    scale = png.output_scale(svg, png.MAP_SCALE)
    assert png.min_font_size(svg) * scale >= png.MIN_FONT_PX


def test_wide_svg_is_scaled_to_max_width() -> None:
    svg = document(3000, 100, [text(50, 50, "wide", 20)])
    w, _ = _size(png.svg_to_png(svg, scale=2.0))
    assert w <= png.MAX_WIDTH_PX


def test_too_small_text_is_refused() -> None:
    svg = document(3000, 100, [text(50, 50, "tiny", 6)])
    with pytest.raises(png.RenderLimitError):
        png.svg_to_png(svg, scale=2.0)


def test_optimized_png_is_smaller(map_bytes: bytes) -> None:
    small = png.map_png(map_svg(sample_map()), optimize=True)
    assert _size(small) == _size(map_bytes)
    assert len(small) < len(map_bytes)


def test_fast_encoder_is_lossless_and_keeps_colours() -> None:
    """The unfiltered encoder round-trips through Pillow, and cairo's BGRA is read as RGB."""
    import io

    from PIL import Image

    svg = document(40, 20, ['<rect x="0" y="0" width="20" height="20" fill="#ff0000"/>',
                            '<rect x="20" y="0" width="20" height="20" fill="#0000ff"/>'])
    image = png.rasterize(svg, 1.0)
    assert image.getpixel((5, 5)) == (255, 0, 0) and image.getpixel((35, 5)) == (0, 0, 255)
    data = png.encode_rgb(image)
    assert _size(data) == (40, 20)
    with Image.open(io.BytesIO(data)) as back:
        assert back.mode == "RGB" and back.tobytes() == image.tobytes()

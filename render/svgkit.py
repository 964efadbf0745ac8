"""Small SVG text helpers shared by the map, market and table pictures."""

from __future__ import annotations

import functools
from xml.sax.saxutils import escape

from render.fonts import svg_text
from render.geometry import FONT_FAMILY, fmt


def esc(text: str) -> str:
    return escape(text, {'"': "&quot;"})


def attrs(**kw: object) -> str:
    """Attributes in the order given; `data_x` -> `data-x`, `cls` -> `class`, None skipped."""
    parts = []
    for key, value in kw.items():
        if value is None:
            continue
        name = "class" if key == "cls" else key.replace("_", "-")
        if isinstance(value, float):
            value = fmt(value)
        parts.append(f'{name}="{esc(str(value))}"')
    return " ".join(parts)


def text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "middle",
    bold: bool = False,
    fill: str = "#000000",
    cls: str | None = None,
    opacity: float | None = None,
    halo: bool = False,
    **data: object,
) -> str:
    """Text centred vertically on y.

    The baseline is shifted by hand (0.36 em) instead of using dominant-baseline, which
    CairoSVG and browsers treat differently; this keeps PNG and browser output alike.
    """
    a = attrs(
        cls=cls,
        x=float(x),
        y=float(y + size * 0.36),
        font_size=float(size),
        font_weight="bold" if bold else None,
        text_anchor=anchor,
        fill=fill,
        opacity=opacity,
        **data,
    )
    if halo:
        # A white outline under the letters keeps a name legible where it must cross track.
        return (f'<text {a} stroke="#ffffff" stroke-width="{fmt(size * 0.3)}" stroke-opacity="0.8" '
                f'stroke-linejoin="round">{svg_text(content)}</text><text {a}>{svg_text(content)}</text>')
    return f"<text {a}>{svg_text(content)}</text>"


def document(width: float, height: float, body: list[str], background: str = "#ffffff") -> str:
    w, h = fmt(width), fmt(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="{FONT_FAMILY}">\n'
        f'<rect class="background" x="0" y="0" width="{w}" height="{h}" fill="{background}"/>\n'
        + "\n".join(body)
        + "\n</svg>\n"
    )


@functools.lru_cache(maxsize=4)
def _font(bold: bool) -> object | None:
    try:
        from PIL import ImageFont

        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        for path in (name, f"/usr/share/fonts/truetype/dejavu/{name}"):
            try:
                return ImageFont.truetype(path, 100)
            except OSError:
                continue
    except ImportError:  # pragma: no cover - pillow is a project dependency
        pass
    return None


@functools.lru_cache(maxsize=4096)
def text_width(content: str, size: float, bold: bool = False) -> float:
    """Width of `content` in SVG units, measured with DejaVu Sans when it is installed.

    Used for layout only (column widths, whether a name needs two lines); an estimate of
    0.62 em per character stands in when the font file cannot be found.
    """
    font = _font(bold)
    if font is None:
        return len(content) * size * (0.68 if bold else 0.62)
    return float(font.getlength(content)) * size / 100.0  # type: ignore[attr-defined]


def wrapped(pieces: list[str], joiner: str, size: float, room: float, bold: bool = False) -> list[str]:
    """`pieces` joined by `joiner` into as few lines as fit `room` units each (a piece longer
    than the room gets a line of its own)."""
    lines: list[str] = []
    for piece in pieces:
        if lines and text_width(lines[-1] + joiner + piece, size, bold) <= room:
            lines[-1] += joiner + piece
        else:
            lines.append(piece)
    return lines

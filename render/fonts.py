"""Fonts for text in any script: player names in Chinese, Arabic or emoji must not be boxes.

CairoSVG draws text with Cairo's simple text API, one font per text element and no fallback
for missing glyphs. So text is split into runs, each tagged with the first font that has all
of its glyphs: the pictures' own font (DejaVu Sans) where it can, else a Noto font. The Noto
fonts come from the ``manimgx-fonts`` and ``manimgx-fonts-cjk`` packages (SIL Open Font
License); ``configure`` makes them known to fontconfig, which Cairo asks for fonts, before
the first picture is drawn.
"""

from __future__ import annotations

import functools
import importlib
import logging
import os
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

log = logging.getLogger(__name__)

FONT_PACKAGES = ("manimgx_fonts", "manimgx_fonts_cjk")
PRIMARY_FILES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)
# Fallbacks in order: general text first, CJK last (the largest file, loaded only if needed).
FALLBACK_ORDER = ("NotoSans[", "NotoSansSymbols", "NotoEmoji", "NotoSans", "NotoSansCJK")
_ASCII = frozenset(range(0x20, 0x7F))


def font_dirs() -> list[Path]:
    dirs = []
    for name in FONT_PACKAGES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            log.warning("font package %s is not installed; some names may show as boxes", name)
            continue
        dirs.append(Path(str(module.__file__)).parent)
    return dirs


def configure() -> None:
    """Point fontconfig at the packaged fonts as well as the system's (call before drawing)."""
    dirs = font_dirs()
    if not dirs or os.environ.get("STATIONMASTER_FONTS_CONFIGURED"):
        return
    base = os.environ.get("FONTCONFIG_FILE", "/etc/fonts/fonts.conf")
    folder = Path(tempfile.gettempdir()) / f"stationmaster-fontconfig-{os.getuid()}"
    folder.mkdir(parents=True, exist_ok=True)
    conf = folder / f"fonts-{abs(hash((base, *map(str, dirs)))):x}.conf"
    if not conf.exists():
        body = "".join(f"<dir>{escape(str(d))}</dir>" for d in dirs)
        text = ('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                f'<include ignore_missing="yes">{escape(base)}</include>{body}'
                f"<cachedir>{escape(str(folder / 'cache'))}</cachedir></fontconfig>")
        partial = conf.with_suffix(".tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(conf)  # whole or absent, even with two processes starting at once
    os.environ["FONTCONFIG_FILE"] = str(conf)
    os.environ["STATIONMASTER_FONTS_CONFIGURED"] = "1"


@functools.lru_cache(maxsize=1)
def _fallback_files() -> tuple[Path, ...]:
    files = [f for d in font_dirs() for f in sorted(d.iterdir()) if f.suffix in (".ttf", ".otf", ".ttc")
             and "Italic" not in f.name]

    def rank(file: Path) -> int:
        return next((i for i, prefix in enumerate(FALLBACK_ORDER) if file.name.startswith(prefix)),
                    len(FALLBACK_ORDER))

    return tuple(sorted(files, key=rank))


@functools.lru_cache(maxsize=64)
def _coverage(path: str) -> tuple[str, frozenset[int]]:
    """The family name and the code points of a font file (the first font of a collection)."""
    from fontTools.ttLib import TTFont

    font = TTFont(path, fontNumber=0, lazy=True)
    family = font["name"].getBestFamilyName() or Path(path).stem
    return family, frozenset(font.getBestCmap() or {})


@functools.lru_cache(maxsize=1)
def _primary() -> frozenset[int]:
    for path in PRIMARY_FILES:
        if Path(path).exists():
            return _coverage(path)[1]
    return _ASCII


def family_for(char: str) -> str | None:
    """None if the pictures' own font has ``char``, else the first packaged font that has it
    (None too if none has: it is drawn as the default font draws it)."""
    point = ord(char)
    if point in _ASCII or point in _primary() or char.isspace():
        return None
    for file in _fallback_files():
        family, points = _coverage(str(file))
        if point in points:
            return family
    return None


def runs(content: str) -> list[tuple[str | None, str]]:
    """``content`` cut into (font family or None for the default, text) runs."""
    if all(ord(c) in _ASCII for c in content):
        return [(None, content)]
    out: list[tuple[str | None, str]] = []
    for char in content:
        family = None if char.isspace() else family_for(char)  # spaces in the default font's width
        if out and out[-1][0] == family:
            out[-1] = (family, out[-1][1] + char)
        else:
            out.append((family, char))
    return out


def svg_text(content: str) -> str:
    """Escaped SVG text content, with ``<tspan font-family>`` around runs the default font lacks."""
    return "".join(escape(text) if family is None else f'<tspan font-family="{escape(family)}">{escape(text)}</tspan>'
                   for family, text in runs(content))

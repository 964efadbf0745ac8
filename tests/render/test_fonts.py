"""Player names in any script are drawn, not shown as boxes (issue 9: fonts).

Cairo draws a glyph a font lacks as the same empty box whatever the character, so two
different characters drawing the same pixels means neither was drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from render import png
from render.fonts import runs, svg_text
from render.svgkit import document, text


def _pixels(content: str) -> Image.Image:
    svg = document(120, 60, [text(10, 30, content, 28, anchor="start")])
    return Image.open(io.BytesIO(png.svg_to_png(svg, 1.0))).convert("L")


@pytest.mark.parametrize("first, second", [("山", "田"), ("민", "준"), ("🚂", "🚌"), ("ब", "क"), ("ก", "ข")])
def test_characters_of_other_scripts_are_drawn(first: str, second: str) -> None:
    one, other = _pixels(first), _pixels(second)
    assert ImageChops.difference(one, other).getbbox() is not None, f"{first} and {second} look the same"
    assert one.getextrema()[0] < 128, "something dark was drawn"


def test_text_is_cut_into_runs_by_the_font_that_has_it() -> None:
    assert runs("Alice") == [(None, "Alice")]
    assert runs("Ölçü Пётр") == [(None, "Ölçü Пётр")]  # the pictures' own font has these
    cut = runs("Bo 山田 🚂")
    assert [t for _, t in cut] == ["Bo ", "山田", " ", "🚂"]
    assert cut[1][0] is not None and cut[3][0] is not None and cut[1][0] != cut[3][0]
    assert svg_text("a<b & 山") .startswith("a&lt;b &amp; <tspan font-family=")

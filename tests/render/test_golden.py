"""Golden images: the three pictures of three fixture positions, compared with a tolerance.

The goldens catch drawing and layout regressions (a moved city, a lost layer, a different
track shape). Exact numbers and tokens are the structural tests' job: one changed digit in
a table is below the tolerance on purpose, so that antialiasing differences between cairo
or font builds do not fail the suite.

Regenerating is a deliberate step, reviewed like code (look at every changed PNG):

    STATIONMASTER_REGEN_GOLDEN=1 /work/venv/bin/python -m pytest tests/render/test_golden.py
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from engine_states import GOLDEN_STATES, state_after
from PIL import Image, ImageChops, ImageStat

from engine.core.game import BaseGame
from render import png
from render.from_engine import map_view, market_view, table_view
from render.map_svg import map_svg
from render.market_svg import market_svg
from render.table_svg import table_svg

GOLDEN_DIR = Path(__file__).with_name("golden")
REGENERATE = os.environ.get("STATIONMASTER_REGEN_GOLDEN") == "1"
# Mean absolute difference per channel (0-255) and share of pixels off by more than
# STRONG: palette quantisation of the goldens costs about 0.2 and 0.01 %; one more tile
# on the map costs about 1.2 and 0.8 %.
MAX_MEAN = 0.5
MAX_STRONG_SHARE = 0.001
STRONG = 40

PICTURES: dict[str, tuple[Callable[[BaseGame], bytes], int]] = {
    # name: (production PNG of a state, reduction factor before storing/comparing)
    "map": (lambda s: png.map_png(map_svg(map_view(s))), 2),
    "market": (lambda s: png.market_png(market_svg(market_view(s))), 2),
    "table": (lambda s: png.table_png(table_svg(table_view(s))), 1),
}


def picture(state: BaseGame, kind: str) -> Image.Image:
    make, reduce_by = PICTURES[kind]
    image = Image.open(io.BytesIO(make(state))).convert("RGB")
    return image.reduce(reduce_by) if reduce_by > 1 else image


def difference(a: Image.Image, b: Image.Image) -> tuple[float, float]:
    diff = ImageChops.difference(a, b)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    strong = diff.convert("L").point(lambda v: 255 if v > STRONG else 0)
    return mean, ImageStat.Stat(strong).mean[0] / 255


def save_golden(image: Image.Image, path: Path) -> None:
    """256-colour palette, optimised: a few dozen KB per picture in the repository."""
    image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, format="PNG", optimize=True)


@pytest.mark.parametrize("kind", sorted(PICTURES))
@pytest.mark.parametrize("state_name", sorted(GOLDEN_STATES))
def test_matches_golden(state_name: str, kind: str, tmp_path: Path) -> None:
    actual = picture(state_after(GOLDEN_STATES[state_name]), kind)
    path = GOLDEN_DIR / f"{state_name}_{kind}.png"
    if REGENERATE:
        save_golden(actual, path)
        pytest.skip(f"regenerated {path.name}; review it before committing")
    assert path.exists(), f"no golden {path}; generate with STATIONMASTER_REGEN_GOLDEN=1"
    golden = Image.open(path).convert("RGB")
    kept = tmp_path / f"actual_{path.name}"
    actual.save(kept)
    assert actual.size == golden.size, f"size {actual.size} != golden {golden.size}; actual in {kept}"
    mean, strong = difference(actual, golden)
    assert mean < MAX_MEAN and strong < MAX_STRONG_SHARE, (
        f"{path.name}: mean diff {mean:.3f} (max {MAX_MEAN}), {strong:.4%} of pixels off by > {STRONG} "
        f"(max {MAX_STRONG_SHARE:.2%}); actual picture in {kept}")


def test_tolerance_sees_one_more_tile() -> None:
    """The thresholds are not so loose that the next tile lay would still pass."""
    before, after = picture(state_after(196), "map"), picture(state_after(200), "map")
    mean, strong = difference(before, after)
    assert mean > MAX_MEAN or strong > MAX_STRONG_SHARE

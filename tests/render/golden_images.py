"""Comparing pictures with their golden images (see golden/README.md), for every title.

The goldens catch drawing and layout regressions (a moved city, a lost layer, a different
track shape). Exact numbers and tokens are the structural tests' job: one changed digit in
a table is below the tolerance on purpose, so that antialiasing differences between cairo
or font builds do not fail the suite.

Regenerating is a deliberate step, reviewed like code (look at every changed PNG):

    STATIONMASTER_REGEN_GOLDEN=1 python -m pytest tests/render/test_golden.py tests/render/test_usa_golden.py
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

GOLDEN_DIR = Path(__file__).with_name("golden")
REGENERATE = os.environ.get("STATIONMASTER_REGEN_GOLDEN") == "1"
# Mean absolute difference per channel (0-255) and share of pixels off by more than
# STRONG: palette quantisation of the goldens costs about 0.2 and 0.01 %; one more tile
# on the map costs about 1.2 and 0.8 %.
MAX_MEAN = 0.5
MAX_STRONG_SHARE = 0.001
STRONG = 40


def reduced(png_bytes: bytes, reduce_by: int) -> Image.Image:
    image = Image.open(io.BytesIO(png_bytes)).convert("RGB")
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


def check_golden(actual: Image.Image, name: str, tmp_path: Path) -> None:
    """Compare with golden/<name>.png, or write it when regenerating (and skip)."""
    path = GOLDEN_DIR / f"{name}.png"
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

"""Golden images: the three pictures of three 18Texas fixture positions, compared with a
tolerance (tests/render/golden_images.py explains it and how to regenerate them)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from engine_states import GOLDEN_STATES, state_after
from golden_images import MAX_MEAN, MAX_STRONG_SHARE, check_golden, difference, reduced
from PIL import Image

from engine.core.game import BaseGame
from render import png
from render.from_engine import map_view, market_view, table_view
from render.map_svg import map_svg
from render.market_svg import market_svg
from render.table_svg import table_svg

PICTURES: dict[str, tuple[Callable[[BaseGame], bytes], int]] = {
    # name: (production PNG of a state, reduction factor before storing/comparing)
    "map": (lambda s: png.map_png(map_svg(map_view(s))), 2),
    "market": (lambda s: png.market_png(market_svg(market_view(s))), 2),
    "table": (lambda s: png.table_png(table_svg(table_view(s))), 1),
}


def picture(state: BaseGame, kind: str) -> Image.Image:
    make, reduce_by = PICTURES[kind]
    return reduced(make(state), reduce_by)


@pytest.mark.parametrize("kind", sorted(PICTURES))
@pytest.mark.parametrize("state_name", sorted(GOLDEN_STATES))
def test_matches_golden(state_name: str, kind: str, tmp_path: Path) -> None:
    check_golden(picture(state_after(GOLDEN_STATES[state_name]), kind), f"{state_name}_{kind}", tmp_path)


def test_tolerance_sees_one_more_tile() -> None:
    """The thresholds are not so loose that the next tile lay would still pass."""
    before, after = picture(state_after(196), "map"), picture(state_after(200), "map")
    mean, strong = difference(before, after)
    assert mean > MAX_MEAN or strong > MAX_STRONG_SHARE

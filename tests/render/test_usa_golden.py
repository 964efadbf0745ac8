"""Golden images of 18USA: the map, market and table of three positions of fixture 109372
(tests/render/golden_images.py explains the tolerance and how to regenerate them). The map
comes from the map replay of the board, the market and table from the reference trace."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from golden_images import check_golden, reduced
from usa_states import USA_STATES, trace_line, usa_position
from usa_trace_views import usa_market_view, usa_table_view

from render import png
from render.map_svg import map_svg
from render.market_svg import market_svg
from render.table_svg import table_svg

PICTURES: dict[str, tuple[Callable[[int | None], bytes], int]] = {
    # name: (production PNG of a position, reduction factor before storing/comparing)
    "map": (lambda upto: png.map_png(map_svg(usa_position(upto).map_view())), 2),
    "market": (lambda upto: png.market_png(market_svg(usa_market_view(trace_line(upto)))), 2),
    "table": (lambda upto: png.table_png(table_svg(usa_table_view(trace_line(upto)))), 1),
}


@pytest.mark.parametrize("kind", sorted(PICTURES))
@pytest.mark.parametrize("state_name", sorted(USA_STATES))
def test_matches_golden(state_name: str, kind: str, tmp_path: Path) -> None:
    make, reduce_by = PICTURES[kind]
    check_golden(reduced(make(USA_STATES[state_name]), reduce_by), f"{state_name}_{kind}", tmp_path)

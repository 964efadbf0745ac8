"""Every company id on the stock market fits inside its token, on real 18USA markets: four-letter
ids (ATSF in fixture 109372 after action 1327, MILW operating first in randplay_18USA_4p_s8400)
ran over the edge of the disc at the smallest legible size."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from engine import load_game
from render.cli import truncate_log
from render.from_engine import market_view
from render.market_svg import market_svg
from render.svgkit import text_width

ROOT = Path(__file__).resolve().parents[2]
POSITIONS = {"109372 OR 5.2": (ROOT / "tests/data/fixtures/18USA/109372.json", 1327, "ATSF"),
             "s8400 OR 1.1": (ROOT / "tests/data/generated/18USA/randplay_18USA_4p_s8400.json", 126, "MILW")}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_company_ids_fit_inside_their_tokens(name: str) -> None:
    path, upto, long_id = POSITIONS[name]
    state = load_game(truncate_log(json.loads(path.read_text()), upto)).state
    root = ET.fromstring(market_svg(market_view(state)))
    tokens = [e for e in root.iter() if e.get("class") == "token"]
    assert long_id in {t.get("data-corp") for t in tokens}
    assert len(tokens) == len(state.market.position)
    for token in tokens:
        disc = next(e for e in token if e.tag.endswith("circle"))
        label = next(e for e in token if e.tag.endswith("text"))
        inside = 2 * float(disc.get("r", 0)) - 2  # within the disc's black outline
        width = text_width(label.text or "", float(label.get("font-size", 0)), bold=True)
        assert width <= inside, (token.get("data-corp"), width, inside)

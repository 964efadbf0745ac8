"""Market and summary pictures from 18Texas data."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from texas_views import SAMPLE_MARKET_TOKENS, load, sample_table, texas_market

from render import png
from render.market_svg import market_svg
from render.table_svg import table_svg
from render.view import MarketCellView, MarketView


def _by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_market_grid_shape_par_ledge_arrows() -> None:
    root = ET.fromstring(market_svg(texas_market()))
    cells = _by_class(root, "market-cell")
    assert len(cells) == 65
    by_row: dict[str, int] = {}
    for c in cells:
        by_row[c.get("data-row", "")] = by_row.get(c.get("data-row", ""), 0) + 1
    assert [by_row[str(r)] for r in range(7)] == load("market")["row_lengths"]
    par = sorted(int(c.get("data-price", 0)) for c in cells if c.get("data-par") == "1")
    assert par == [70, 75, 82, 90, 100]
    ledges = {(e.get("data-row"), e.get("data-col")) for e in _by_class(root, "ledge")}
    assert ("0", "16") in ledges and ("1", "13") in ledges and ("0", "0") not in ledges
    assert len(_by_class(root, "arrow-up")) == 6 and len(_by_class(root, "arrow-down")) == 6


def test_market_tokens_in_stacking_order() -> None:
    root = ET.fromstring(market_svg(texas_market(SAMPLE_MARKET_TOKENS)))
    tokens = [t for t in _by_class(root, "token") if (t.get("data-row"), t.get("data-col")) == ("2", "4")]
    assert [t.get("data-corp") for t in sorted(tokens, key=lambda t: int(t.get("data-order", 0)))] == [
        "SP", "MP", "T&P"]
    assert len(_by_class(root, "token")) == 6


def test_one_dimensional_market_wraps() -> None:
    cells = tuple(MarketCellView(0, i, 40 + 5 * i) for i in range(70))
    svg = market_svg(MarketView("18USA", cells, "1d"))
    assert len(_by_class(ET.fromstring(svg), "market-cell")) == 70
    assert png.svg_width(svg) < 800


def test_table_lists_players_corporations_depot() -> None:
    root = ET.fromstring(table_svg(sample_table()))
    tables = {t.get("data-table"): t for t in _by_class(root, "table")}
    assert set(tables) == {"players", "corporations", "depot"}
    players = [r.get("data-player") for r in _by_class(tables["players"], "row")]
    assert players == ["Alice", "Bob", "Charlotte-Anne", "Dmitri"]
    corps = [r.get("data-corp") for r in _by_class(tables["corporations"], "row")]
    # Companies nobody has started are named on one line under the table, not given rows of zeros.
    assert corps == ["T&P", "SP", "MP"]
    unstarted = [e.text for e in root.iter() if e.get("class") == "unstarted"]
    assert unstarted == ["Not started: MKT, SSW, SAA"]
    all_text = " ".join(e.text or "" for e in root.iter())
    assert "Bank $5731" in all_text and "$1250" in all_text and "Rusts on".upper() in all_text


def test_market_and_table_png_limits() -> None:
    for data in (png.market_png(market_svg(texas_market(SAMPLE_MARKET_TOKENS))),
                 png.table_png(table_svg(sample_table()))):
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        assert len(data) < png.MAX_BYTES
        assert int.from_bytes(data[16:20], "big") <= png.MAX_WIDTH_PX

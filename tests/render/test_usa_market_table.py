"""The 18USA market and table pictures from reference trace states of fixture 109372 (the game
class is not written yet: tests/render/usa_trace_views.py builds the views)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from PIL import Image
from usa_states import USA_STATES, trace_line
from usa_trace_views import usa_market_view, usa_table_view

from engine.titles.g18usa.data import load_data
from render import png
from render.market_svg import market_svg
from render.table_svg import table_svg

STATES = list(USA_STATES.values())
IDS = list(USA_STATES)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter() if t.tag.endswith("text")]


def market_root(line: dict[str, Any]) -> ET.Element:
    return ET.fromstring(market_svg(usa_market_view(line)))


def test_one_row_with_liquidation_acquisition_and_thresholds() -> None:
    root = market_root(trace_line(None))
    cells = by_class(root, "market-cell")
    assert len(cells) == 70
    zones = {int(c.get("data-col", -1)): c.get("data-zone") for c in cells if c.get("data-zone")}
    assert zones == {0: "liquidation", 1: "acquisition", 2: "acquisition", 3: "acquisition"}
    safe = sorted(int(c.get("data-price", 0)) for c in cells if c.get("data-label") == "safe par")
    assert safe == [53, 74, 120]
    grid = {raw["col"]: raw for raw in load_data()["market"]["grid"][0]}
    for cell in cells:
        col = int(cell.get("data-col", -1))
        (line,) = by_class(cell, "thresholds") or [None]
        if grid[col]["dividend_thresholds"] is None:
            assert line is None
        else:
            assert line is not None
            assert [int(v) for v in (line.text or "").split()] == grid[col]["dividend_thresholds"]
    # Ten spaces a line: the 11th starts the second line under the first.
    x = {int(c.get("data-col", -1)): float(next(e for e in c.iter() if e.tag.endswith("rect")).get("x", 0))
         for c in cells}
    assert x[10] == x[0] and x[1] > x[0] and x[9] > x[8]


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_market_tokens_where_the_trace_has_them(upto: int | None) -> None:
    line = trace_line(upto)
    drawn = {t.get("data-corp"): int(t.get("data-col", -1)) for t in by_class(market_root(line), "token")}
    expected = {c["id"]: c["market"][1] for c in line["corps"] if c.get("market") and not c.get("closed")}
    assert drawn == expected and expected


def test_stacked_tokens_keep_their_order() -> None:
    line = trace_line(None)
    stacks: dict[int, list[str]] = {}
    for token in sorted(by_class(market_root(line), "token"), key=lambda t: int(t.get("data-order", 0))):
        stacks.setdefault(int(token.get("data-col", -1)), []).append(token.get("data-corp", ""))
    shared = {col: corps for col, corps in stacks.items() if len(corps) > 1}
    assert shared  # the end of 109372 has companies sharing spaces (ATSF and B&O at $540)
    for corps in shared.values():
        assert corps == [c["id"] for c in line["corps"] if c["id"] in corps]  # the stack's order


def table_root(line: dict[str, Any]) -> ET.Element:
    return ET.fromstring(table_svg(usa_table_view(line)))


def rows(root: ET.Element, table: str) -> dict[str, list[str]]:
    (block,) = [t for t in by_class(root, "table") if t.get("data-table") == table]
    key = {"players": "data-player", "corporations": "data-corp", "privates": "data-private"}[table]
    return {r.get(key, ""): texts(r) for r in by_class(block, "row")}


def headers(root: ET.Element, table: str) -> list[str]:
    (block,) = [t for t in by_class(root, "table") if t.get("data-table") == table]
    return [t.text or "" for t in block if t.tag.endswith("text")]


@pytest.mark.parametrize("upto", STATES, ids=IDS)
def test_table_companies_with_size_loans_trains_and_area(upto: int | None) -> None:
    line = trace_line(upto)
    root = table_root(line)
    assert headers(root, "corporations")[:5] == ["CORP", "SIZE", "PRESIDENT", "CASH", "LOANS"]
    shown = rows(root, "corporations")
    open_corps = [c for c in line["corps"] if not c.get("closed")]
    assert list(shown) == [c["id"] for c in open_corps]
    for corp in open_corps:
        cells = shown[corp["id"]]
        assert cells[1] == str(corp["total_shares"]) and cells[3] == f"${corp['cash']}"
        assert cells[4] == str(corp["loans"])
        trains = cells[6].split(", ") if cells[6] != "\u2014" else []
        assert [t.replace("+P", "P") for t in trains] == corp["trains"]
        assert (corp["area"] or "") in cells[-1]


def test_table_players_shorts_privates_and_the_bank_of_new_york() -> None:
    line = trace_line(USA_STATES["usa_middle"])
    root = table_root(line)
    players = rows(root, "players")
    column = headers(root, "players").index("SHORTS")
    shown = []
    for player in line["players"]:
        shorts = [corp for corp, percent, _ in player["certs"] if percent < 0]
        cell = players[player["name"]][column]
        assert cell == (", ".join(f"{c} \u00d7{shorts.count(c)}" for c in dict.fromkeys(shorts)) or "\u2014")
        shown.append(cell)
    assert shown.count("PRR \u00d71") == 2  # players 1 and 3 are short PRR
    held = {c for p in line["players"] for c in p["companies"]} | {c for k in line["corps"] for c in k["companies"]}
    assert set(rows(root, "privates")) == held
    (bank,) = by_class(root, "loan-bank")
    assert bank.text == (f"Bank of New York: loans left {line['loans_left']} \u00b7 interest "
                         f"${line['interest_rate']} per loan")


@pytest.mark.parametrize("upto", [None], ids=["usa_end"])
def test_market_and_table_pngs_fit(upto: int | None) -> None:
    line = trace_line(upto)
    for data in (png.market_png(market_svg(usa_market_view(line))), png.table_png(table_svg(usa_table_view(line)))):
        image = Image.open(io.BytesIO(data))
        assert max(image.size) <= 2400 and len(data) < 8 * 1024 * 1024

"""Market and table pictures from real engine positions of the 18Texas fixture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from engine_states import state_after

from render.from_engine import market_view, round_label, round_title, table_view
from render.market_svg import market_svg
from render.table_svg import table_svg

STATES = (40, 200, None)


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


@pytest.mark.parametrize("upto", STATES)
def test_market_tokens_in_engine_stacking_order(upto: int | None) -> None:
    state = state_after(upto)
    root = ET.fromstring(market_svg(market_view(state)))
    drawn: dict[tuple[int, int], list[tuple[int, str]]] = {}
    for t in by_class(root, "token"):
        key = (int(t.get("data-row", -1)), int(t.get("data-col", -1)))
        drawn.setdefault(key, []).append((int(t.get("data-order", -1)), t.get("data-corp", "")))
    got = {k: [c for _, c in sorted(v)] for k, v in drawn.items()}
    want = {k: list(v) for k, v in state.market.stacks.items() if v}
    assert got == want
    assert len(by_class(root, "market-cell")) == len(state.market.cells)


def test_market_zones_from_engine_cells() -> None:
    state = state_after(None)
    root = ET.fromstring(market_svg(market_view(state)))
    par = {(int(c.get("data-row", -1)), int(c.get("data-col", -1)))
           for c in by_class(root, "market-cell") if c.get("data-par") == "1"}
    assert par == {key for key, cell in state.market.cells.items() if cell.is_par}
    ledges = {(int(e.get("data-row", -1)), int(e.get("data-col", -1))) for e in by_class(root, "ledge")}
    assert ledges == {key for key, cell in state.market.cells.items() if cell.on_ledge}


@pytest.mark.parametrize("upto", STATES)
def test_table_matches_the_engine(upto: int | None) -> None:
    state = state_after(upto)
    view = table_view(state)
    assert [p.name for p in view.players] == [p.name for p in state.players]
    for row, player in zip(view.players, state.players, strict=True):
        assert row.cash == player.cash
        assert row.value == state.player_value(player)
        assert row.cert_count == state.certificate_count(player)
        assert row.has_priority == (player is state.priority_player)
        assert row.is_active == (player in state.acting_players())
    for row in view.corporations:
        corp = state.corporations[row.id]
        assert (row.cash, row.tokens_left, row.trains) == (
            corp.cash, state.tokens_left(corp), tuple(t.name for t in corp.trains))
    assert [(d.train, d.count) for d in view.depot] == [tuple(x) for x in state.depot.run_length()]
    assert view.bank_cash == state.bank.cash and view.phase == state.phase.name

    root = ET.fromstring(table_svg(view))
    text = " ".join(e.text or "" for e in root.iter())
    assert round_title(state) in text
    players = [r.get("data-player") for r in by_class(root, "row") if r.get("data-player")]
    assert players == [p.name for p in state.players]


def test_depot_says_what_the_next_trains_bring() -> None:
    depot = {d.train: d for d in table_view(state_after(40)).depot}
    assert depot["4"].first_brings == ("phase 4", "rusts 2")
    assert depot["5"].first_brings == ("phase 5", "privates close")
    assert depot["3"].rusts_on == "6"


def test_round_labels() -> None:
    assert round_label(state_after(40)) == "Stock Round 2"
    assert round_label(state_after(200)) == "Operating Round 4.2 \u2014 SP operating"
    assert round_label(state_after(None)) == "Game over: the bank broke"
    # The market and the table name the round without who operates in it (drawn once a round).
    assert round_title(state_after(200)) == "Operating Round 4.2"
    assert round_title(state_after(40)) == "Stock Round 2"
    assert round_title(state_after(None)) == "Game over: the bank broke"


def test_broken_bank_shown_as_negative_and_noted() -> None:
    state = state_after(None)
    assert state.bank.cash < 0
    text = " ".join(e.text or "" for e in ET.fromstring(table_svg(table_view(state))).iter())
    assert f"Bank -${-state.bank.cash}" in text and "bank has broken" in text

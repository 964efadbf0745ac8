"""What players plan with, on the table picture of real positions: who operates next, what a
company's loans cost it, what the first 8-train does, how and when the game ends.

Fixture 109372 (18USA) after action 1327 is Operating Round 5.2 in phase 8: B&O, MP, N&W and UP
have operated, ATSF is operating, TP, PRR and SR wait; ATSF, PRR, TP and UP hold loans; the
first 8-train has been bought. The 18Texas fixture ends when the bank breaks.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

from engine_states import state_after
from usa_states import trace_line

from engine import load_game
from engine.core.game import BaseGame
from render.cli import truncate_log
from render.from_engine import table_view
from render.table_svg import ACTIVE, table_svg

ROOT = Path(__file__).resolve().parents[2]
USA = ROOT / "tests" / "data" / "fixtures" / "18USA" / "109372.json"
GENERATED_USA = ROOT / "tests" / "data" / "generated" / "18USA" / "randplay_18USA_4p_s8400.json"


@cache
def usa_after(upto: int | None, path: Path = USA) -> BaseGame:
    return load_game(truncate_log(json.loads(path.read_text()), upto)).state


def rows(svg: str, table: str) -> dict[str, tuple[list[str], bool]]:
    """Each row of a table by its company or player: its cells' texts and whether it is marked
    as the one acting (the highlight colour behind it)."""
    root = ET.fromstring(svg)
    found = {}
    for block in root.iter():
        if block.get("data-table") != table:
            continue
        for row in block:
            key = row.get("data-corp") or row.get("data-player") or row.get("data-train")
            if key is None:
                continue
            cells = [t.text or "" for t in row.iter() if t.tag.endswith("text")]
            marked = any(r.get("fill") == ACTIVE for r in row.iter() if r.tag.endswith("rect"))
            found[key] = (cells, marked)
    return found


def texts(svg: str) -> list[str]:
    return [e.text or "" for e in ET.fromstring(svg).iter() if e.tag.endswith("text")]


def test_the_operating_order_and_the_company_operating_are_shown() -> None:
    state = usa_after(1327)
    corps = rows(table_svg(table_view(state)), "corporations")
    # The engine's round: the companies done in the order they went, then the one operating.
    done = state.round.done  # type: ignore[attr-defined]
    assert done == ["B&O", "MP", "N&W", "UP"]
    assert [corps[cid][0][0] for cid in done] == ["1 done", "2 done", "3 done", "4 done"]
    assert corps["ATSF"][0][0] == "5 now" and corps["ATSF"][1]
    # The others in the engine's operating order, none of them highlighted.
    waiting = [c.id for c in state.operating_order() if c.id not in done and c.id != "ATSF"]
    assert [corps[cid][0][0] for cid in waiting] == [str(k) for k in range(6, 6 + len(waiting))]
    assert not any(marked for cid, (_, marked) in corps.items() if cid != "ATSF")


def test_outside_an_operating_round_there_is_no_order_column() -> None:
    svg = table_svg(table_view(state_after(40)))  # 18Texas, Stock Round 2
    assert "ORDER" not in texts(svg)


def test_a_company_s_loans_show_the_interest_it_owes() -> None:
    state = usa_after(1327)
    corps = rows(table_svg(table_view(state)), "corporations")
    header = texts(table_svg(table_view(state)))
    column = header.index("LOANS") - header.index("ORDER")
    for cid in ("ATSF", "PRR", "TP", "UP"):
        count, due = state.loans.count(cid), state.loans.interest_due(cid)
        assert count and due == count * state.loans.current_rate()
        assert corps[cid][0][column] == f"{count} (${due} due)"
    assert corps["B&O"][0][column] == "0"


def test_companies_not_started_are_one_line_not_rows_of_zeros() -> None:
    state = usa_after(1327)
    svg = table_svg(table_view(state))
    corps = rows(svg, "corporations")
    started = {c.id for c in state.corporations.values() if c.id in state.market.position}
    assert set(corps) == started
    line = next(t for t in texts(svg) if t.startswith("Not started: "))
    assert set(line.removeprefix("Not started: ").split(", ")) == set(state.corporations) - started


def test_the_first_8_train_is_said_to_start_the_end_of_the_game() -> None:
    svg = table_svg(table_view(usa_after(142)))
    eight = rows(svg, "depot")["8"][0]
    assert eight[-1] == "phase 8, rusts 4, game-end countdown"
    assert not any("_" in t for t in texts(svg))


def test_the_title_s_notes_say_when_the_game_ends() -> None:
    state = usa_after(1327)
    lines = texts(table_svg(table_view(state)))
    assert f"The first 8-train has been bought: the game ends after Operating Round {state.final_turn}.3." in lines  # type: ignore[attr-defined]


def test_the_end_says_why_in_words_and_ranks_the_players() -> None:
    state = usa_after(None, GENERATED_USA)
    svg = table_svg(table_view(state))
    lines = texts(svg)
    assert state.end_reason == "final_phase"
    assert lines[0] == "18USA \u2014 Game over: the last round of the final phase \u2014 Phase 8"
    ranking = sorted(state.result().items(), key=lambda item: -item[1])
    names = {p.key: p.name for p in state.players}
    assert "Final ranking: " + " \u00b7 ".join(
        f"{k}. {names[key]} ${value}" for k, (key, value) in enumerate(ranking, 1)) in lines
    # The player who went bankrupt is marked as such.
    players = rows(svg, "players")
    bankrupt = [p.name for p in state.players if p.bankrupt]
    assert bankrupt and all(players[name][0][1] == f"{name} (bankrupt)" for name in bankrupt)


def test_trains_are_listed_in_the_title_s_order() -> None:
    state = usa_after(None, GENERATED_USA)
    corps = {c.id: c for c in table_view(state).corporations}
    # SP bought its Pullman before its 8-train; the table names the train first.
    assert [t.name for t in state.corporations["SP"].trains] == ["P", "8"]
    assert corps["SP"].trains == ("8", "P")


def test_the_loan_bank_shows_the_rate_in_force_in_a_stock_round() -> None:
    # Stock Round 4 of 109372: loans repaid since the last operating round fixed the rate have
    # moved it; the site shows the rate the loans now held set, and so must the table.
    state = usa_after(859)
    assert state.round_label() == "Stock Round 4"
    site = trace_line(859)["interest_rate"]
    assert state.loans.interest_rate != site  # the rate the last operating round fixed
    line = next(t for t in texts(table_svg(table_view(state))) if t.startswith("Bank of New York"))
    assert line.endswith(f"interest ${site} per loan")


def test_before_any_company_starts_all_are_named_as_not_started() -> None:
    state = state_after(1)  # 18Texas's opening auction: no company has started
    assert state.round_label() == "Auction Round" and not state.market.position
    svg = table_svg(table_view(state))
    assert rows(svg, "corporations") == {}
    assert "Not started: " + ", ".join(state.corporations) in texts(svg)


def test_the_pullman_cars_the_bank_sells_are_listed_with_the_trains() -> None:
    # 18USA's depot holds no Pullman: the bank sells them, any number, from phase 5 on.
    assert "P" not in {kind.name for kind in usa_after(142).depot.kinds}
    before = rows(table_svg(table_view(usa_after(142))), "depot")["P"][0]
    assert before == ["P", "\u221e", "$200", "\u2014", "on sale from phase 5"]
    after = rows(table_svg(table_view(usa_after(1327))), "depot")["P"][0]
    assert after == ["P", "\u221e", "$200", "\u2014", "\u2014"]


def test_the_company_deciding_in_a_merger_round_is_highlighted() -> None:
    state = usa_after(405)  # Merger and Conversion Round 2.1: PRR is to decide
    assert state.round_label() == "Merger and Conversion Round 2.1"
    corps = rows(table_svg(table_view(state)), "corporations")
    assert [cid for cid, (_, marked) in corps.items() if marked] == ["PRR"]
    assert "ORDER" not in texts(table_svg(table_view(state)))

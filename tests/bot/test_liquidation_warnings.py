"""Issue 31, clarity: a move that puts a company into liquidation is named before it is made, in
/game status, in /moves and in the prompt after the move before it, as the missing-train case
already was: a conversion whose new stations the company cannot pay for (14.1.1), a pass that
ends the stock round while a company owes stations it cannot pay (11.6), and the end of a
company's train buying when it cannot pay its interest with the loans left (12.8). Through a
real `stationmaster play` process on positions of generated 18USA games; where the move is then
made, the liquidation happens as named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_helpers import ROOT, imported_at, pasted, play

from engine import load_game

GENERATED = ROOT / "tests" / "data" / "generated"


def at(tmp_path: Path, log: str, upto: int) -> tuple[Path, dict[str, Any], list[dict[str, Any]]]:
    """A store with the log's first ``upto`` actions as game 1; the document and the whole log."""
    db, document = imported_at(tmp_path, GENERATED / log, upto)
    return db, document, json.loads((GENERATED / log).read_text())["actions"]


def test_a_conversion_the_company_cannot_pay_for_is_named(tmp_path: Path) -> None:
    # s8603, merger round: SLSF passes (action 261); SR is asked next, with $12 and a station
    # to buy for $50 if it converts.
    db, document, actions = at(tmp_path, "18USA/randplay_18USA_6p_s8603.json", 261)
    state = load_game(document).state
    warning = ("If SR converts to 5 shares, it must buy 1 station for $50 and has $12: unless its new shares bring "
               "the rest, it goes into liquidation (14.1.1)")
    slsf = state.corporations["SLSF"].president().name
    out = play(db, f"@{slsf} /action json:{pasted(actions[261])}", "/game status", "/moves")
    prompt, status = out.split("\n18USA game #1 (active)", 1)[0], out.rsplit("\n18USA game #1 (active)", 1)[1]
    assert warning in prompt.split("SLSF passes", 1)[-1]  # the prompt after the move before
    assert warning in status.split("\n  @", 1)[0]  # /game status
    assert f"  Warning: {warning}" in status  # /moves


def test_the_end_of_train_buying_without_the_interest_is_named_and_made_so(tmp_path: Path) -> None:
    # s8604 before action 243: C&O, in its train step with $2, owes $20 interest at the most loans.
    db, document, _ = at(tmp_path, "18USA/randplay_18USA_6p_s8604.json", 243)
    president = load_game(document).state.corporations["C&O"].president().name
    warning = ("C&O owes $20 interest, has $2 and cannot take loans enough to pay it: when it is done buying trains "
               "it goes into liquidation (12.8)")
    out = play(db, "/game status", "/moves", f"@{president} /pass")
    looked, made = out.split(f"  Warning: {warning}", 1)
    assert warning in looked.split("\n  @", 1)[0]  # /game status, then /moves
    assert "C&O goes into liquidation (it cannot pay $20 interest)" in made


def test_a_pass_that_ends_the_stock_round_on_unpaid_stations_is_named_and_made_so(tmp_path: Path) -> None:
    # s12228 before action 597: P3's pass ends stock round 12 while IC owes $150 for stations.
    db, document, actions = at(tmp_path, "18USA-more/randplay_18USA_4p_s12228.json", 597)
    assert actions[597] == {**actions[597], "type": "pass", "entity": "P3"}
    warning = ("If P3 passes now, the stock round ends and IC goes into liquidation: it owes $150 for 3 stations and "
               "has $118 (11.6)")
    out = play(db, "/game status", "/moves", "@P3 /pass")
    looked, made = out.split(f"  Warning: {warning}", 1)
    assert warning in looked.split("\n  @", 1)[0]
    assert "IC goes into liquidation (it could not pay for its stations by the end of the stock round)" in made

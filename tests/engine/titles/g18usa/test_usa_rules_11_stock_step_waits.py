"""Rule 11: a player with nothing to do but pass is passed over. The stock step answers whether
it waits from the first move it finds (`may_do_more_than_pass`) instead of listing them all; in
these logs both answers agree wherever the round asks (players passed over included) and at every
stock-round position (mid-turn ones too: after a sale, a short, a company's loan), also with the
player's money taken away (fewer moves, at times only passing).
"""

from __future__ import annotations

import pytest
from stock_step_agreement import compare_over_logs
from usa_logs import LOGS, read_log

from engine.titles.g18usa.stock_turn import UsaStockStep

CHECKED = [path for path, _ in LOGS if path.stem.endswith(("109372", "s8405", "s8502", "s8600"))]


def test_the_first_move_found_gives_the_same_answer_as_the_full_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked, at_positions = compare_over_logs(monkeypatch, UsaStockStep, (read_log(path) for path in CHECKED))
    assert asked["True"] > 200, asked
    assert at_positions["True"] > 500 and at_positions["False"] > 0, at_positions


def test_the_18usa_stock_step_is_asked_from_the_first_move_found() -> None:
    # Its `may_do_more_than_pass` knows every move its `legal_moves` adds (the bid of 11.6), so
    # the round does not list every move after each action.
    assert not UsaStockStep.lists_moves_not_found_first

"""Rule 11: a player who can neither sell, buy nor start a company is passed over. The stock
step answers whether it waits from the first move it finds (`may_do_more_than_pass`) instead of
listing every move; in these logs both answers agree wherever the round asks and at every
stock-round position, also with the player's money taken away.
"""

from __future__ import annotations

import json

import pytest
from stock_step_agreement import compare_over_logs
from tracecheck import DATA

from engine.core.steps.shares import BuySellParShares

CHECKED = [DATA / "fixtures" / "18Texas" / "65394.json", *sorted((DATA / "generated" / "18Texas").glob("*.json"))]


def test_the_first_move_found_gives_the_same_answer_as_the_full_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = (json.loads(path.read_text()) for path in CHECKED)
    asked, at_positions = compare_over_logs(monkeypatch, BuySellParShares, logs)
    assert asked["True"] > 100 and asked["False"] > 0, asked
    assert at_positions["True"] > 100 and at_positions["False"] > 0, at_positions

"""Whether a stock step's quick answer (`may_do_more_than_pass`, from the first move it finds)
agrees with the full listing of its legal moves, over whole logs: wherever the round asks, and at
every stock-round position, also with the acting player's money taken away (fewer moves, at
times only passing). Shared by the titles' rule-11 tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from engine.core.game import BaseGame
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.log import document_options, new_game


def _agree(step: BuySellParShares, game: BaseGame, rnd: StockRound, answer: bool, seen: Counter[str]) -> None:
    listed = any(move["type"] != "pass" for move in step.legal_moves(game, rnd))
    assert answer is listed, (rnd.current(game).name, game.log[-3:])
    seen[str(answer)] += 1


def compare_over_logs(monkeypatch: pytest.MonkeyPatch, step_class: type[BuySellParShares],
                      logs: Iterable[dict[str, Any]]) -> tuple[Counter[str], Counter[str]]:
    """Replays each log, comparing both answers; returns how often each answer was given where
    the round asked, and at the positions checked."""
    asked: Counter[str] = Counter()
    at_positions: Counter[str] = Counter()
    original = step_class.may_do_more_than_pass

    def compared(self: BuySellParShares, game: BaseGame, stock: StockRound) -> bool:
        answer = original(self, game, stock)
        _agree(self, game, stock, answer, asked)
        return answer

    monkeypatch.setattr(step_class, "may_do_more_than_pass", compared)
    for log in logs:
        game = new_game(log["title"], log["players"], log["settings"]["seed"], document_options(log)).state
        game.importing = True
        for action in log["actions"]:
            rnd = game.round
            if isinstance(rnd, StockRound):
                for step in rnd.steps:
                    if isinstance(step, BuySellParShares):
                        _agree(step, game, rnd, original(step, game, rnd), at_positions)
                        player = rnd.current(game)
                        cash, player.cash = player.cash, 0
                        _agree(step, game, rnd, original(step, game, rnd), at_positions)
                        player.cash = cash
            game.apply(action)
    return asked, at_positions

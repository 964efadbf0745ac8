"""Rule 11: a player with nothing to do but pass is passed over. The stock step answers whether
it waits from the first move it finds (`may_do_more_than_pass`) instead of listing them all; in
these logs both answers agree wherever the round asks (players passed over included) and at every
stock-round position (mid-turn ones too: after a sale, a short, a company's loan).
"""

from __future__ import annotations

from collections import Counter

import pytest
from usa_logs import LOGS, read_log

from engine.core.game import BaseGame
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.log import document_options, new_game
from engine.titles.g18usa.stock_turn import UsaStockStep

CHECKED = [path for path, _ in LOGS if path.stem.endswith(("109372", "s8405", "s8502", "s8600"))]


def _agree(step: BuySellParShares, game: BaseGame, rnd: StockRound, answer: bool, seen: Counter[str]) -> None:
    listed = any(move["type"] != "pass" for move in step.legal_moves(game, rnd))
    assert answer is listed, (rnd.current(game).name, game.log[-3:])
    seen[str(answer)] += 1


def test_the_first_move_found_gives_the_same_answer_as_the_full_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: Counter[str] = Counter()
    at_positions: Counter[str] = Counter()
    original = UsaStockStep.may_do_more_than_pass

    def compared(self: UsaStockStep, game: BaseGame, stock: StockRound) -> bool:
        answer = original(self, game, stock)
        _agree(self, game, stock, answer, asked)
        return answer

    monkeypatch.setattr(UsaStockStep, "may_do_more_than_pass", compared)
    for path in CHECKED:
        log = read_log(path)
        game = new_game(log["title"], log["players"], log["settings"]["seed"], document_options(log)).state
        game.importing = True
        for action in log["actions"]:
            rnd = game.round
            if isinstance(rnd, StockRound):
                for step in rnd.steps:
                    if isinstance(step, BuySellParShares):
                        _agree(step, game, rnd, original(step, game, rnd), at_positions)
                        # The same player without money: fewer moves, at times only passing.
                        player = rnd.current(game)
                        cash, player.cash = player.cash, 0
                        _agree(step, game, rnd, original(step, game, rnd), at_positions)
                        player.cash = cash
            game.apply(action)
    assert asked["True"] > 200, asked
    assert at_positions["True"] > 500 and at_positions["False"] > 0, at_positions


def test_the_18usa_stock_step_is_asked_from_the_first_move_found() -> None:
    # Its `may_do_more_than_pass` knows every move its `legal_moves` adds (the bid of 11.6), so
    # the round does not list every move after each action.
    assert not UsaStockStep.lists_moves_not_found_first

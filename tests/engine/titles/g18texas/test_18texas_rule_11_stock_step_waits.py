"""Rule 11: a player who can neither sell, buy nor start a company is passed over. The stock
step answers whether it waits from the first move it finds (`may_do_more_than_pass`) instead of
listing every move; in these logs both answers agree wherever the round asks and at every
stock-round position, also with the player's money taken away.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from tracecheck import DATA

from engine.core.game import BaseGame
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.log import document_options, new_game

CHECKED = [DATA / "fixtures" / "18Texas" / "65394.json", *sorted((DATA / "generated" / "18Texas").glob("*.json"))]


def _agree(step: BuySellParShares, game: BaseGame, rnd: StockRound, answer: bool, seen: Counter[str]) -> None:
    listed = any(move["type"] != "pass" for move in step.legal_moves(game, rnd))
    assert answer is listed, (rnd.current(game).name, game.log[-3:])
    seen[str(answer)] += 1


def test_the_first_move_found_gives_the_same_answer_as_the_full_listing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: Counter[str] = Counter()
    at_positions: Counter[str] = Counter()
    original = BuySellParShares.may_do_more_than_pass

    def compared(self: BuySellParShares, game: BaseGame, stock: StockRound) -> bool:
        answer = original(self, game, stock)
        _agree(self, game, stock, answer, asked)
        return answer

    monkeypatch.setattr(BuySellParShares, "may_do_more_than_pass", compared)
    for path in CHECKED:
        log = json.loads(path.read_text())
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
    assert asked["True"] > 100 and asked["False"] > 0, asked
    assert at_positions["True"] > 100 and at_positions["False"] > 0, at_positions

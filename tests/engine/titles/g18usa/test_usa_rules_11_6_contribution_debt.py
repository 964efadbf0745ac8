"""Rule 11.6: the winner of a company's auction may bid with their privates' value counted in;
while the price is more than their cash they contribute privates and may not pass (found by the
property games, where winners passed and stayed below $0). The position is reached by seeded
random legal play (`usa_random_play.py`)."""

from __future__ import annotations

import random

import pytest
from usa_random_play import concrete, new_random_game, pick, process, snapshot

from engine import GameError
from engine.legal import legal_moves
from engine.log import Game


def winner_in_debt() -> Game:
    """A game where an auction's winner owes more than their cash and may contribute privates."""
    rng = random.Random(3)
    game = new_random_game(6, 3)
    for _ in range(400):
        state = game.state
        waiting = state.round.blocking_step(state)
        if waiting is not None and waiting.key == "contribute" and any(p.cash < 0 for p in state.players):
            return game
        process(game, concrete(state, pick(state, legal_moves(state), rng), rng))
    raise AssertionError("no auction winner owed more than their cash in 400 actions")


def test_the_winner_below_zero_contributes_and_may_not_pass() -> None:
    game = winner_in_debt()
    state = game.state
    winner = next(p for p in state.players if p.cash < 0)
    moves = legal_moves(state)
    assert [m["type"] for m in moves] == ["assign"]
    assert moves[0]["entity"] == winner.id and moves[0]["choices"]
    before = snapshot(game)
    with pytest.raises(GameError, match=r"contribute private companies first \(11\.6\)"):
        game.process({"type": "pass", "entity": winner.id, "entity_type": "player"})
    assert snapshot(game) == before
    winner = next(p for p in state.players if p.id == winner.id)  # a refused move restores a copy
    # Contributing privates until the price is covered, the winner may then pass (or is done).
    while winner.cash < 0:
        move = legal_moves(state)[0]
        assert move["type"] == "assign" and move["entity"] == winner.id, move
        choice = move["choices"][0]
        game.process({"type": "assign", "entity": winner.id, "entity_type": "player", **choice})
    assert winner.cash >= 0

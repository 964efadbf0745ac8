"""BaseGame.snapshot: a copy of the position that later moves leave alone (the bot draws a
move's pictures from it while the next move is made), sharing only what never changes."""

from __future__ import annotations

import pytest

from engine import GameError, new_game
from engine.legal import legal_moves

PLAYERS = [{"id": n, "name": f"P{n}"} for n in (1, 2, 3)]


def test_a_snapshot_keeps_its_position_while_the_game_moves_on() -> None:
    game = new_game("18Texas", PLAYERS, 5)
    state = game.state
    before = legal_moves(state)
    snapshot = state.snapshot()
    bid = next(m for m in before if m["type"] == "bid")
    choice = bid["choices"][0]
    game.process({"type": "bid", "entity": bid["entity"], "entity_type": "player",
                  "company": choice["company"], "price": choice["min"]})
    assert legal_moves(snapshot) == before
    assert legal_moves(state) != before
    assert len(snapshot.raw_actions) == 0 and len(state.raw_actions) == 1
    assert snapshot.data is state.data  # the title data is read-only: shared, not copied


def test_a_refused_move_on_a_snapshot_changes_neither() -> None:
    game = new_game("18Texas", PLAYERS, 5)
    snapshot = game.state.snapshot()
    with pytest.raises(GameError):
        snapshot.process({"type": "bid", "entity": 1, "entity_type": "player", "company": "NOPE", "price": 1})
    assert legal_moves(snapshot) == legal_moves(game.state)

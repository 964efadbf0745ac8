"""Undo and redo through `Game.process` (engine/log.py), and refused actions leaving no trace."""

from __future__ import annotations

import pytest
from engine_helpers import (
    action,
    auction,
    buy,
    make_game,
    opening,
    pass_turn,
    position,
    skip_to_step,
    snapshot,
)

from engine import GameError
from engine.core.operating_round import OperatingRound
from engine.core.stock_round import StockRound
from engine.log import Game


def picture(game: Game) -> tuple:
    """Position, game log and score, all of which undo must restore."""
    return position(game), list(game.state.log), game.result(), game.legal_moves()


def undo(game: Game, **fields: object) -> None:
    game.process({"type": "undo", "entity": "A", "entity_type": "player", **fields})


def redo(game: Game) -> None:
    game.process({"type": "redo", "entity": "A", "entity_type": "player"})


def test_undo_restores_the_exact_previous_position() -> None:
    game = opening()
    before = picture(game)
    buy(game, "B", "MKT")
    assert picture(game) != before
    undo(game)
    assert picture(game) == before
    assert game.state.round.current(game.state).key == "B"


def test_redo_re_applies_the_undone_action() -> None:
    game = opening()
    buy(game, "B", "MKT")
    after = picture(game)
    undo(game)
    redo(game)
    assert picture(game) == after


def test_several_undos_and_redos_walk_back_and_forth() -> None:
    game = make_game(3)
    pictures = [picture(game)]
    auction(game)
    pictures.append(picture(game))
    buy(game, "A", "MKT")
    pictures.append(picture(game))
    pass_turn(game, "B")
    pictures.append(picture(game))
    undo(game)
    assert picture(game) == pictures[2]
    undo(game)
    assert picture(game) == pictures[1]
    redo(game)
    assert picture(game) == pictures[2]
    redo(game)
    assert picture(game) == pictures[3]


def test_undo_across_the_end_of_a_round() -> None:
    game = opening()
    pass_turn(game, "B")
    pass_turn(game, "C")
    before = picture(game)
    pass_turn(game, "A")  # the last pass ends the stock round; SP operates
    assert isinstance(game.state.round, OperatingRound)
    undo(game)
    assert isinstance(game.state.round, StockRound) and picture(game) == before


def test_undo_to_an_action_id_reverts_everything_after_it() -> None:
    game = opening()
    marks = []
    for step, who in enumerate(("B", "C", "A")):
        marks.append(picture(game))
        move = action("pass", who)
        move["id"] = 100 + step
        game.process(move)
    undo(game, action_id=100)
    assert picture(game) == marks[1]


def test_a_new_action_after_undo_discards_the_redo() -> None:
    game = opening()
    buy(game, "B", "MKT")
    undo(game)
    pass_turn(game, "B")
    with pytest.raises(GameError, match="there is nothing to redo"):
        redo(game)


def test_nothing_to_undo_or_redo_is_refused_and_changes_nothing() -> None:
    game = make_game(3)
    before = snapshot(game)
    with pytest.raises(GameError, match="there is nothing to undo"):
        undo(game)
    with pytest.raises(GameError, match="there is nothing to redo"):
        redo(game)
    assert snapshot(game) == before and game.raw_actions == []


def test_an_illegal_action_leaves_the_position_and_the_log_unchanged() -> None:
    game = opening()
    finish = picture(game)
    raw = list(game.raw_actions)
    before = snapshot(game)
    for bad in (
        action("buy_shares", "C", shares=["MKT_1"], percent=10),  # not C's turn
        action("buy_shares", "B", shares=["SP_0"], percent=20),  # a president's certificate
        action("lay_tile", "SP", hex="I12", tile="9-0", rotation=1),  # not an operating round
        {"type": "nonsense"},
        {"no": "type"},
    ):
        with pytest.raises(GameError) as caught:
            game.process(bad)
        assert "internal error" not in str(caught.value)
        assert snapshot(game) == before
        assert game.raw_actions == raw
        assert picture(game) == finish


def test_undo_of_an_operating_action_restores_money_and_market() -> None:
    game = opening()
    for who in ("B", "C", "A"):
        pass_turn(game, who)
    skip_to_step(game, "buy_train")
    before = picture(game)
    game.process(action("buy_train", "SP", train="2-0", price=100))
    undo(game)
    assert picture(game) == before


def test_messages_are_not_undone() -> None:
    game = opening()
    buy(game, "B", "MKT")
    game.process({"type": "message", "entity": "A", "entity_type": "player", "message": "hi"})
    undo(game)
    # The purchase is undone, not the chat message.
    assert game.state.corporation("MKT").percent_owned_by(game.state.player("B")) == 0

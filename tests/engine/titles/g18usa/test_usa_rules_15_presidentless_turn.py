"""15: a president who goes bankrupt during their company's operating turn leaves the company
without a president, in liquidation, with the rest of its turn to play (the reference site lets it
act on: s8405 after action 1162). No player decides for it, so a live game waited for nobody;
`engine.legal.unattended_move` names the move it makes: it passes, step by step.

The position (tests/data/positions/usa_presidentless_company_turn.json, random legal play by the
rare-path player, 5 players, seed 8014): Player 4 went bankrupt paying WP's interest in Operating
Round 3.2; WP is at its repay-loans step. NYC operates next (its president Player 2 first chooses
whether P13 keeps one of its 2-trains, as phase 4 began with the bankruptcy's exported train).
"""

from __future__ import annotations

from usa_positions import kept_position

from engine import new_game
from engine.legal import legal_moves, make_unattended_moves, move_decider, unattended_move
from engine.log import Game


def after_the_bankruptcy() -> Game:
    game = kept_position("usa_presidentless_company_turn")
    assert game.raw_actions[-1] == {"type": "bankrupt", "entity": 1004, "entity_type": "player"}
    assert game.state.players[3].bankrupt
    return game


def test_only_the_presidentless_company_can_act_and_nobody_decides_for_it() -> None:
    game = after_the_bankruptcy()
    nowhere = game.state.corporations["WP"]
    assert nowhere.president() is None
    moves = legal_moves(game.state)
    assert [(m["type"], m["entity"]) for m in moves] == [("payoff_loan", "WP"), ("pass", "WP")]
    assert all(move_decider(game.state, m) is None for m in moves) and game.state.acting_players() == []


def test_it_passes_and_the_next_company_operates() -> None:
    game = after_the_bankruptcy()
    move = unattended_move(game.state)
    assert move == {"type": "pass", "entity": "WP", "entity_type": "corporation"}
    game.process(move)
    assert unattended_move(game.state) is None
    acting = {str(m["entity"]) for m in legal_moves(game.state)}
    assert acting == {"NYC"} and all(move_decider(game.state, m) is not None for m in legal_moves(game.state))


def test_no_move_is_made_for_anyone_a_player_decides_for() -> None:
    game = new_game("18USA", [{"id": i, "name": f"P{i}"} for i in range(1, 5)], 1)
    assert unattended_move(game.state) is None


def test_all_of_them_are_made_at_once_and_no_more() -> None:
    game = after_the_bankruptcy()
    assert make_unattended_moves(game.state) == [{"type": "pass", "entity": "WP", "entity_type": "corporation"}]
    assert {str(m["entity"]) for m in legal_moves(game.state)} == {"NYC"}
    assert make_unattended_moves(game.state) == []

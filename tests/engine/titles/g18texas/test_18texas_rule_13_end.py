"""Rulebook section 13: the end of the game and the final scores (bankruptcy: test_18texas_rule_12_6_trains)."""

from __future__ import annotations

from engine_helpers import (
    Setup,
    corp,
    finish_stock_round,
    finish_turn,
    opening,
    or_game,
    play,
    player,
    price,
    refuse,
    skip_to_step,
    total_money,
)

from engine.core.operating_round import OperatingRound
from engine.log import Game

GALVESTON = [{"train": "2-0", "connections": [["I14", "J15"]]}]  # Houston-Galveston, $50


def low_bank(bank: int, phase: str = "3") -> Game:
    """SP with a 2-train in operating round 1 of a set of two (phase 3), the bank holding only
    `bank` dollars before the privates pay (direct setup: the rest goes to player C)."""
    def prepare(setup: Setup) -> None:
        setup.give_train("SP", "2")
        setup.phase(phase)
        state = setup.state
        state.player("C").cash += state.bank.cash - bank
        state.bank.cash = bank
    return or_game(prepare=prepare)


def test_13_the_broken_bank_still_pays_and_the_set_of_operating_rounds_is_finished() -> None:
    game = low_bank(40)  # the privates take $35 of it
    state = game.state
    assert state.operating_rounds == 2 and state.round_num == 1 and not state.bank_broken
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=GALVESTON)
    play(game, "dividend", "SP", kind="payout")
    # The bank had $5 and paid $50: it is broken, and keeps paying.
    assert state.bank_broken and state.bank.cash == -45
    assert total_money(state) == 8000
    finish_turn(game)
    # The game goes on to the second operating round of the set...
    assert not game.finished and isinstance(state.round, OperatingRound) and state.round_num == 2
    finish_turn(game)
    # ...and ends at its end, without another stock round.
    assert game.finished and state.end_reason == "bank"
    assert game.legal_moves() == []


def test_13_the_game_ends_even_if_the_bank_becomes_solvent_again() -> None:
    game = low_bank(40)
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=GALVESTON)
    play(game, "dividend", "SP", kind="payout")
    # SP buys a train: $100 goes back to the bank, which is solvent again.
    play(game, "buy_train", "SP", train="2-1", price=100)
    assert game.state.bank.cash == 55
    finish_turn(game)
    finish_turn(game)
    assert game.finished and game.state.end_reason == "bank"


def test_13_no_action_after_the_end() -> None:
    game = low_bank(40, phase="2")
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=GALVESTON)
    play(game, "dividend", "SP", kind="payout")
    finish_turn(game)
    assert game.finished
    refuse(game, "pass", "A", r"the game is over")


def test_13_final_score_is_cash_plus_shares_at_market_plus_open_privates_at_face_value() -> None:
    game = opening()
    state = game.state
    a = player(game, "A")
    sp = corp(game, "SP")
    # A: cash, 30% of SP at $110, and the BB-B&C ($50) while it is open; SP's own treasury,
    # shares and trains count for nobody.
    assert state.result()["A"] == a.cash + 3 * price(game, "SP") + 50
    assert sp.cash > 0
    state.close_all_companies()
    assert state.result()["A"] == a.cash + 3 * price(game, "SP")


def test_13_final_score_of_the_jay_gould_owner_counts_the_twenty_percent() -> None:
    game = opening(jay_gould="MKT")
    c = player(game, "C")
    assert game.state.result()["C"] == c.cash + 2 * 100 + 10 * 11 + 200  # MKT 20%, SP 10%, Jay Gould


def test_13_players_may_end_the_game_by_agreement() -> None:
    game = opening()
    finish_stock_round(game)
    game.process({"type": "end_game", "entity": "A", "entity_type": "player"})
    assert game.finished and game.state.end_reason == "manually_ended"

"""18USA rules 9, 12.8 and 12.9 at logged positions (s8403): taking a loan (+$100 from the Bank
of New York, the price two steps back), the loan limit (as many as the company has shares),
interest at the rate of the Bank's row, no repayment in a round with a new loan, repaying
($100, two steps ahead)."""

from __future__ import annotations

import pytest
from usa_positions import log_named, replayed

from engine.errors import GameError
from engine.legal import legal_moves

ACTIONS = log_named("s8403")["actions"]


def kinds(game: object) -> set[str]:
    return {move["type"] for move in legal_moves(game)}  # type: ignore[arg-type]


def test_9_a_loan_gives_100_and_moves_the_price_two_steps_back() -> None:
    game = replayed("s8403", 132)  # B&O ($64) at its buy-trains step, no loan yet
    bo = game.corporations["B&O"]
    col, left = game.market.cell_of("B&O").col, game.loans.available()
    assert "take_loan" in kinds(game) and game.loans.count("B&O") == 0
    game.apply(ACTIONS[132])
    assert (bo.cash, game.loans.count("B&O"), game.loans.available()) == (164, 1, left - 1)
    assert game.market.cell_of("B&O").col == col - 2


def test_12_8_interest_at_the_rate_then_no_repayment_in_the_round_of_the_loan() -> None:
    game = replayed("s8403", 134)  # B&O bought its train; its pass ends the step: interest next
    bo = game.corporations["B&O"]
    cash = bo.cash
    rate = game.loans.current_rate()
    game.apply(ACTIONS[134])
    assert bo.cash == cash - rate * 1 and rate == 5
    assert f"B&O pays ${rate} interest on 1 loan" in game.log
    # Its repay step: the loan was taken this round, so it may not be repaid (9, 12.9).
    assert kinds(game) == {"take_loan", "pass"}
    before = (bo.cash, game.loans.count("B&O"))
    with pytest.raises(GameError, match="took a loan this operating round"):
        game.apply({"type": "payoff_loan", "entity": "B&O", "entity_type": "corporation"})
    assert (bo.cash, game.loans.count("B&O")) == before


def test_9_no_more_loans_than_shares() -> None:
    game = replayed("s8403", 140)  # NP, a 2-share company, holds 2 loans
    np_ = game.corporations["NP"]
    assert game.company_size(np_) == 2 and game.loans.count("NP") == 2
    assert "take_loan" not in kinds(game)
    with pytest.raises(GameError, match="holds 2 loans, the most it may"):
        game.apply({"type": "take_loan", "entity": "NP", "entity_type": "corporation"})
    assert game.loans.count("NP") == 2


def test_12_9_repaying_a_loan_costs_100_and_moves_two_steps_ahead() -> None:
    game = replayed("s8403", 298)  # NP at its repay step, with loans from earlier rounds
    np_ = game.corporations["NP"]
    cash, loans, col = np_.cash, game.loans.count("NP"), game.market.cell_of("NP").col
    left = game.loans.available()
    assert "payoff_loan" in kinds(game)
    game.apply(ACTIONS[298])
    assert (np_.cash, game.loans.count("NP"), game.loans.available()) == (cash - 100, loans - 1, left + 1)
    assert game.market.cell_of("NP").col == col + 2

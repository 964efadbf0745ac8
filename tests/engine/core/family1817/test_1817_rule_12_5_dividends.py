"""Rule 12.5: distributing earnings — withhold, pay out, half-pay with the family's rounding,
price moves of 1-4 steps by the amount paid, and short sellers paying the dividend."""

from __future__ import annotations

import pytest
from family_helpers import (
    act,
    col,
    corp,
    new,
    pass_stock_round,
    play_until_stock_round,
    player,
    start,
)

from engine.core.family1817.market import dividend_steps
from engine.core.family1817.operating import pay_family_dividend


def company_c() -> object:
    """Ann holds 60% of C (5 shares at $60), Bob 20%, 20% in C's treasury."""
    game = new()
    start(game, "a", "C", 60)
    act(game, "buy_shares", "b", shares=["C_1"])
    act(game, "buy_shares", "a", shares=["C_2"])
    pass_stock_round(game)
    return game


@pytest.mark.parametrize(("paid", "steps"), [(0, 0), (29, 0), (30, 1), (59, 1), (60, 2), (89, 2), (90, 3),
                                             (119, 3), (120, 4), (500, 4)])
def test_12_5_one_to_four_steps_at_50_100_150_200_percent_of_the_price(paid: int, steps: int) -> None:
    game = company_c()
    game.market.remove("C")
    game.market.place("C", game.market.by_id["60,0,8"])
    assert dividend_steps(game, corp(game, "C"), paid) == steps


def test_12_5_in_the_acquisition_spaces_the_thresholds_use_40() -> None:
    game = company_c()
    game.market.move("C", "left", 10)
    assert [dividend_steps(game, corp(game, "C"), paid) for paid in (19, 20, 40, 60, 80)] == [0, 1, 2, 3, 4]


def test_12_5_withholding_moves_one_step_back() -> None:
    game = company_c()
    before, cash = col(game, "C"), corp(game, "C").cash
    pay_family_dividend(game, corp(game, "C"), 100, "withhold")
    assert col(game, "C") == before - 1 and corp(game, "C").cash == cash + 100


def test_12_5_payout_by_share_treasury_shares_pay_the_company_market_shares_nothing() -> None:
    game = company_c()
    c = corp(game, "C")
    game.ledger.move(c.share_by_id("C_3"), game.pool)
    ann, bob, cash = player(game, "a").cash, player(game, "b").cash, c.cash
    before = col(game, "C")
    pay_family_dividend(game, c, 100, "payout")  # $20 a share
    assert (player(game, "a").cash - ann, player(game, "b").cash - bob, c.cash - cash) == (60, 20, 0)
    assert col(game, "C") == before + 3  # $100 is at least 150% of the $55 price, not 200%


@pytest.mark.parametrize(("company", "revenue", "kept"), [("A", 150, 75), ("C", 150, 75), ("C", 155, 75),
                                                        ("E", 150, 70), ("E", 170, 80)])
def test_12_5_half_pay_rounding_by_company_size(company: str, revenue: int, kept: int) -> None:
    game = new()
    start(game, "a", company, 60)
    assert game.half_withheld_of(corp(game, company), revenue) == kept


def bob_short_of_c() -> object:
    """Company C after it operated; in the next stock round Bob sells his share and shorts C
    (Cy is not in this game)."""
    game = company_c()
    play_until_stock_round(game)
    if game.round.current(game).id != "b":
        act(game, "pass", "a")
    act(game, "sell_shares", "b", shares=["C_1"])
    act(game, "short", "b", corporation="C")
    return game


def test_12_5_short_sellers_pay_the_dividend_per_share() -> None:
    game = bob_short_of_c()
    bob = player(game, "b").cash
    pay_family_dividend(game, corp(game, "C"), 100, "payout")
    assert player(game, "b").cash == bob - 20


def test_12_5_a_short_seller_who_cannot_pay_raises_cash() -> None:
    game = bob_short_of_c()
    player(game, "b").cash = 5
    pay_family_dividend(game, corp(game, "C"), 100, "payout")
    debt = game.cash_crisis[0]
    assert (debt.player, debt.amount, debt.payee) == ("b", 20, "bank")
    assert player(game, "b").cash == 5 - 20  # paid in full, below $0 until shares are sold (the site)

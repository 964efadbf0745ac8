"""Rules 9, 12.8 and 12.9: loans from the bank, interest, repayment (family modules on the
synthetic family title)."""

from __future__ import annotations

from family_helpers import (
    act,
    col,
    corp,
    moves_of,
    new,
    operating,
    pass_merger_round,
    pass_stock_round,
    player,
    price,
    refused,
    run,
    start,
    two_companies,
)

from engine.core.family1817.game import SITE_LOANS_AFTER_INTEREST
from engine.core.family1817.loans import pay_interest, take_loan
from engine.core.family1817.market import area


def test_9_a_loan_brings_100_and_moves_the_price_two_steps_back() -> None:
    game = two_companies()
    assert operating(game).id == "A" and (corp(game, "A").cash, price(game, "A")) == (140, 65)
    act(game, "take_loan", "A")
    assert corp(game, "A").cash == 240 and price(game, "A") == 55
    assert game.loans.count("A") == 1 and game.loans.available() == 19


def test_9_at_most_one_loan_per_share() -> None:
    game = two_companies()
    act(game, "take_loan", "A")
    act(game, "take_loan", "A")
    assert not moves_of(game, "take_loan")
    refused(game, "take_loan", "A", "already holds 2 loans, the most it may")


def test_9_no_loan_when_the_bank_has_none_left() -> None:
    game = two_companies()
    game.loans.held["X"] = 20  # every loan is out
    refused(game, "take_loan", "A", "no loans left")


def test_9_in_the_leftmost_acquisition_space_loans_no_longer_move_the_price() -> None:
    game = new()
    start(game, "a", "E", 50)  # a 10-share company at $50
    pass_stock_round(game)
    assert operating(game).id == "E" and price(game, "E") == 45
    for _ in range(4):
        act(game, "take_loan", "E")
    assert col(game, "E") == 1 and area(game, corp(game, "E")) == "acquisition"
    act(game, "take_loan", "E")
    assert col(game, "E") == 1 and game.loans.count("E") == 5  # the floor: never the liquidation space


def test_9_the_interest_rate_is_the_row_of_the_highest_loan_and_5_when_none() -> None:
    game = new()
    assert game.loans.current_rate() == 5
    assert [game.loans.rate_for(n) for n in (0, 1, 5, 6, 10, 11, 20)] == [5, 5, 5, 10, 10, 15, 20]


def test_9_the_rate_is_fixed_at_the_start_of_each_operating_round() -> None:
    game = two_companies()
    for _ in range(2):
        act(game, "take_loan", "A")
    game.loans.held["X"] = 4  # six loans out: the next row
    assert game.loans.current_rate() == 5  # fixed when the round began with none out
    act(game, "buy_train", "A", train="2-0", price=100)
    act(game, "pass", "A")  # no more trains: interest at the fixed $5 a loan
    assert corp(game, "A").cash == 340 - 100 - 10


def test_9_between_operating_rounds_the_rate_follows_the_loans_taken() -> None:
    game = new()
    start(game, "a", "C", 60)
    act(game, "pass", "b")
    for _ in range(2):
        act(game, "take_loan", "C")  # acting for C in the stock round (11.7)
    game.loans.held["X"] = 4
    assert game.loans.current_rate() == 10


def test_12_8_interest_after_buying_trains_for_every_loan() -> None:
    game = two_companies()
    act(game, "take_loan", "A")
    act(game, "buy_train", "A", train="2-0", price=100)
    cash = corp(game, "A").cash
    act(game, "pass", "A")  # the buy-train step ends: interest is due at once
    assert corp(game, "A").cash == cash - 5
    assert operating(game).id == "B"  # A took a loan this round: nothing to repay, turn over


def test_12_8_loans_are_taken_to_pay_the_interest_and_pay_interest_too() -> None:
    game = two_companies()
    act(game, "take_loan", "A")
    act(game, "buy_train", "A", train="2-0", price=100)
    game.loans.interest_rate = 50  # a dear rate for the test
    act(game, "buy_train", "A", train="2-1", price=100)
    # $40 left buys no train: the step ends and $50 is due; one more loan, two owe $100
    assert game.loans.count("A") == 2 and corp(game, "A").cash == 40 + 100 - 100
    assert price(game, "A") == 45  # 65, two steps back for each loan
    assert operating(game).id == "B"


def three_trains_and_two_loans() -> object:
    game = two_companies()
    for _ in range(2):
        act(game, "take_loan", "A")
    act(game, "buy_train", "A", train="2-0", price=100)
    act(game, "buy_train", "A", train="2-1", price=100)
    return game


def test_12_8_interest_is_paid_without_a_decision_when_the_trains_are_bought() -> None:
    game = three_trains_and_two_loans()
    act(game, "buy_train", "A", train="2-2", price=100)
    assert corp(game, "A").cash == 40 - 10 and operating(game).id == "B"


def test_12_8_at_the_most_loans_the_company_is_liquidated_and_the_president_pays() -> None:
    game = three_trains_and_two_loans()
    game.loans.interest_rate = 50  # $100 owed, $40 in the treasury and no loan left to take
    ann = player(game, "a").cash
    act(game, "buy_train", "A", train="2-2", price=100)
    assert area(game, corp(game, "A")) == "liquidation"
    assert corp(game, "A").cash == 0 and player(game, "a").cash == ann + 40 - 100


def test_12_8_a_president_who_cannot_pay_the_interest_is_in_a_cash_crisis() -> None:
    game = three_trains_and_two_loans()
    game.loans.interest_rate = 50
    player(game, "a").cash = 30
    act(game, "buy_train", "A", train="2-2", price=100)
    debt = game.cash_crisis[0]
    assert (debt.kind, debt.company, debt.amount) == ("interest", "A", 100)
    assert player(game, "a").cash == 70 - 100  # paid in full, below $0 until shares are sold (the site)
    assert game.round.acting_players(game) == [player(game, "a")]


def test_12_9_repay_a_loan_for_100_two_steps_ahead_not_in_the_round_it_was_taken() -> None:
    game = two_companies()
    act(game, "take_loan", "A")
    act(game, "buy_train", "A", train="2-0", price=100)
    act(game, "pass", "A")
    assert operating(game).id == "B" and game.loans.count("A") == 1  # no repayment this round
    act(game, "buy_train", "B", train="2-1", price=100)
    act(game, "pass", "B")
    pass_merger_round(game)
    # the second operating round: A runs, keeps its revenue, then may repay
    assert operating(game).id == "A"
    run(game, "A")
    act(game, "dividend", "A", kind="withhold")
    act(game, "pass", "A")  # buys no train; pays $5 interest
    before = (corp(game, "A").cash, col(game, "A"))
    act(game, "payoff_loan", "A")
    assert (corp(game, "A").cash, col(game, "A")) == (before[0] - 100, before[1] + 2)
    assert game.loans.count("A") == 0


def test_12_9_no_repayment_in_a_round_the_company_took_a_loan() -> None:
    game = two_companies()
    act(game, "buy_train", "A", train="2-0", price=100)  # $40 left: the turn ends
    act(game, "buy_train", "B", train="2-1", price=100)
    act(game, "pass", "B")
    pass_merger_round(game)
    run(game, "A")
    act(game, "take_loan", "A")
    act(game, "dividend", "A", kind="withhold")
    act(game, "pass", "A")
    assert operating(game).id == "B"  # A may not repay: its turn is over
    assert game.loans.count("A") == 1


def test_12_9_the_price_does_not_pass_the_last_space() -> None:
    game = two_companies()
    a = corp(game, "A")
    game.market.move("A", "right", 30)
    top = col(game, "A")
    game.loans.held["A"] = 1
    a.cash = 500
    from engine.core.family1817.loans import payoff_loan
    payoff_loan(game, a)
    assert col(game, "A") == top


def test_12_8_printed_reading_no_loans_after_interest() -> None:
    game = repay_step()
    assert [m["type"] for m in game.round.legal_moves(game)] == ["payoff_loan", "pass"]
    refused(game, "take_loan", "A", "has paid interest and may take no further loans")


def test_12_8_site_reading_loans_may_be_taken_at_the_repay_step() -> None:
    game = repay_step([SITE_LOANS_AFTER_INTEREST])
    assert [m["type"] for m in game.round.legal_moves(game)] == ["payoff_loan", "take_loan", "pass"]
    act(game, "payoff_loan", "A")
    act(game, "take_loan", "A")
    assert game.loans.count("A") == 1
    assert [m["type"] for m in game.round.legal_moves(game)] == ["take_loan", "pass"]  # no repaying now


def repay_step(options: list[str] | None = None) -> object:
    game = new(options=options)
    start(game, "a", "A", 70)
    start(game, "b", "B", 60)
    pass_stock_round(game)
    act(game, "take_loan", "A")
    act(game, "buy_train", "A", train="2-0", price=100)
    act(game, "pass", "A")
    if operating(game).id == "A":  # the site's reading: one more loan may be taken now
        act(game, "pass", "A")
    act(game, "buy_train", "B", train="2-1", price=100)
    while operating(game).id == "B":
        act(game, "pass", "B")
    pass_merger_round(game)
    run(game, "A")
    act(game, "dividend", "A", kind="withhold")
    act(game, "pass", "A")
    return game


def test_9_loan_rules_hold_outside_a_step_too() -> None:
    game = two_companies()
    a = corp(game, "A")
    take_loan(game, a)
    take_loan(game, a)
    a.cash = 0
    pay_interest(game, a)  # no loan left to take: liquidation, the president pays
    assert area(game, a) == "liquidation"

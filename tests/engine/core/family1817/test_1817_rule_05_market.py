"""Rule 5 and 12.6: the one-row market's liquidation and acquisition spaces, and a company that
ends its operating turn without a train."""

from __future__ import annotations

from family_helpers import act, col, corp, new, operating, pass_stock_round, start, two_companies

from engine.core.family1817.market import area, liquidate, price_at_most


def test_5_normal_moves_never_enter_the_liquidation_space() -> None:
    game = new()
    start(game, "a", "C", 50)
    game.market.move("C", "left", 30)
    assert col(game, "C") == 1 and area(game, corp(game, "C")) == "acquisition"


def test_5_liquidation_is_entered_on_purpose_below_the_tokens_there() -> None:
    game = new()
    start(game, "a", "C", 50)
    start(game, "b", "D", 50)
    liquidate(game, corp(game, "C"), "test")
    liquidate(game, corp(game, "D"), "test")
    assert game.market.stacks[(0, 0)] == ["C", "D"]  # D went in under C
    assert game.market.operating_key("C") < game.market.operating_key("D")


def test_5_prices_round_down_to_a_market_value() -> None:
    game = new()
    assert price_at_most(game, 124).price == 120
    assert price_at_most(game, 1000).price == 150
    assert price_at_most(game, 10).price == 40  # never into the special spaces


def test_12_6_a_company_that_ends_its_turn_without_a_train_is_liquidated() -> None:
    game = two_companies()
    assert operating(game).id == "A"
    act(game, "pass", "A")  # buys no train
    assert area(game, corp(game, "A")) == "liquidation"
    assert operating(game).id == "B"


def test_12_6_a_company_with_a_train_is_not() -> None:
    game = new()
    start(game, "a", "A", 70)
    start(game, "b", "B", 60)
    pass_stock_round(game)
    act(game, "buy_train", "A", train="2-0", price=100)
    assert area(game, corp(game, "A")) is None

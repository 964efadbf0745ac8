"""Rulebook section 12.5: paying dividends and the share price moves that follow."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    cell,
    choices_of,
    corp,
    or_game,
    play,
    player,
    skip_to_step,
    ssw_network,
    step_label,
)

from engine.log import Game

GALVESTON = [{"train": "2-0", "connections": [["I14", "J15"]]}]  # Houston-Galveston, $50


def sp_earning_50(space: str | None = None, extra=None) -> Game:  # type: ignore[no-untyped-def]
    """SP (A 30%, B 10%, C 10%, treasury 50%) with a 2-train has run Houston-Galveston for $50.
    `space` moves its token first (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.give_train("SP", "2")
        if space:
            setup.price("SP", space)
        if extra:
            extra(setup)
    game = or_game(prepare=prepare)
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=GALVESTON)
    assert step_label(game) == "dividend"
    return game


def cash(game: Game) -> tuple[int, ...]:
    state = game.state
    return (*(player(game, k).cash for k in "ABC"), corp(game, "SP").cash, state.bank.cash)


def test_12_5_payout_pays_ten_percent_per_share_and_treasury_shares_pay_the_company() -> None:
    game = sp_earning_50()
    assert {c["kind"] for c in choices_of(game, "dividend")} == {"payout", "half", "withhold"}
    before = cash(game)
    play(game, "dividend", "SP", kind="payout")
    after = cash(game)
    assert [b - a for a, b in zip(before, after, strict=True)] == [15, 5, 5, 25, -50]


def test_12_5_bank_pool_shares_pay_nobody() -> None:
    def extra(setup: Setup) -> None:
        setup.give_share("SP", "pool")  # direct setup: one treasury share lies in the pool
    game = sp_earning_50(extra=extra)
    before = cash(game)
    play(game, "dividend", "SP", kind="payout")
    after = cash(game)
    assert [b - a for a, b in zip(before, after, strict=True)] == [15, 5, 5, 20, -45]


def test_12_5_half_pays_half_rounded_up_to_ten_and_keeps_the_rest() -> None:
    game = sp_earning_50()
    before = cash(game)
    play(game, "dividend", "SP", kind="half")
    after = cash(game)
    # $30 is paid out ($25 rounded up to $30), $20 kept: the treasury shares add $15.
    assert [b - a for a, b in zip(before, after, strict=True)] == [9, 3, 3, 35, -50]


def test_12_5_withholding_keeps_everything_and_moves_the_price_left() -> None:
    game = sp_earning_50()
    assert cell(game, "SP") == (1, 4)
    before = cash(game)
    play(game, "dividend", "SP", kind="withhold")
    after = cash(game)
    assert [b - a for a, b in zip(before, after, strict=True)] == [0, 0, 0, 50, -50]
    assert cell(game, "SP") == (1, 3)


def test_12_5_a_payout_below_the_share_price_leaves_it() -> None:
    game = sp_earning_50()
    play(game, "dividend", "SP", kind="payout")
    assert cell(game, "SP") == (1, 4)


@pytest.mark.parametrize(("space", "kind", "expected"), [
    ("50,5,0", "payout", (5, 1)),  # $50 paid on a $50 share: one space right
    ("60,5,1", "payout", (5, 1)),  # $50 on $60: no move
    ("50,5,0", "half", (5, 0)),  # half is $30, below $50: no move
    ("75,1,0", "withhold", (2, 0)),  # first column: the down arrow
    ("40,6,0", "withhold", (6, 0)),  # bottom left: no move
])
def test_12_5_price_moves(space: str, kind: str, expected: tuple[int, int]) -> None:
    game = sp_earning_50(space)
    play(game, "dividend", "SP", kind=kind)
    assert cell(game, "SP") == expected


def test_12_5_right_at_the_end_of_a_row_goes_up() -> None:
    # SSW runs Marshall-Shreveport and Marshall-Lufkin for $90 with its price at $90, the last
    # space of row 4 (an up arrow).
    game = ssw_network(extra=lambda s: s.price("SSW", "90,4,5"))
    play(game, "run_routes", "SSW", routes=[
        {"train": "2-0", "connections": [["D15", "D17", "D19"]]},
        {"train": "2-1", "connections": [["D15", "E16", "F15"]]}])
    play(game, "dividend", "SSW", kind="payout")
    assert cell(game, "SSW") == (3, 5)


def test_12_5_a_moving_token_goes_under_a_pile_a_staying_one_keeps_its_place() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: MP sits on $100 (1, 3), where SP's withholding moves it.
        setup.company("MP", "100,1,3", {"B": 20})
    game = sp_earning_50(extra=extra)
    play(game, "dividend", "SP", kind="withhold")
    assert game.state.market.stacks[(1, 3)] == ["MP", "SP"]

    def extra2(setup: Setup) -> None:
        # Direct setup: SP is on top of MP on $110; a payout below the price leaves SP on top.
        setup.company("MP", "110,1,4", {"B": 20})
        setup.price("MP", "110,1,4")
        setup.price("SP", "110,1,4")
        market = setup.state.market
        market.stacks[(1, 4)] = ["SP", "MP"]
    game = sp_earning_50(extra=extra2)
    play(game, "dividend", "SP", kind="payout")
    assert game.state.market.stacks[(1, 4)] == ["SP", "MP"]


def test_12_5_no_earnings_means_no_dividend_and_a_fall() -> None:
    # A run for nothing: the site lets a president declare it (printed, the trains must run for
    # the most, so it happens only when they have no run).
    game = or_game(prepare=lambda s: s.give_train("SP", "2"), options=["site_any_runs"])
    skip_to_step(game, "route")
    play(game, "run_routes", "SP", routes=[])
    # Nothing to pay: the dividend step passes by itself and the price moves left.
    assert step_label(game) == "buy_train"
    assert cell(game, "SP") == (1, 3)

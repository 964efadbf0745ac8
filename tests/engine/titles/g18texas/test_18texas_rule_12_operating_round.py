"""Rulebook sections 8 and 12 (introduction): the operating round, its order and its steps."""

from __future__ import annotations

from engine_helpers import (
    Setup,
    acting,
    cell,
    corp,
    finish_stock_round,
    finish_turn,
    opening,
    operating,
    or_game,
    play,
    player,
    refuse,
    step_label,
)

from engine.core.operating_round import OperatingRound


def test_12_private_companies_pay_their_owners_first_in_every_operating_round() -> None:
    game = opening(4)
    cash = {p.key: p.cash for p in game.state.players}
    finish_stock_round(game)
    paid = {p.key: p.cash - cash[p.key] for p in game.state.players}
    assert paid == {"A": 10, "B": 20, "C": 5, "D": 30}
    log = game.state.log
    assert log.index("SP operates") > log.index(f"Operating Round {game.state.turn}.1")


def test_12_highest_price_first_then_furthest_right_then_top_of_the_pile() -> None:
    def prepare(setup: Setup) -> None:
        # Direct setup: four companies at $100 in different places, SP at $110.
        setup.company("MP", "100,3,5", {"B": 20}, operated=False)
        setup.company("T&P", "100,2,4", {"C": 20}, operated=False)
        setup.company("SSW", "100,2,4", {"B": 20}, operated=False)
        setup.company("SAA", "100,0,2", {"C": 20}, operated=False)
    game = opening()
    prepare(Setup(game))
    assert [c.id for c in game.state.operating_order()] == ["SP", "MP", "T&P", "SSW", "SAA"]
    finish_stock_round(game)
    seen = []
    while isinstance(game.state.round, OperatingRound):
        seen.append(operating(game))
        finish_turn(game)
    assert seen == ["SP", "MP", "T&P", "SSW", "SAA"]


def test_12_the_next_company_is_chosen_only_when_the_previous_one_is_done() -> None:
    def prepare(setup: Setup) -> None:
        # Direct setup: MP ($90, B president, A 20%) would operate after SP; T&P waits on $82
        # in row 4.  SP and its president A are out of cash, so A must sell for SP's train.
        setup.company("MP", "90,3,4", {"B": 30, "A": 20})
        setup.company("T&P", "82,4,4", {"C": 20})
        setup.cash("SP", 0)
        setup.cash("A", 0)
    game = or_game(prepare=prepare)
    assert [c.id for c in game.state.operating_order()] == ["SP", "MP", "T&P"]
    play(game, "pass", "SP")
    assert step_label(game) == "buy_train"
    # A has the $10 from the BB-B&C; selling 10% of MP at $90 pays for the $100 2-train.
    play(game, "sell_shares", "A", shares=["MP_3"], percent=10)
    play(game, "buy_train", "SP", train="2-0", price=100)
    assert cell(game, "MP") == (4, 4)  # MP dropped onto T&P's space, under it
    # SP can do nothing more; T&P, now above MP, operates next.
    assert operating(game) == "T&P"


def test_12_the_steps_come_in_order() -> None:
    game = or_game(prepare=lambda s: s.give_train("SP", "2"))
    play(game, "pass", "SP")  # no track
    assert step_label(game) == "route"
    refuse(game, "lay_tile", "SP", r"/lay is not possible now: SP is to run trains; what you can do now: /run", hex="I12",
           tile="9-0", rotation=1)
    refuse(game, "buy_train", "SP", r"/train is not possible now: SP is to run trains", train="2-1", price=100)


def test_12_only_the_operating_company_acts() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30})
    game = or_game(prepare=prepare)
    assert acting(game) == ["A"]
    refuse(game, "pass", "MP", r"it is SP's turn to operate")


def test_8_a_company_without_trains_has_no_earnings_and_its_price_falls() -> None:
    game = opening()
    finish_stock_round(game)
    assert cell(game, "SP") == (1, 4)
    play(game, "pass", "SP")
    # No train: the run and dividend steps pass by themselves, the price moves left.
    assert step_label(game) == "buy_train"
    assert cell(game, "SP") == (1, 3)
    assert player(game, "A").cash == 160 and corp(game, "SP").trains == []

"""Rulebook section 11: stock rounds (11.1 selling, 11.2 buying, 11.3 the end of the round)."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    acting,
    auction,
    buy,
    cell,
    choices_of,
    corp,
    current_player,
    finish_stock_round,
    make_game,
    next_share,
    opening,
    operating,
    pass_turn,
    play,
    player,
    price,
    refuse,
    skip_to_step,
    stock_turn,
)

from engine.core.operating_round import OperatingRound
from engine.core.stock_round import StockRound
from engine.log import Game

SEATS = "ABC"


def sp_with_president(president: str, options: list[str] | None = None) -> Game:
    """3 players; `president` starts SP at $70 and ends stock round 1 with 30%, the two others
    with 20% each.  SP then operates once (buying a 2-train) and stock round 2 begins with the
    president to act.  SP is at $70 (row 3, first column)."""
    game = make_game(3, "MKT", options)
    auction(game)
    for seat in SEATS[: SEATS.index(president)]:
        pass_turn(game, seat)
    others = [SEATS[(SEATS.index(president) + k) % 3] for k in (1, 2)]
    stock_turn(game, president, "par", corporation="SP", share_price="70,4,2")
    for who in others + [president] + others:
        buy(game, who, "SP")
    finish_stock_round(game)
    skip_to_step(game, "buy_train")
    play(game, "buy_train", "SP", train="2-0", price=100)
    play(game, "pass", "SP")
    assert isinstance(game.state.round, StockRound) and current_player(game) == president
    sp = corp(game, "SP")
    assert {p.key: sp.percent_owned_by(p) for p in game.state.players} == {
        president: 30, others[0]: 20, others[1]: 20}
    assert price(game, "SP") == 70 and cell(game, "SP") == (3, 1)
    return game


def sell(game: Game, who: str, corporation: str, percent: int) -> None:
    """Sell `percent` of a company, naming certificates the way the legal moves do."""
    choice = next(c for c in choices_of(game, "sell_shares")
                  if c["corporation"] == corporation and c["percent"] == percent)
    play(game, "sell_shares", who, shares=choice["shares"], percent=percent)


# --- 11.1 selling ----------------------------------------------------------------------------
@pytest.mark.parametrize(("president", "successor"), [("A", "B"), ("B", "C"), ("C", "A")])
def test_11_1_presidency_tie_goes_to_the_player_closest_to_the_outgoing_presidents_left(
        president: str, successor: str) -> None:
    game = sp_with_president(president)
    sp = corp(game, "SP")
    sell(game, president, "SP", 20)
    assert sp.president() is player(game, successor)
    assert sp.percent_owned_by(player(game, president)) == 10
    assert sp.percent_owned_by(game.state.pool) == 20


def test_11_1_exchange_happens_before_the_rest_of_the_sale_and_seller_gets_the_original_price() -> None:
    game = sp_with_president("B")
    b, c = player(game, "B"), player(game, "C")
    cash = b.cash
    sell(game, "B", "SP", 20)
    sp = corp(game, "SP")
    # C takes the 20% certificate and hands both of C's 10% shares to B, who then sells two.
    assert [s.id for s in sp.shares_of(c)] == ["SP_0"]
    assert all(not s.president for s in sp.shares_of(b)) and sp.percent_owned_by(b) == 10
    # Both shares are paid at $70, the price before the sale; the price then drops two rows.
    assert b.cash == cash + 140
    assert price(game, "SP") == 60 and cell(game, "SP") == (5, 1)


def test_11_1_an_equal_holding_does_not_change_the_presidency() -> None:
    game = sp_with_president("B")
    sell(game, "B", "SP", 10)
    assert corp(game, "SP").president() is player(game, "B")


def test_11_1_the_largest_holder_becomes_president_before_the_closest_one() -> None:
    game = sp_with_president("A")
    # Direct setup: C gets one more SP share from the treasury, so C (30%) outholds B (20%).
    Setup(game).give_share("SP", "C")
    sell(game, "A", "SP", 30)
    assert corp(game, "SP").president() is player(game, "C")


def test_11_1_president_certificate_may_never_end_up_in_the_pool() -> None:
    game = opening()  # A: SP president with 30%, B and C 10% each
    finish_stock_round(game)
    skip_to_step(game, "buy_train")
    play(game, "buy_train", "SP", train="2-0", price=100)
    play(game, "pass", "SP")
    assert current_player(game) == "B"
    pass_turn(game, "B")
    pass_turn(game, "C")
    refuse(game, "sell_shares", "A", r"the president's certificate of SP may not go to the pool and no "
           r"other player holds enough shares to take it over", shares=["SP_3", "SP_0"], percent=20)
    assert [c["percent"] for c in choices_of(game, "sell_shares")] == [10]
    sell(game, "A", "SP", 10)
    assert corp(game, "SP").president() is player(game, "A")


def test_11_1_shares_of_a_company_that_has_not_completed_an_operating_turn_cannot_be_sold() -> None:
    game = opening()
    pass_turn(game, "B")
    pass_turn(game, "C")
    refuse(game, "sell_shares", "A", r"SP has not yet completed an operating turn, so its shares cannot be "
           r"sold \(11.1\)", shares=["SP_3"], percent=10)
    assert choices_of(game, "sell_shares") == []


def test_11_1_no_more_than_half_of_a_company_in_the_pool() -> None:
    game = sp_with_president("B")
    # Direct setup: SP's three treasury shares lie in the pool already (30%).
    setup = Setup(game)
    for _ in range(3):
        setup.give_share("SP", "pool")
    held = [s.id for s in corp(game, "SP").shares_of(player(game, "B"))]
    refuse(game, "sell_shares", "B", r"at most 50% of SP may be in the bank pool; this sale would make 60%",
           shares=held, percent=30)
    assert [c["percent"] for c in choices_of(game, "sell_shares") if c["corporation"] == "SP"] == [10, 20]
    sell(game, "B", "SP", 20)
    assert corp(game, "SP").percent_owned_by(game.state.pool) == 50


def test_11_1_price_drops_one_row_per_share_sold() -> None:
    game = sp_with_president("B")
    sell(game, "B", "SP", 10)
    assert cell(game, "SP") == (4, 1) and price(game, "SP") == 65


@pytest.mark.parametrize(("options", "second"), [([], 70), (["site_repeat_sale_prices"], 65)])
def test_11_1_a_second_sale_of_a_company_in_one_turn_fetches_the_original_price(options: list[str],
                                                                                 second: int) -> None:
    """11.1: "The player receives the original price for each of the shares sold"; the site pays a
    second sale of the same company in the turn at the price the first one dropped it to."""
    game = sp_with_president("B", options)
    cash = player(game, "B").cash
    sell(game, "B", "SP", 10)
    assert player(game, "B").cash == cash + 70 and price(game, "SP") == 65
    assert [c["price"] for c in choices_of(game, "sell_shares") if c["corporation"] == "SP"][0] == second
    sell(game, "B", "SP", 10)
    assert player(game, "B").cash == cash + 70 + second
    # Both sales dropped the price, one row each.
    assert price(game, "SP") == 60 and cell(game, "SP") == (5, 1)
    # Another turn's sale is at the new price.
    pass_turn(game, "B")
    pass_turn(game, "C")
    a_cash = player(game, "A").cash
    sell(game, "A", "SP", 10)
    assert player(game, "A").cash == a_cash + 60


def test_11_1_the_ledge_selling_on_the_bottom_row_does_not_move_the_price() -> None:
    game = sp_with_president("B")
    # Direct setup: SP's token is on the ledge (bottom of its column), under MKT's on the same space.
    setup = Setup(game)
    setup.price("MKT", "40,6,0")
    setup.price("SP", "40,6,0")
    cash = player(game, "B").cash
    sell(game, "B", "SP", 10)
    assert cell(game, "SP") == (6, 0)
    # It keeps its place in the pile (below MKT) and the seller gets $40.
    assert game.state.market.stacks[(6, 0)] == ["MKT", "SP"]
    assert player(game, "B").cash == cash + 40


def test_11_1_a_drop_stops_at_the_bottom_of_the_chart() -> None:
    game = sp_with_president("B")
    # Direct setup: SP at $82 in row 4, column 4, one space above the ledge.
    Setup(game).price("SP", "82,4,4")
    sell(game, "B", "SP", 20)
    assert cell(game, "SP") == (5, 4) and price(game, "SP") == 75


def test_11_1_a_dropping_token_goes_under_the_tokens_already_there_and_sale_order_decides() -> None:
    game = sp_with_president("B")
    setup = Setup(game)
    # Direct setup: MKT and SP both at $70 (3, 1); MP already sits on $65 (4, 1); B owns 20% of MKT.
    setup.price("MKT", "70,3,1")
    setup.price("MP", "65,4,1")
    corp(game, "MKT").times_operated = 1
    setup.give_share("MKT", "B")
    setup.give_share("MKT", "B")
    sell(game, "B", "MKT", 10)
    sell(game, "B", "SP", 10)
    assert game.state.market.stacks[(4, 1)] == ["MP", "MKT", "SP"]


def test_11_1_private_companies_may_never_be_sold() -> None:
    game = sp_with_president("B")
    refuse(game, "sell_shares", "B", r"there is no company 'GRRRC'", shares=["GRRRC_0"], percent=10)


def five_player_limit_game() -> Game:
    """5 players (limit 10). Direct setup: B, with the G&RRRC, presides SP, MP and T&P with 40%
    of each (9 certificates), all three having operated; B's turn in a stock round."""
    game = make_game(5, "MKT")
    auction(game)
    pass_turn(game, "A")
    setup = Setup(game)
    for name, space in (("SP", "100,2,4"), ("MP", "90,3,4"), ("T&P", "82,3,3")):
        setup.company(name, space, {"B": 40})
    setup.cash("B", 500)
    assert game.state.certificate_count(player(game, "B")) == 10
    return game


def test_11_1_a_player_over_the_certificate_limit_must_sell_first() -> None:
    game = five_player_limit_game()
    # One certificate too many, as after losing a presidency (direct setup).
    Setup(game).give_share("SP", "B")
    state = game.state
    assert state.certificate_count(player(game, "B")) == 11
    refuse(game, "pass", "B", r"B holds 11 certificates, more than the limit of 10, and must sell first \(11.1\)")
    refuse(game, "par", "B", r"B holds 11 certificates", corporation="SSW", share_price="100,2,4")
    assert {m["type"] for m in game.legal_moves()} == {"sell_shares"}
    sell(game, "B", "MP", 10)
    assert state.certificate_count(player(game, "B")) == 10
    # Back at the limit: no purchase, but passing is fine now.
    assert {m["type"] for m in game.legal_moves()} == {"sell_shares", "pass"}
    play(game, "pass", "B")


def test_11_1_over_the_limit_with_nothing_sellable_may_pass() -> None:
    game = five_player_limit_game()
    setup = Setup(game)
    setup.give_share("SP", "B")
    # Direct setup: none of B's companies has completed an operating turn now.
    for name in ("SP", "MP", "T&P"):
        corp(game, name).times_operated = 0
        corp(game, name).has_paid = False
    assert game.state.certificate_count(player(game, "B")) == 11
    play(game, "pass", "B")


# --- 11.2 buying -------------------------------------------------------------------------------
def test_11_2_one_certificate_per_turn_then_the_next_player() -> None:
    game = opening(float_sp=False)
    buy(game, "A", "MKT")
    assert current_player(game) == "B"
    refuse(game, "buy_shares", "A", r"it is B's turn in the stock round", shares=[next_share(game, "MKT")],
           percent=10)


def test_11_2_treasury_purchases_pay_the_company_pool_purchases_pay_the_bank() -> None:
    game = sp_with_president("B")
    sell(game, "B", "SP", 10)  # one SP share is now in the pool, the price is $65
    play(game, "pass", "B")
    sp, bank = corp(game, "SP"), game.state.bank
    before = (sp.cash, bank.cash, player(game, "C").cash)
    buy(game, "C", "SP", source="pool")
    assert (sp.cash, bank.cash, player(game, "C").cash) == (before[0], before[1] + 65, before[2] - 65)
    before = (sp.cash, bank.cash, player(game, "A").cash)
    buy(game, "A", "SP", source="treasury")
    assert (sp.cash, bank.cash, player(game, "A").cash) == (before[0] + 65, before[1], before[2] - 65)


def test_11_2_the_presidents_certificate_is_bought_by_setting_a_par_on_a_pink_square() -> None:
    game = opening(float_sp=False)
    refuse(game, "buy_shares", "A", r"SP has not been started; start it with /par", shares=["SP_1"], percent=10)
    refuse(game, "buy_shares", "A", r"MKT_0 is neither in the company treasury nor in the bank pool",
           shares=["MKT_0"], percent=20)
    refuse(game, "par", "A", r"choose a par price from the par spaces: \$100 \(100,2,4\)", corporation="SP",
           share_price="110,1,4")
    refuse(game, "par", "A", r"MKT has already been started", corporation="MKT", share_price="100,2,4")
    cash = player(game, "A").cash
    play(game, "par", "A", corporation="SP", share_price="82,3,3")
    sp = corp(game, "SP")
    assert sp.president() is player(game, "A") and player(game, "A").cash == cash - 164 and sp.cash == 164
    assert cell(game, "SP") == (3, 3)


def test_11_2_par_on_an_occupied_square_goes_under_the_token_there() -> None:
    game = opening(float_sp=False)  # MKT, the Jay Gould company, is at $100
    play(game, "par", "A", corporation="SP", share_price="100,2,4")
    assert game.state.market.stacks[(2, 4)] == ["MKT", "SP"]


def test_11_2_par_needs_the_cash_for_twice_the_price() -> None:
    game = opening(float_sp=False)
    buy(game, "A", "MKT")
    buy(game, "B", "MKT")
    # C spent $200 on Jay Gould: $300 left, enough for $140 but C now tries with $20 too little.
    Setup(game).cash("C", 179)
    refuse(game, "par", "C", r"starting SP at \$90 costs \$180; C has \$179", corporation="SP",
           share_price="90,3,4")


def test_11_2_float_at_fifty_percent_with_token_fee_home_station_and_upward_move() -> None:
    game = opening(float_sp=False)
    stock_turn(game, "A", "par", corporation="SP", share_price="100,2,4")
    buy(game, "B", "SP")
    buy(game, "C", "SP")
    sp, bank = corp(game, "SP"), game.state.bank
    assert not sp.floated and sp.cash == 400 and game.state.board.hexes["I14"].tokens == [[None]]
    bank_before = bank.cash
    buy(game, "A", "SP")  # the fourth certificate: 50% sold
    assert sp.floated
    # Five times the share value, less the $140 token fee paid to the bank.
    assert sp.cash == 500 - 140 and bank.cash == bank_before + 140
    assert game.state.board.hexes["I14"].tokens == [["SP"]]
    assert cell(game, "SP") == (1, 4) and price(game, "SP") == 110
    # The remaining five 10% certificates stay in the company treasury.
    assert sp.percent_owned_by(sp) == 50


def test_11_2_jay_gould_company_floats_when_players_hold_half() -> None:
    game = make_game(4, "SSW")
    auction(game, par="75,4,3")  # C holds the 20% certificate, D 10% with the I&GN
    ssw = corp(game, "SSW")
    assert ssw.cash == 225 and not ssw.floated
    buy(game, "A", "SSW")
    assert not ssw.floated
    buy(game, "B", "SSW")
    assert ssw.floated and ssw.cash == 5 * 75 - 60
    assert cell(game, "SSW") == (3, 3)


def test_11_2_buying_more_than_the_president_takes_the_presidency() -> None:
    game = opening(float_sp=False)
    stock_turn(game, "A", "par", corporation="SP", share_price="100,2,4")
    buy(game, "B", "SP")
    pass_turn(game, "C")
    pass_turn(game, "A")
    buy(game, "B", "SP")
    assert corp(game, "SP").president() is player(game, "A")  # 20% each: no change
    pass_turn(game, "C")
    pass_turn(game, "A")
    buy(game, "B", "SP")
    sp = corp(game, "SP")
    assert sp.president() is player(game, "B")
    assert sp.percent_owned_by(player(game, "A")) == 20 and all(not s.president for s in sp.shares_of(player(game, "A")))
    assert [s.id for s in sp.shares_of(player(game, "B")) if s.president] == ["SP_0"]
    assert sp.percent_owned_by(player(game, "B")) == 30


def test_11_2_may_not_buy_a_company_sold_earlier_in_the_same_round() -> None:
    game = sp_with_president("B")
    sell(game, "B", "SP", 10)
    refuse(game, "buy_shares", "B", r"B sold SP this round and may not buy it back",
           shares=[next_share(game, "SP")], percent=10)
    assert all(c["corporation"] != "SP" for c in choices_of(game, "buy_shares"))
    buy(game, "B", "MKT")
    # Still true on B's next turn in the same round.
    pass_turn(game, "C")
    pass_turn(game, "A")
    refuse(game, "buy_shares", "B", r"B sold SP this round", shares=[next_share(game, "SP")], percent=10)


def test_11_2_no_player_may_own_more_than_sixty_percent() -> None:
    game = sp_with_president("B")
    setup = Setup(game)
    state = game.state
    # Direct setup: B holds 60% of SP (all three treasury shares) and has money; one of A's SP
    # shares lies in the pool.
    for _ in range(3):
        setup.give_share("SP", "B")
    state.ledger.move(corp(game, "SP").shares_of(player(game, "A"))[0], state.pool)
    setup.cash("B", 500)
    refuse(game, "buy_shares", "B", r"a player may hold at most 60% of SP",
           shares=[next_share(game, "SP", "pool")], percent=10)
    assert all(c["corporation"] != "SP" for c in choices_of(game, "buy_shares"))


def test_11_2_no_purchase_at_the_certificate_limit_even_one_that_would_swap_a_presidency() -> None:
    game = five_player_limit_game()
    pass_turn(game, "B")
    # Direct setup: C (Jay Gould, MKT's 20%) also holds one more MKT share, 40% of SP under B's
    # 40% and SSW's 20% plus 20%: 10 certificates, the 5-player limit.  One more SP share would
    # make C the president and bring C back to 10 certificates, but it may not be bought.
    setup = Setup(game)
    setup.give_share("MKT", "C")
    for _ in range(4):
        setup.give_share("SP", "C")
    setup.company("SSW", "75,4,3", {"C": 40})
    setup.cash("C", 500)
    state = game.state
    assert state.certificate_count(player(game, "C")) == 10
    refuse(game, "buy_shares", "C", r"C is at the certificate limit of 10", shares=[next_share(game, "SP")],
           percent=10)
    refuse(game, "par", "C", r"C is at the certificate limit of 10", corporation="SAA", share_price="100,2,4")
    assert {m["type"] for m in game.legal_moves()} == {"sell_shares", "pass"}


def test_11_2_certificate_limit_counts_private_companies_until_they_close() -> None:
    game = opening()
    state = game.state
    a = player(game, "A")
    assert state.certificate_count(a) == 1 + 2  # the BB-B&C, SP's 20% and one 10% share
    state.companies["BBBCRC"].closed = True
    assert state.certificate_count(a) == 2


# --- 11.3 ending the stock round ----------------------------------------------------------------
def test_11_3_the_round_ends_when_all_players_pass_consecutively() -> None:
    game = opening()
    pass_turn(game, "B")
    pass_turn(game, "C")
    assert isinstance(game.state.round, StockRound)
    pass_turn(game, "A")
    assert isinstance(game.state.round, OperatingRound) and operating(game) == "SP"


def test_11_3_a_turn_ends_by_itself_when_nothing_is_left_to_do() -> None:
    """B (SP's president, $0) sells all 30% of SP at $40: with $120 B cannot buy SP back, nor
    MKT at $150, nor start a company ($140 at the lowest par), and has nothing left to sell. The
    turn is over without a pass."""
    game = sp_with_president("B")
    setup = Setup(game)
    setup.cash("B", 0)
    setup.price("SP", "40,6,0")
    setup.price("MKT", "150,0,6")
    sell(game, "B", "SP", 30)
    assert player(game, "B").cash == 120
    assert current_player(game) == "C" and acting(game) == ["C"]
    assert "B can do nothing more this turn" in game.state.log
    refuse(game, "pass", "B", r"it is C's turn")
    pass_turn(game, "C")
    assert isinstance(game.state.round, StockRound) and current_player(game) == "A"
    # After A's pass B, still with nothing to do, is passed over: three passes end the round.
    pass_turn(game, "A")
    assert isinstance(game.state.round, OperatingRound)
    assert "B has no valid actions and passes" in game.state.log


def test_11_3_a_transaction_restarts_the_count_of_passes() -> None:
    game = opening()
    pass_turn(game, "B")
    buy(game, "C", "MKT")
    pass_turn(game, "A")
    pass_turn(game, "B")
    assert isinstance(game.state.round, StockRound) and current_player(game) == "C"


def test_11_3_priority_deal_goes_left_of_the_last_player_to_buy_or_sell() -> None:
    game = opening()  # A bought last in stock round 1
    finish_stock_round(game)
    assert game.state.priority_player.key == "B"


def test_11_3_priority_deal_does_not_move_when_nobody_trades() -> None:
    game = sp_with_president("B")  # B holds the priority deal
    for who in ("B", "C", "A"):
        pass_turn(game, who)
    assert game.state.priority_player.key == "B"


def test_11_3_sold_out_companies_rise_one_row_at_the_end_of_the_round() -> None:
    game = sp_with_president("B")
    setup = Setup(game)
    # Direct setup: every remaining SP share is with the players (B holds the rest).
    for _ in range(3):
        setup.give_share("SP", "B")
    assert corp(game, "SP").percent_held_by_players() == 100
    for who in ("B", "C", "A"):
        pass_turn(game, who)
    assert cell(game, "SP") == (2, 1) and price(game, "SP") == 75


def test_11_3_sold_out_rises_are_simultaneous_and_keep_the_order_of_a_pile() -> None:
    game = sp_with_president("B")
    setup = Setup(game)
    state = game.state
    # Direct setup: T&P (not sold out) sits on $75 in row 2; MP (A 60%, B 40%) and SP (all its
    # shares with players) share the $70 space below it, MP on top.
    setup.company("T&P", "75,2,1", {"C": 20})
    setup.company("MP", "70,3,1", {"A": 60, "B": 40})
    for _ in range(3):
        setup.give_share("SP", "B")
    setup.price("SP", "70,3,1")
    for who in ("B", "C", "A"):
        pass_turn(game, who)
    assert state.market.stacks[(2, 1)] == ["T&P", "MP", "SP"]


def test_11_3_a_sold_out_company_on_the_top_row_stays() -> None:
    game = sp_with_president("B")
    setup = Setup(game)
    for _ in range(3):
        setup.give_share("SP", "B")
    setup.price("SP", "135,0,5")
    for who in ("B", "C", "A"):
        pass_turn(game, who)
    assert cell(game, "SP") == (0, 5)


def test_11_3_phase_2_has_one_operating_round_per_stock_round() -> None:
    game = opening()
    finish_stock_round(game)
    assert game.state.operating_rounds == 1
    skip_to_step(game, "buy_train")
    play(game, "buy_train", "SP", train="2-0", price=100)
    play(game, "pass", "SP")
    assert isinstance(game.state.round, StockRound) and game.state.turn == 2
    assert acting(game) == ["B"]

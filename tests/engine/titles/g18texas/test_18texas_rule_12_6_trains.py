"""Rulebook section 12.6: buying trains, the compulsory purchase, train limits and discards."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    best_routes,
    cell,
    choices_of,
    corp,
    moves_of,
    operating,
    or_game,
    play,
    player,
    refuse,
    skip_to_step,
    step_label,
    total_money,
)

from engine.core.operating_round import OperatingRound
from engine.log import Game


def at_buy(prepare=None, options: list[str] | None = None, count: int = 3) -> Game:  # type: ignore[no-untyped-def]
    """SP (A president) at its buy-trains step in operating round 1, after `prepare(Setup)`."""
    game = or_game(count, options=options, prepare=prepare)
    skip_to_step(game, "buy_train")
    return game


def turn_over(game: Game, company: str) -> bool:
    rnd = game.state.round
    return not isinstance(rnd, OperatingRound) or rnd.turn is None or operating(game) != company


def depot_choice(game: Game) -> dict:
    return next(c for c in choices_of(game, "buy_train") if c.get("from") == "depot")


# --- ordinary purchases ----------------------------------------------------------------------
def test_12_6_only_the_cheapest_new_train_at_face_value() -> None:
    game = at_buy(lambda s: s.give_train("SP", "2"))
    refuse(game, "buy_train", "SP", r"train '3-0' cannot be bought now; the next new train is 2-1 at \$100",
           train="3-0", price=200)
    refuse(game, "buy_train", "SP", r"a new 2-train costs \$100", train="2-1", price=90)
    assert depot_choice(game) == {"train": "2-1", "price": 100, "variant": "2", "from": "depot"}


def test_12_6_several_trains_in_one_turn_each_with_its_effects_at_once() -> None:
    def prepare(setup: Setup) -> None:
        setup.give_train("SP", "2")
        setup.remove_depot_trains("2", keep=1)  # one 2-train left, then the 3-trains
        setup.cash("SP", 1000)
    game = at_buy(prepare)
    play(game, "buy_train", "SP", train="2-4", price=100)
    assert game.state.phase.name == "2"
    play(game, "buy_train", "SP", train="3-0", price=200)
    # The 3-train started phase 3 at once.
    assert game.state.phase.name == "3"
    play(game, "buy_train", "SP", train="3-1", price=200)
    assert [t.id for t in corp(game, "SP").trains] == ["2-0", "2-4", "3-0", "3-1"]
    # Four trains: the limit; SP's turn is over.
    assert turn_over(game, "SP")


def test_12_6_a_company_at_its_limit_may_not_buy_even_if_the_purchase_would_make_room() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30})
        for name in ("2", "2", "3", "3"):
            setup.give_train("SP", name)
        setup.remove_depot_trains("2")
        setup.remove_depot_trains("3")
        setup.phase("3")
        setup.cash("SP", 1000)
    game = or_game(prepare=prepare)
    skip_to_step(game, "route")
    # The next train is the first 4-train, which would rust both 2-trains: still no purchase.
    assert game.state.depot.next_train().id == "4-0"
    play(game, "run_routes", "SP", routes=best_routes(game, "SP"))
    play(game, "dividend", "SP", kind="withhold")
    assert moves_of(game, "buy_train") == [] and operating(game) == "MP"


def test_12_6_below_the_limit_a_purchase_may_start_a_phase_that_puts_the_company_over_it() -> None:
    def prepare(setup: Setup) -> None:
        for name in ("3", "3", "3"):
            setup.give_train("SP", name)
        setup.remove_depot_trains("2")
        setup.remove_depot_trains("3")
        setup.phase("3")
        setup.cash("SP", 1000)
    game = at_buy(prepare)
    play(game, "buy_train", "SP", train="4-0", price=300)
    # Phase 4: limit 3, SP has four trains and must discard one before anything else.
    assert game.state.phase.name == "4" and len(corp(game, "SP").trains) == 4
    assert [m["type"] for m in game.legal_moves()] == ["discard_train"]
    refuse(game, "pass", "SP", r"SP is over its train limit and must first discard a train")
    play(game, "discard_train", "SP", train="3-1")
    assert [t.id for t in corp(game, "SP").trains] == ["3-0", "3-2", "4-0"]


def test_12_6_discarded_trains_leave_the_game() -> None:
    def prepare(setup: Setup) -> None:
        # Direct setup: MP (B) holds all four 3-trains, SP a 2-train; the 4-trains are next.
        setup.company("MP", "90,3,4", {"B": 30})
        setup.give_train("SP", "2")
        for _ in range(4):
            setup.give_train("MP", "3")
        setup.remove_depot_trains("2")
        setup.phase("3")
        setup.cash("SP", 1000)
    game = at_buy(prepare)
    play(game, "buy_train", "SP", train="4-0", price=300)
    # Phase 4: SP's 2-train rusted; MP, over the new limit of 3, discards.
    assert [m["type"] for m in game.legal_moves()] == ["discard_train"] and operating(game) == "MP"
    discarded = corp(game, "MP").trains[0]
    depot = game.state.depot.run_length()
    play(game, "discard_train", "MP", train=discarded.id)
    assert [t.id for t in corp(game, "MP").trains] == ["3-1", "3-2", "3-3"]
    assert discarded.owner is None and discarded not in game.state.all_trains()
    assert discarded not in game.state.depot.trains and game.state.depot.run_length() == depot
    # SP, still buying, cannot get it from anyone.
    assert operating(game) == "SP" and step_label(game) == "buy_train"
    assert all(c["train"] != discarded.id for c in choices_of(game, "buy_train"))
    refuse(game, "buy_train", "SP", r"train '3-0' cannot be bought now; the next new train is 4-1 at \$300",
           train="3-0", price=200)


@pytest.mark.parametrize(("tp_space", "mp_space", "first"), [
    ("100,2,4", "90,3,4", "T&P"),  # the higher price discards first
    ("90,3,4", "90,4,5", "MP"),  # same price: the token further right first
    ("90,3,4", "90,3,4", "T&P"),  # same space: the token on top (T&P was there first)
])
def test_12_6_discards_in_descending_price_then_furthest_right_then_top_of_the_pile(
        tp_space: str, mp_space: str, first: str) -> None:
    assert discard_order(tp_space, mp_space) == [first, "MP" if first == "T&P" else "T&P"]


@pytest.mark.parametrize(("options", "order"), [([], ["MP", "T&P"]), (["site_discard_order"], ["T&P", "MP"])])
def test_12_6_option_site_discard_order_goes_by_the_fixed_company_order(options: list[str],
                                                                       order: list[str]) -> None:
    """MP's price is the higher: printed, it discards first; the site takes T&P first, always."""
    assert discard_order("90,3,4", "100,2,4", options) == order


def discard_order(tp_space: str, mp_space: str, options: list[str] | None = None) -> list[str]:
    def prepare(setup: Setup) -> None:
        # Direct setup: phase 4 (limit 3); T&P (B) and MP (C) hold three trains each, SP one.
        # SP buys the first 5-train: the limit falls to 2 and both must discard.
        setup.company("T&P", tp_space, {"B": 30})
        setup.company("MP", mp_space, {"C": 30})
        setup.give_train("SP", "4")
        for company in ("T&P", "MP"):
            for name in ("3", "3", "4"):
                setup.give_train(company, name)
        for name in ("2", "3", "4"):
            setup.remove_depot_trains(name)
        setup.phase("4")
        setup.cash("SP", 1000)
    game = at_buy(prepare, options)
    play(game, "buy_train", "SP", train="5-0", price=500)
    order = []
    while moves_of(game, "discard_train"):
        company = operating(game)
        order.append(company)
        # Only the company whose turn it is to discard may.
        other = "MP" if company == "T&P" else "T&P"
        refuse(game, "discard_train", other, rf"{company} is over its train limit and must first discard a train",
               train=corp(game, other).trains[0].id)
        play(game, "discard_train", company, train=corp(game, company).trains[0].id)
    assert all(len(corp(game, c).trains) == 2 for c in ("SP", "T&P", "MP"))
    return order


# --- trains from other companies --------------------------------------------------------------
def two_companies(mp_president: str, options: list[str] | None = None) -> Game:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {mp_president: 30})
        setup.give_train("MP", "2")
        setup.give_train("SP", "2")
    return at_buy(prepare, options)


def test_12_6_same_president_any_price_from_one_dollar_to_the_treasury() -> None:
    game = two_companies("A")
    cash = corp(game, "SP").cash
    choice = next(c for c in choices_of(game, "buy_train") if c.get("from") == "MP")
    assert choice == {"train": "2-0", "from": "MP", "min_price": 1, "max_price": cash}
    refuse(game, "buy_train", "SP", r"a train costs at least \$1", train="2-0", price=0)
    refuse(game, "buy_train", "SP", rf"SP has only \${cash}", train="2-0", price=cash + 1)
    # (A refused action restores the position from a copy: look the companies up again.)
    sp, mp = corp(game, "SP"), corp(game, "MP")
    before = (sp.cash, mp.cash)
    play(game, "buy_train", "SP", train="2-0", price=1)
    assert (sp.cash, mp.cash) == (before[0] - 1, before[1] + 1)
    assert [t.id for t in sp.trains] == ["2-1", "2-0"] and mp.trains == []


def test_12_6_another_president_sells_only_at_face_value() -> None:
    game = two_companies("B")
    choice = next(c for c in choices_of(game, "buy_train") if c.get("from") == "MP")
    assert choice == {"train": "2-0", "from": "MP", "price": 100}
    refuse(game, "buy_train", "SP", r"MP has another president, so its 2-train is sold at face value, \$100 "
           r"\(12.6\)", train="2-0", price=50)
    play(game, "buy_train", "SP", train="2-0", price=100)


def test_12_6_site_reading_any_price_whoever_presides() -> None:
    game = two_companies("B", ["site_train_prices"])
    choice = next(c for c in choices_of(game, "buy_train") if c.get("from") == "MP")
    assert choice["min_price"] == 1
    play(game, "buy_train", "SP", train="2-0", price=5)


# --- the compulsory purchase ------------------------------------------------------------------
def test_12_6_a_company_with_a_route_and_no_train_must_buy_one() -> None:
    game = at_buy()
    assert [m["type"] for m in game.legal_moves()] == ["buy_train"]
    refuse(game, "pass", "SP", r"SP has a route but no train, so it must buy a train \(12.6\)")


def test_12_6_a_company_without_a_route_need_not_buy() -> None:
    def prepare(setup: Setup) -> None:
        # Direct setup: MP floated at College Station without any track: no route.
        setup.company("MP", "122,0,4", {"B": 30}, operated=False)
        setup.cash("MP", 400)
    game = or_game(company="MP", prepare=prepare)
    skip_to_step(game, "buy_train")
    assert {m["type"] for m in game.legal_moves()} == {"buy_train", "pass"}
    play(game, "pass", "MP")


def test_12_6_with_enough_money_the_company_may_buy_from_another_company_instead() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"A": 30})
        setup.give_train("MP", "2")
    game = at_buy(prepare)
    play(game, "buy_train", "SP", train="2-0", price=10)
    assert [t.id for t in corp(game, "SP").trains] == ["2-0"]


def test_12_6_short_of_money_it_buys_from_the_bank_and_the_president_pays_the_rest() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"A": 30})
        setup.give_train("MP", "2")
        setup.cash("SP", 80)
    game = at_buy(prepare)
    # Not even from a company with the same president, though that would be cheaper.
    assert choices_of(game, "buy_train") == [{"train": "2-1", "price": 100, "variant": "2", "from": "depot"}]
    refuse(game, "buy_train", "SP", r"in this compulsory purchase the train must come from the bank \(12.6\)",
           train="2-0", price=10)
    a, sp = player(game, "A"), corp(game, "SP")
    cash = a.cash
    play(game, "buy_train", "SP", train="2-1", price=100)
    # The company spends all it has first; the president adds only the $20 missing.
    assert sp.cash == 0 and a.cash == cash - 20


def test_12_6_the_president_does_not_pay_when_the_company_can() -> None:
    game = at_buy(lambda s: s.cash("SP", 100))
    cash = player(game, "A").cash
    play(game, "buy_train", "SP", train="2-0", price=100)
    assert player(game, "A").cash == cash and corp(game, "SP").cash == 0


def forced_sale_game(a_cash: int = 0, options: list[str] | None = None, extra=None) -> Game:  # type: ignore[no-untyped-def]
    """SP ($50) must buy a $100 2-train; A (SP's president) has `a_cash` plus the BB-B&C's $10,
    and 20% of MP ($90, B presides with 30%), which has operated (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30, "A": 20})
        setup.cash("SP", 50)
        setup.cash("A", a_cash)
        if extra:
            extra(setup)
    return at_buy(prepare, options)


def test_12_6_the_president_sells_shares_when_short() -> None:
    game = forced_sale_game()
    a = player(game, "A")
    assert a.cash == 10
    assert {m["type"] for m in game.legal_moves()} == {"sell_shares"}
    assert [c["percent"] for c in choices_of(game, "sell_shares")] == [10]
    refuse(game, "buy_train", "SP", r"the president must add \$50 but has \$10; sell shares first", train="2-0",
           price=100)
    refuse(game, "sell_shares", "A", r"sell only as many certificates as needed: \$40 is missing",
           shares=["MP_2", "MP_3"], percent=20)
    play(game, "sell_shares", "A", shares=["MP_3"], percent=10)
    a = player(game, "A")
    assert a.cash == 100
    # The money is there: no more sales.
    refuse(game, "sell_shares", "A", r"A has enough cash for the train; no shares may be sold",
           shares=["MP_2"], percent=10)
    play(game, "buy_train", "SP", train="2-0", price=100)
    a = player(game, "A")
    assert a.cash == 50 and corp(game, "SP").cash == 0
    assert total_money(game.state) == 8000


def test_12_6_forced_sales_follow_the_normal_rules_and_keep_the_active_presidency() -> None:
    def extra(setup: Setup) -> None:
        # Direct setup: SP has operated before, B holds 20% of SP, and A has no MP shares.
        state = setup.state
        state.corporation("SP").times_operated = 1
        for share in state.corporation("MP").shares_of(state.player("A")):
            state.ledger.move(share, state.corporation("MP"))
        setup.give_share("SP", "B")
    game = forced_sale_game(extra=extra)
    # A (30% of SP) may sell 10% but not 20%: B would become SP's president.
    assert [c["percent"] for c in choices_of(game, "sell_shares") if c["corporation"] == "SP"] == [10]
    refuse(game, "sell_shares", "A", r"A must keep the president's certificate of SP",
           shares=["SP_3", "SP_0"], percent=20)


def test_12_6_forced_sales_are_paid_at_the_price_before_the_purchase_began() -> None:
    game = forced_sale_game(extra=lambda s: s.cash("SP", 0))
    Setup(game).cash("A", 5)  # direct setup: $95 missing, more than one $90 MP share
    play(game, "sell_shares", "A", shares=["MP_3"], percent=10)
    assert player(game, "A").cash == 95 and cell(game, "MP") == (4, 4)
    # The second share still fetches $90, MP's price when the train purchase began, not $82.
    assert [c["price"] for c in choices_of(game, "sell_shares") if c["corporation"] == "MP"] == [90]
    play(game, "sell_shares", "A", shares=["MP_2"], percent=10)
    assert player(game, "A").cash == 185 and cell(game, "MP") == (5, 4)


def test_12_6_site_reading_forced_sales_at_the_price_of_the_moment() -> None:
    game = forced_sale_game(options=["site_emergency_sale_prices"], extra=lambda s: s.cash("SP", 0))
    Setup(game).cash("A", 5)
    play(game, "sell_shares", "A", shares=["MP_3"], percent=10)
    play(game, "sell_shares", "A", shares=["MP_2"], percent=10)
    assert player(game, "A").cash == 5 + 90 + 82


def test_12_6_only_the_president_sells_and_only_while_short() -> None:
    game = forced_sale_game()
    refuse(game, "sell_shares", "B", r"only SP's president may sell shares to pay for its train",
           shares=["MP_1"], percent=10)
    game = at_buy()
    refuse(game, "sell_shares", "A", r"A has enough cash for the train; no shares may be sold",
           shares=["SP_3"], percent=10)


@pytest.mark.parametrize(("options", "kept"), [([], 10), (["site_bankrupt_cash"], 0)])
def test_13_a_president_who_cannot_raise_the_money_is_bankrupt_and_the_game_ends(options: list[str],
                                                                                  kept: int) -> None:
    """Rule 13: a bankrupt player keeps their cash (the BB-B&C's $10 here), which counts in
    their wealth; the site hands it to the bank."""
    def extra(setup: Setup) -> None:
        # Direct setup: A owns no sellable shares (A's MP shares go back to MP's treasury).
        state = setup.state
        for share in state.corporation("MP").shares_of(state.player("A")):
            state.ledger.move(share, state.corporation("MP"))
    game = forced_sale_game(extra=extra, options=options)
    assert [m["type"] for m in game.legal_moves()] == ["bankrupt"]
    value = game.result()["A"]
    play(game, "bankrupt", "SP")
    assert game.finished and game.state.end_reason == "bankrupt"
    assert player(game, "A").bankrupt and player(game, "A").cash == kept
    assert game.result()["A"] == value - (10 - kept)
    assert game.legal_moves() == []
    assert total_money(game.state) == 8000


def test_13_bankruptcy_is_refused_while_the_president_can_pay_or_sell() -> None:
    game = forced_sale_game()
    refuse(game, "bankrupt", "SP", r"A must first sell shares to raise the money")
    game = forced_sale_game(a_cash=100)
    refuse(game, "bankrupt", "SP", r"A can pay for the train and is not bankrupt")
    game = or_game(prepare=lambda s: s.give_train("SP", "2"))
    refuse(game, "bankrupt", "SP", r"bankruptcy is only declared when a compulsory train cannot be paid for")


def test_12_6_no_new_trains_left_absolves_the_company() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30})
        for name in ("2", "3", "4", "5", "6", "8"):
            setup.remove_depot_trains(name)
        setup.phase("8")
        setup.state.close_all_companies()
    game = or_game(prepare=prepare)
    play(game, "pass", "SP")
    # Route but no train and no train to buy: SP's turn simply ends.
    assert operating(game) == "MP" and not game.finished


# --- a compulsory purchase from another company (option site_emergency_company_trains) ------------
@pytest.mark.parametrize("options", [[], ["site_emergency_company_trains"]])
def test_12_6_short_of_money_a_train_from_another_company(options: list[str]) -> None:
    """SP ($80) must buy a train; the cheapest bank train costs $100; MP (same president) has a
    2-train. Printed: without the resources SP must buy the bank's train; the site lets SP buy
    MP's with its treasury alone."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"A": 30})
        setup.give_train("MP", "2")
        setup.cash("SP", 80)
    game = at_buy(prepare, options)
    cash = player(game, "A").cash
    offered = [c for c in choices_of(game, "buy_train") if c.get("from") == "MP"]
    if options:
        assert offered == [{"train": "2-0", "from": "MP", "min_price": 1, "max_price": 80}]
        refuse(game, "buy_train", "SP", r"SP has only \$80", train="2-0", price=81)
        play(game, "buy_train", "SP", train="2-0", price=80)
        # The president adds nothing to such a purchase.
        a, sp, mp = player(game, "A"), corp(game, "SP"), corp(game, "MP")
        assert a.cash == cash and sp.cash == 0 and mp.cash == 80
        assert [t.id for t in sp.trains] == ["2-0"]
    else:
        assert offered == []
        refuse(game, "buy_train", "SP", r"in this compulsory purchase the train must come from the bank",
               train="2-0", price=80)


def test_12_6_site_company_train_only_before_the_president_sells_and_with_money() -> None:
    """SP ($50) must buy a train; A (its president, $0) holds 20% of MP, whose 2-train is for sale."""
    options = ["site_emergency_company_trains", "site_train_prices"]
    game = forced_sale_game(options=options, extra=lambda s: s.give_train("MP", "2"))
    assert [c for c in choices_of(game, "buy_train") if c.get("from") == "MP"] == [
        {"train": "2-0", "from": "MP", "min_price": 1, "max_price": 50}]
    play(game, "sell_shares", "A", shares=["MP_3"], percent=10)
    # Once the president has sold shares, the train must come from the bank.
    assert [c["train"] for c in choices_of(game, "buy_train")] == ["2-1"]
    refuse(game, "buy_train", "SP", r"in this compulsory purchase the train must come from the bank",
           train="2-0", price=50)
    # A company with $0 cannot buy another company's train either.
    game = forced_sale_game(options=options, extra=lambda s: (s.give_train("MP", "2"), s.cash("SP", 0)))
    assert [c for c in choices_of(game, "buy_train") if c.get("from") == "MP"] == []
    refuse(game, "buy_train", "SP", r"in this compulsory purchase the train must come from the bank",
           train="2-0", price=1)


# --- an emergency sale of a president's certificate --------------------------------------------------
def test_12_6_a_president_s_certificate_worth_more_than_the_shortfall_is_sold_whole() -> None:
    """A, SP's president with the BB-B&C's $10, must find $40; A's only other holding is MP's president's
    certificate (20%, $90 a share), and B holds 30% of MP to take the presidency over."""
    def extra(setup: Setup) -> None:
        state = setup.state
        mp = state.corporation("MP")
        for share in mp.shares_of(state.player("A")):
            state.ledger.move(share, mp)
        setup.give_share("MP", "B")
        game_mp = state.corporation("MP")
        state.ledger.move(game_mp.president_share(), state.player("A"))
    game = forced_sale_game(extra=extra)
    sales = [(c["shares"], c["percent"]) for c in choices_of(game, "sell_shares")]
    assert (["MP_0"], 20) in sales
    play(game, "sell_shares", "A", shares=["MP_0"], percent=20)
    assert player(game, "A").cash == 10 + 180 and corp(game, "MP").president() is player(game, "B")
    play(game, "buy_train", "SP", train="2-0", price=100)


def test_12_6_no_further_certificate_once_the_cash_is_raised() -> None:
    game = forced_sale_game()
    # A is $40 short: one $90 share covers it, so a sale of two certificates is refused.
    refuse(game, "sell_shares", "A", r"sell only as many certificates as needed: \$40 is missing, and this sale "
           r"raises it without one of its certificates \(12.6\)", shares=["MP_2", "MP_3"], percent=20)

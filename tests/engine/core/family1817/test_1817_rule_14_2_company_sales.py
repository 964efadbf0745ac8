"""Rule 14.2: liquidations, acquisitions and friendly sales (acquired stations: 14.3's tests)."""

from __future__ import annotations

from family_helpers import (
    act,
    col,
    corp,
    legal_moves,
    new,
    player,
    price,
    refused,
    start,
    three_companies,
    to_acquisition_round,
    to_merger_round,
)

from engine.core.entities import Company
from engine.core.family1817.game import SITE_SALE_LOANS_OVER_LIMIT
from engine.core.family1817.market import area, liquidate


def companies() -> object:
    """Ann: A (2 shares, $70); Bob: B (2 shares, $60); Cy: C (5 shares, $80), Ann holds a share
    of C. Each buys a train and runs once; the merger round begins."""
    game = three_companies()
    act(game, "buy_shares", "a", shares=["C_1"])
    to_merger_round(game)
    return game


def ann_presides_a_and_c() -> object:
    """Ann starts A (2 shares, $70) and C (5 shares, $80), Bob B ($60); the merger round begins."""
    game = new(3)
    start(game, "a", "A", 70)
    start(game, "b", "B", 60)
    act(game, "pass", "c")
    start(game, "a", "C", 80)
    to_merger_round(game)
    return game


def a_liquidated_with_two_loans() -> object:
    """`companies()`, then A ($150, two loans) is put into liquidation in the merger round."""
    game = companies()
    a = corp(game, "A")
    game.loans.held["A"] = 2
    a.cash = 150
    liquidate(game, a, "test")
    return game


def test_14_2_1_a_liquidation_nobody_bids_for_goes_to_the_bank_and_the_president_repays() -> None:
    game = a_liquidated_with_two_loans()
    a = corp(game, "A")
    ann = player(game, "a").cash
    to_acquisition_round(game)
    assert a.cash == 0 and game.loans.count("A") == 0  # treasury and loans set aside
    # bidding starts at the president's left: Bob, then Cy (Ann has no other company to bid with)
    assert [m["entity"] for m in legal_moves(game)][0] == "b"
    act(game, "pass", "b")
    act(game, "pass", "c")
    assert player(game, "a").cash == ann - 50  # $150 set aside repays one loan and half of the other
    assert not corp(game, "A").ipoed and "A" not in game.market.position


def test_14_2_1_a_liquidation_bid_repays_the_loans_and_the_rest_goes_to_shareholders() -> None:
    game = companies()
    a = corp(game, "A")
    game.loans.held["A"] = 1
    a.cash = 40
    trains = len(a.trains)
    liquidate(game, a, "test")
    to_acquisition_round(game)
    ann = player(game, "a").cash
    refused(game, "bid", "b", "multiple of \\$10", corporation="A", price=75)
    act(game, "bid", "b", corporation="A", price=100)  # for B, Bob's one company
    act(game, "pass", "c")
    act(game, "pass", "B")  # the buyer takes no loan
    b = corp(game, "B")
    assert len(b.trains) == 1 + trains and ("A1", 0) in game.board.token_hexes("B")
    # $40 + $100 repays the $100 loan; $40 over, $20 for each of A's two shares, to Ann
    assert player(game, "a").cash == ann + 40


def test_14_2_2_an_acquisition_gets_treasury_and_loans_and_pays_shareholders() -> None:
    game = companies()
    a = corp(game, "A")
    game.market.move("A", "left", 20)
    assert area(game, a) == "acquisition"
    game.loans.held["A"] = 1
    a.cash = 30
    to_acquisition_round(game)
    ann = player(game, "a").cash
    b_col = col(game, "B")
    refused(game, "bid", "b", "from \\$10", corporation="A", price=0)
    act(game, "bid", "b", corporation="A", price=60)
    act(game, "pass", "c")  # Bob's B buys A: it gets A's $30 and its loan
    b = corp(game, "B")
    # A's loan, and one B took to pay: its $20 and A's $30 fall short of $60. B, at its most
    # loans and with $90, can neither take nor repay one: the sale settles without asking it,
    # the kept acquired loan moving its price two steps back (as did the loan it took).
    assert game.loans.count("B") == 2 and b.cash == 20 + 30 + 100 - 60
    assert col(game, "B") == b_col - 2 - 2
    assert player(game, "a").cash == ann + 60  # $60 / 2 shares = $30 a share, Ann had both
    assert not corp(game, "A").ipoed


def test_14_2_3_a_friendly_sale_is_offered_by_the_president_at_market_value_or_more() -> None:
    game = companies()
    to_acquisition_round(game)
    # reverse operating order: the cheapest first; each president offers or passes
    offers = []
    while game.round.name == "Acquisition Round":
        move = legal_moves(game)[0]
        if move["type"] != "assign":
            break
        offers.append(move["choices"][0]["target"])
        if move["choices"][0]["target"] == "B":
            act(game, "assign", "b", target="B", target_type="corporation")
            break
        act(game, "pass", move["entity"])
    assert offers[0] == "B"  # the lowest price operates last
    floor = price(game, "B") * 2
    bid_move = legal_moves(game)[0]
    assert bid_move["entity"] == "c" and bid_move["choices"][0]["min_price"] == floor


def test_14_2_the_president_of_the_company_for_sale_raises_by_at_most_10() -> None:
    game = ann_presides_a_and_c()
    game.market.move("A", "left", 20)
    corp(game, "A").cash = 0
    to_acquisition_round(game)
    act(game, "bid", "b", corporation="A", price=50)  # Cy has no company and is passed over
    refused(game, "bid", "a", "from \\$60 to \\$60", corporation="A", price=70)
    act(game, "bid", "a", corporation="A", price=60)
    assert legal_moves(game)[0]["entity"] == "b"


def test_14_2_companies_in_liquidation_or_acquisition_may_not_buy() -> None:
    game = companies()
    game.market.move("A", "left", 20)
    liquidate(game, corp(game, "B"), "test")
    to_acquisition_round(game)
    # B is liquidated first: Ann's A, in acquisition, cannot bid for it
    assert all(m["entity"] != "a" for m in legal_moves(game) if m["type"] == "bid")


def test_14_2_2_the_buyer_takes_loans_first_then_repays_acquired_loans() -> None:
    game = companies()
    c = corp(game, "C")
    game.market.move("A", "left", 20)  # A in acquisition with two loans and $250
    game.loans.held["A"] = 2
    corp(game, "A").cash = 250
    to_acquisition_round(game)
    act(game, "pass", "b")
    act(game, "bid", "c", corporation="A", price=10)  # A's station in A1, where C has one, goes back
    c_col = col(game, "C")
    # C (5 shares, 2 loans now) may take more loans: that comes first, until it passes
    assert sorted(m["type"] for m in legal_moves(game)) == ["pass", "take_loan"]
    refused(game, "payoff_loan", "C", "not possible now: C is to buy companies")
    act(game, "take_loan", "C")
    act(game, "pass", "C")
    # then it may repay the two loans it acquired, without moving its price
    assert sorted(m["type"] for m in legal_moves(game)) == ["pass", "payoff_loan"]
    act(game, "payoff_loan", "C")
    assert game.round.sale is not None and game.round.sale.target == "A"  # A is not settled yet
    act(game, "pass", "C")  # one acquired loan kept: two steps back
    assert game.loans.count("C") == 2 and col(game, "C") == c_col - 2 - 2
    assert not corp(game, "A").ipoed and c.cash > 0


def test_14_2_1_set_aside_loans_stay_out_of_the_bank_until_the_sale_settles() -> None:
    game = a_liquidated_with_two_loans()
    left = game.loans.available()
    to_acquisition_round(game)
    assert game.loans.count("A") == 0 and game.loans.available() == left  # set aside, still owed
    act(game, "pass", "b")
    act(game, "pass", "c")  # the bank takes A; the set-aside treasury and Ann repay both loans
    assert game.loans.available() == left + 2


def test_14_2_3_treasury_shares_are_paid_at_once_and_returned_as_the_company_leaves() -> None:
    game = companies()
    c = corp(game, "C")
    treasury = [s for s in c.shares_of(c) if s.percent > 0]
    assert len(treasury) == 2  # of C's five shares Cy holds two, Ann one
    game.corporations["A"].cash = 1000
    to_acquisition_round(game)
    while legal_moves(game)[0]["choices"][0]["target"] != "C":
        act(game, "pass", legal_moves(game)[0]["entity"])
    act(game, "assign", "c", target="C", target_type="corporation")
    floor = legal_moves(game)[0]["choices"][0]["min_price"]
    act(game, "bid", "a", corporation="C", price=floor)
    c_cash = c.cash
    act(game, "pass", "b")
    a = corp(game, "A")
    # A names itself the buyer (its only company); A holds C's treasury and the two shares' value
    assert a.cash == 1000 + c_cash + 2 * price(game, "C") - floor
    assert [s for s in c.shares_of(c) if s.percent > 0] == treasury  # still C's until it settles


def test_14_2_1_a_company_without_president_its_unpaid_loans_go_back_to_the_bank() -> None:
    game = companies()
    ann = player(game, "a")
    a = corp(game, "A")
    game.loans.held["A"] = 2
    a.cash = 50
    ann.cash = 0
    game.demand(ann, 10_000, game.bank, "a test debt")
    while legal_moves(game)[0]["type"] == "sell_shares":
        choice = legal_moves(game)[0]["choices"][0]
        act(game, "sell_shares", "a", shares=choice["shares"], percent=choice["percent"])
    act(game, "bankrupt", "a")
    assert area(game, corp(game, "A")) == "liquidation" and corp(game, "A").president() is None
    to_acquisition_round(game)
    assert legal_moves(game)[0]["entity"] == "b"  # from the left of the bankrupt former president
    act(game, "pass", "b")
    act(game, "pass", "c")
    assert game.loans.count("A") == 0 and game.loans.available() == 20 - sum(game.loans.held.values())
    assert not corp(game, "A").ipoed


def test_9_a_buyer_needs_room_for_the_loans_it_would_take_over() -> None:
    game = companies()
    game.market.move("A", "left", 20)  # A in acquisition, with one loan
    game.loans.held["A"] = 1
    game.loans.held["B"] = 2  # B (2 shares) holds its most: A's loan would be a third
    to_acquisition_round(game)
    # Bob's only company cannot take A's loan, so Bob is passed over; Cy's C (5 shares) may bid
    moves = legal_moves(game)
    assert moves[0]["entity"] == "c" and moves[0]["type"] == "bid"
    refused(game, "bid", "b", "it is Cy.s turn", corporation="A", price=10)


def test_9_site_a_buyer_over_its_loan_limit_repays_the_excess_at_once() -> None:
    """`site_sale_loans_over_limit`: B (2 shares, one loan) may buy A with A's two loans; its
    bids count the $100 to repay the third loan against it, which it repays as the sale settles
    (no price move); the other acquired loan it cannot repay moves its price two steps back."""
    game = companies()
    game.options.add(SITE_SALE_LOANS_OVER_LIMIT)
    a, b = corp(game, "A"), corp(game, "B")
    game.market.move("A", "left", 20)
    game.loans.held["A"] = 2
    game.loans.held["B"] = 1
    a.cash, b.cash = 30, 150
    to_acquisition_round(game)
    b_col = col(game, "B")
    bid = next(m for m in legal_moves(game) if m["type"] == "bid")
    assert bid["entity"] == "b" and bid["choices"][0]["max_price"] == 150 + 30 - 100
    refused(game, "bid", "b", "from \\$10 to \\$80", corporation="A", price=90)
    act(game, "bid", "b", corporation="A", price=60)
    act(game, "pass", "c")
    assert game.loans.count("B") == 2 and corp(game, "B").cash == 150 + 30 - 60 - 100
    assert col(game, "B") == b_col - 2 and not corp(game, "A").ipoed


def test_14_2_3_a_company_nobody_could_buy_is_not_offered_for_a_friendly_sale() -> None:
    game = companies()
    # No company has money, and none has room for another's loans: nothing can be sold
    for corp_id in ("A", "B", "C"):
        corp(game, corp_id).cash = 0
        game.loans.held[corp_id] = game.max_loans(corp(game, corp_id))
    to_acquisition_round(game)
    assert game.round.name != "Acquisition Round"  # no president was asked

    game = companies()
    corp(game, "A").cash = corp(game, "C").cash = 0
    game.loans.held.update({"A": 2, "B": 1, "C": 4})
    corp(game, "B").cash = 200
    to_acquisition_round(game)
    # C may pay for B with B's $200; B could pay $200 less $100 for A's loan beyond its room,
    # short of A's market value, and far less for C: only B is offered
    assert friendly_offers(game) == ["B"]


def friendly_offers(game: object) -> list[str]:
    offered = []
    while game.round.name == "Acquisition Round" and legal_moves(game)[0]["type"] == "assign":
        move = legal_moves(game)[0]
        offered.append(move["choices"][0]["target"])
        act(game, "pass", move["entity"])
    return offered


def test_14_2_3_a_friendly_sale_is_offered_when_a_buyer_could_pay_counting_loans_over_its_room() -> None:
    def offered_with(a_cash: int) -> list[str]:
        game = companies()
        c = corp(game, "C")
        game.loans.held.update({"A": 1, "B": 2, "C": 4})
        c.cash = corp(game, "B").cash = 0
        corp(game, "A").cash = a_cash
        to_acquisition_round(game)
        return friendly_offers(game)

    # A could pay its cash and C's two treasury shares (2 x $80 or so), less $100 for each of
    # C's four loans beyond the one more A may hold: Cy is asked when that reaches C's market
    # value (5 x $80 or so), though A could not hold C's loans to buy it (9)
    assert "C" in offered_with(1000)
    assert "C" not in offered_with(500)


def test_14_2_1_the_next_sale_opens_before_a_cash_crisis_of_the_last_one_is_settled() -> None:
    game = companies()
    a, b = corp(game, "A"), corp(game, "B")
    game.loans.held.update({"A": 1, "B": 2})
    a.cash, b.cash = 50, 0
    liquidate(game, a, "test")
    liquidate(game, b, "test")
    player(game, "b").cash = 30
    to_acquisition_round(game)
    assert game.round.sale.target == "B"  # reverse operating order: B ($60) before A ($70)
    act(game, "pass", "c")  # Ann's only company is in liquidation: she cannot bid
    # Bob repays B's two loans: he pays $200 with $30 and is $170 short, in a cash crisis; A's
    # treasury and loan are set aside already (as on the site)
    assert player(game, "b").cash == 30 - 200 and game.cash_crisis
    assert game.round.sale.target == "A" and a.cash == 0 and game.loans.count("A") == 0
    assert [m["type"] for m in legal_moves(game)] == ["bankrupt"]


def test_14_2_3_the_friendly_minimum_is_the_market_value_rounded_up_to_a_multiple_of_10() -> None:
    game = companies()
    game.market.remove("C")
    game.market.place("C", next(c for c in game.market.cells.values() if c.price == 55 and not c.types))
    corp(game, "A").cash = 1000
    to_acquisition_round(game)
    while legal_moves(game)[0]["choices"][0]["target"] != "C":
        act(game, "pass", legal_moves(game)[0]["entity"])
    act(game, "assign", "c", target="C", target_type="corporation")
    # 5 shares at $55 are worth $275: bids are multiples of $10, the first at least $280
    assert legal_moves(game)[0]["choices"][0]["min_price"] == 280
    refused(game, "bid", "a", "from \\$280", corporation="C", price=275)
    act(game, "bid", "a", corporation="C", price=280)


def test_14_2_1_privates_of_a_liquidation_nobody_buys_close_with_it() -> None:
    """A company started again later holds no private of its earlier life (18USA s8403 at 424)."""
    game = companies()
    a = corp(game, "A")
    private = Company(id="M1", name="Mine", value=30, owner=a)
    game.companies[private.id] = private
    liquidate(game, a, "test")
    to_acquisition_round(game)
    act(game, "pass", "b")
    act(game, "pass", "c")
    assert not a.ipoed
    assert private.closed


def test_14_2_3_a_bid_made_when_everyone_else_is_out_wins_at_once() -> None:
    """The president bids last for their own company, everyone else having passed: the auction
    is over with that bid and the bidder's one company able to pay buys (18USA 109372 1109)."""
    game = ann_presides_a_and_c()
    corp(game, "C").cash = 1000
    to_acquisition_round(game)
    while legal_moves(game)[0]["choices"][0]["target"] != "A":
        act(game, "pass", legal_moves(game)[0]["entity"])
    act(game, "assign", "a", target="A", target_type="corporation")
    a_trains = list(corp(game, "A").trains)
    act(game, "pass", "b")  # Cy has no company: Ann is the last bidder
    floor = legal_moves(game)[0]["choices"][0]["min_price"]
    act(game, "bid", "a", corporation="A", price=floor)
    assert game.round.sale is None or game.round.sale.buyer == "C"
    assert all(train in corp(game, "C").trains for train in a_trains) and not corp(game, "A").trains
def test_14_2_sales_follow_the_reverse_operating_order_of_the_rounds_start() -> None:
    """B buys A and keeps A's loan: its price falls two steps, below C's. The friendly sales
    still offer C first, then B, as the operating order stood when the round began."""
    game = companies()
    a, b, c = corp(game, "A"), corp(game, "B"), corp(game, "C")
    game.market.move("A", "left", 20)
    game.loans.held["A"] = 1
    a.cash, b.cash, c.cash = 0, 50, 1000
    game.market.move("B", "right", 12 - col(game, "B"))
    game.market.move("C", "right", 11 - col(game, "C"))
    to_acquisition_round(game)
    act(game, "bid", "b", corporation="A", price=10)
    act(game, "pass", "c")
    act(game, "pass", "B")  # no loan; B cannot repay A's ($40): two steps back, below C
    assert col(game, "B") == 10 < col(game, "C") == 11
    assert friendly_offers(game) == ["C", "B"]


def test_14_2_the_last_bidder_left_buys_at_once_with_their_one_company() -> None:
    """Ann presides A (in liquidation) and B. Cy passes; Ann, last in the order, bids: nobody
    is left to outbid her and B is the one company she may buy with, so B buys A at once, as on
    the site (s8600 at 555), without asking her to name it."""
    game = companies()
    a, b = corp(game, "A"), corp(game, "B")
    game.ledger.move(b.president_share(), player(game, "a"))
    trains = len(a.trains) + len(b.trains)
    liquidate(game, a, "test")
    to_acquisition_round(game)
    act(game, "pass", "c")  # Bob, with no company now, is passed over
    act(game, "bid", "a", corporation="A", price=10)
    assert "merge" not in {m["type"] for m in legal_moves(game)}
    assert len(corp(game, "B").trains) == trains and "B buys A for $10" in game.log

"""Rule 11: the family's stock round — selling (11.1), short sales (11.2), buying and closing
shorts (11.3), limits (11.4), acting for a company (11.7) and the end of the round (11.8)."""

from __future__ import annotations

import pytest
from family_helpers import (
    act,
    col,
    corp,
    legal_moves,
    moves_of,
    new,
    pass_stock_round,
    player,
    price,
    refused,
    start,
    to_next_stock_round,
)

from engine.core.entities import Player
from engine.core.family1817.game import (
    SITE_CLOSE_SHORT_AT_LIMIT,
    SITE_DEALING_DUMPS,
    SITE_LIQUIDATION_PRESIDENT_ASKED,
)
from engine.core.family1817.market import area, end_of_stock_round_moves, liquidate
from engine.core.family1817.merger_round import dump_president_certificate
from engine.core.family1817.shorts import short_count


def five_share_company_after_a_round(options: list[str] | None = None) -> object:
    """Ann starts C (5 shares) at $60 and Bob buys one; C has operated once; a new stock round."""
    game = new(options=options)
    start(game, "a", "C", 60)
    act(game, "buy_shares", "b", shares=["C_1"])
    to_next_stock_round(game)
    return game


def bob_sells_and_shorts_c(game: object) -> Player:
    """Bob, put on turn, sells his share of C and sells C short; C operates again, and the next
    stock round begins."""
    bob = player(game, "b")
    game.round.current_index = game.players.index(bob)
    act(game, "sell_shares", "b", shares=["C_1"])
    act(game, "short", "b", corporation="C")
    to_next_stock_round(game)
    return bob


def test_11_1_sales_do_not_move_the_price() -> None:
    game = five_share_company_after_a_round()
    before = price(game, "C")
    turn = game.round.current(game).id
    if turn != "b":
        act(game, "pass", turn)
    act(game, "sell_shares", "b", shares=["C_1"])
    assert price(game, "C") == before and corp(game, "C").percent_owned_by(game.pool) == 20


def test_11_1_no_sales_of_a_2_share_company_nor_in_the_round_it_was_formed() -> None:
    game = new()
    start(game, "a", "A", 60)
    act(game, "pass", "b")
    refused(game, "sell_shares", "a", "2-share company", shares=["A_0"])
    start(game, "a", "C", 60)
    act(game, "buy_shares", "b", shares=["C_1"])
    act(game, "pass", "a")
    refused(game, "sell_shares", "b", "formed this stock round", shares=["C_1"])


def test_11_1_no_sales_in_liquidation_or_acquisition() -> None:
    game = five_share_company_after_a_round()
    liquidate(game, corp(game, "C"), "test")
    turn = game.round.current(game).id
    refused(game, "sell_shares", "b", "in liquidation" if turn == "b" else "turn", shares=["C_1"])


def test_11_2_a_short_sale_pays_the_price_and_leaves_a_share_in_the_market() -> None:
    game = five_share_company_after_a_round()
    if game.round.current(game).id == "b":
        act(game, "pass", "b")
    game.round.current_index = game.players.index(player(game, "b"))  # Bob's turn
    act(game, "sell_shares", "b", shares=["C_1"])
    game.round.end_turn(game)
    game.round.current_index = game.players.index(player(game, "b"))
    cash = player(game, "b").cash
    # Bob holds no share of C now, but sold it this round: he may still short, then not buy it
    act(game, "short", "b", corporation="C")
    assert player(game, "b").cash == cash + price(game, "C")
    assert corp(game, "C").percent_owned_by(player(game, "b")) == -20
    assert [s.id for s in corp(game, "C").shares if s.percent < 0] == ["C_11"]
    assert corp(game, "C").share_by_id("C_10").owner is game.pool
    refused(game, "short", "b", "one share may be sold short each turn", corporation="C")
    refused(game, "buy_shares", "b", "sold C this round", shares=["C_10"])


@pytest.mark.parametrize("site", [False, True])
def test_11_a_sale_after_a_short_only_with_the_sites_reading(site: bool) -> None:
    """Rule 11: sell, then sell short, then buy; the site lets a player sell after shorting."""
    game = new(3, options=["site_sell_after_short"] if site else None)
    start(game, "a", "C", 60)
    start(game, "b", "D", 60)
    act(game, "buy_shares", "c", shares=["D_1"])
    to_next_stock_round(game)
    game.round.current_index = game.players.index(player(game, "c"))  # Cy holds D_1, no C
    act(game, "short", "c", corporation="C")
    if site:
        act(game, "sell_shares", "c", shares=["D_1"])
        assert corp(game, "D").share_by_id("D_1").owner is game.pool
    else:
        refused(game, "sell_shares", "c", "sold before selling short", shares=["D_1"])


def test_11_2_who_may_not_sell_short() -> None:
    game = five_share_company_after_a_round()
    game.round.current_index = game.players.index(player(game, "a"))
    refused(game, "short", "a", "holds shares of C", corporation="C")
    start(game, "a", "D", 60)
    game.round.current_index = game.players.index(player(game, "b"))
    refused(game, "short", "b", "formed this stock round", corporation="D")
    start(game, "b", "A", 60)
    act(game, "pass", "a")
    refused(game, "short", "b", "2-share company", corporation="A")


def test_11_2_a_company_is_shorted_at_most_once_per_share_and_shorts_do_not_count() -> None:
    game = five_share_company_after_a_round()
    bob = player(game, "b")
    for _ in range(5):
        if game.round.current(game) is not bob:
            act(game, "pass", game.round.current(game).id)
        if corp(game, "C").percent_owned_by(bob) > 0:
            act(game, "sell_shares", "b", shares=["C_1"])
        act(game, "short", "b", corporation="C")
        act(game, "pass", "b")
    assert short_count(corp(game, "C")) == 5 and corp(game, "C").percent_owned_by(bob) == -100
    assert game.certificate_count(bob) == 0
    act(game, "pass", "a")
    refused(game, "short", "b", "sold short 5 times", corporation="C")


def test_11_3_buying_a_share_closes_a_short() -> None:
    game = five_share_company_after_a_round()
    bob = bob_sells_and_shorts_c(game)
    # the next stock round: Bob buys a share of C and his short and that share leave play
    game.round.current_index = game.players.index(bob)
    market_share = next(s.id for s in game.ledger.holding_order(corp(game, "C"), game.pool))
    cash = bob.cash
    act(game, "buy_shares", "b", shares=[market_share])
    assert bob.cash == cash - price(game, "C")
    assert corp(game, "C").percent_owned_by(bob) == 0 and short_count(corp(game, "C")) == 0
    assert sum(s.percent for s in corp(game, "C").shares) == 100


@pytest.mark.parametrize("site", [False, True])
def test_11_4_at_the_certificate_limit_a_share_closing_a_short_only_with_the_sites_reading(site: bool) -> None:
    game = five_share_company_after_a_round([SITE_CLOSE_SHORT_AT_LIMIT] if site else None)
    bob = bob_sells_and_shorts_c(game)
    start(game, "a", "D", 60)
    act(game, "buy_shares", "b", shares=["D_1"])
    game.cert_limit = game.certificate_count(bob)  # Bob is at the limit with his share of D
    act(game, "pass", "a")
    market_share = next(s.id for s in game.ledger.holding_order(corp(game, "C"), game.pool))
    if site:  # the share and the short leave play together: no certificate is added
        act(game, "buy_shares", "b", shares=[market_share])
        assert short_count(corp(game, "C")) == 0 and game.certificate_count(bob) == game.cert_limit
    else:
        refused(game, "buy_shares", "b", "certificate limit", shares=[market_share])


def test_11_3_no_buying_in_liquidation() -> None:
    game = five_share_company_after_a_round()
    liquidate(game, corp(game, "C"), "test")
    game.round.current_index = game.players.index(player(game, "b"))
    assert area(game, corp(game, "C")) == "liquidation"
    refused(game, "buy_shares", "b", "in liquidation", shares=["C_2"])


def test_11_4_at_most_three_shares_of_a_5_share_company() -> None:
    game = new()
    start(game, "a", "C", 50)
    act(game, "pass", "b")
    act(game, "buy_shares", "a", shares=["C_1"])  # 60%
    act(game, "pass", "b")
    refused(game, "buy_shares", "a", "at most 60%", shares=["C_2"])


def test_11_7_a_company_takes_loans_then_buys_its_own_shares_and_the_turn_ends() -> None:
    game = five_share_company_after_a_round()
    ann, bob = player(game, "a"), player(game, "b")
    game.round.current_index = game.players.index(bob)
    act(game, "sell_shares", "b", shares=["C_1"])
    act(game, "pass", "b")
    game.round.current_index = game.players.index(ann)
    start_price = price(game, "C")
    act(game, "take_loan", "C")
    assert price(game, "C") < start_price and game.round.current(game) is ann
    refused(game, "buy_shares", "a", "acting for C", shares=["C_2"])
    cash = corp(game, "C").cash
    act(game, "buy_shares", "C", shares=["C_1"], percent=20)
    assert corp(game, "C").cash == cash - price(game, "C")
    assert corp(game, "C").share_by_id("C_1").owner is corp(game, "C")
    assert game.round.current(game).id == "b"  # the company's purchase ended Ann's turn


def test_11_7_acting_for_oneself_excludes_acting_for_a_company() -> None:
    game = five_share_company_after_a_round()
    ann = player(game, "a")
    game.round.current_index = game.players.index(ann)
    moves = moves_of(game, "take_loan")
    assert moves and moves[0]["entity"] == "C"
    start(game, "a", "D", 60)  # Ann acts for herself: the turn is over
    assert game.round.current(game).id != "a"


def test_11_8_end_of_round_moves_sold_out_up_and_two_back_per_market_share() -> None:
    game = new()
    start(game, "a", "C", 60)  # 40%
    act(game, "buy_shares", "b", shares=["C_1"])
    act(game, "buy_shares", "a", shares=["C_2"])
    act(game, "buy_shares", "b", shares=["C_3"])
    start_col = col(game, "C")
    end_of_stock_round_moves(game)
    assert col(game, "C") == start_col + 1  # players hold all of C: one step ahead
    game2 = five_share_company_after_a_round()
    bob = player(game2, "b")
    game2.round.current_index = game2.players.index(bob)
    act(game2, "sell_shares", "b", shares=["C_1"])
    before = col(game2, "C")
    pass_stock_round(game2)
    assert col(game2, "C") == before - 2


def test_11_8_after_a_dumped_certificate_is_bought_back_the_site_counts_its_books() -> None:
    """`SITE_DEALING_DUMPS`: Ann sold half of E's president's certificate into the market (the
    site's dealing dump). Bob buys it back and hands two shares to the market for it. The site's
    books keep the unsold half with Ann and never see the two shares handed back, so at the
    round's end E counts as wholly held by players (one step ahead) with 70% in their hands and
    30% in its treasury, and the market's two shares bought since count nothing there."""
    game = new(options=[SITE_DEALING_DUMPS])
    start(game, "a", "E", 60)  # 10 shares, Ann's certificate 20%
    act(game, "buy_shares", "b", shares=["E_1"])
    company = corp(game, "E")
    dump_president_certificate(game, player(game, "a"), company, ["E_0"], 10)
    to_next_stock_round(game)
    act(game, "pass", "a")
    act(game, "buy_shares", "b", shares=["E_2"])
    act(game, "buy_shares", "a", shares=["E_3"])
    act(game, "buy_shares", "b", shares=["E_0"])  # the certificate, from the market
    assert [game.describe(company.share_by_id(s).owner) for s in ("E_0", "E_1", "E_2")] == ["Bob", "Market", "Market"]
    for who, share in (("a", "E_1"), ("b", "E_4"), ("a", "E_2"), ("b", "E_5")):
        act(game, "buy_shares", who, shares=[share])
    held = sum(s.percent for s in company.shares if isinstance(s.owner, Player))
    assert (held, company.percent_owned_by(company)) == (70, 30)
    before = col(game, "E")
    pass_stock_round(game)
    assert col(game, "E") == before + 1


def test_11_8_priority_goes_left_of_the_last_player_who_acted_for_a_company() -> None:
    game = five_share_company_after_a_round()
    ann = player(game, "a")
    game.round.current_index = game.players.index(ann)
    act(game, "take_loan", "C")
    act(game, "pass", "a")
    pass_stock_round(game)
    assert game.priority_player is player(game, "b")


def test_11_6_a_company_that_still_owes_stations_is_liquidated_at_the_end_of_the_round() -> None:
    game = new()
    start(game, "a", "C", 60)
    game.tokens_owed["C"] = 1
    corp(game, "C").cash = 0
    act(game, "pass", "b")
    act(game, "take_loan", "C")  # the loan's money pays for the station first
    assert corp(game, "C").cash == 50 and corp(game, "C").token_count == 2 and not game.tokens_owed
    act(game, "pass", "a")
    start(game, "b", "D", 60)
    game.tokens_owed["D"] = 1
    pass_stock_round(game)
    unpaid = [line for line in game.log if "could not pay for its stations" in line]
    assert unpaid == ["D goes into liquidation (it could not pay for its stations by the end of the stock round)"]


def test_11_6_stations_owed_are_bought_together_once_all_can_be_paid() -> None:
    game = new()
    start(game, "a", "C", 60)
    game.tokens_owed["C"] = 3
    corp(game, "C").cash = 60  # one station's price, not three
    tokens = corp(game, "C").token_count
    game.buy_owed_tokens(corp(game, "C"))
    assert corp(game, "C").cash == 60 and corp(game, "C").token_count == tokens and game.tokens_owed["C"] == 3
    act(game, "pass", "b")
    act(game, "take_loan", "C")  # $160: the three stations ($150) are bought at once
    assert corp(game, "C").cash == 10 and corp(game, "C").token_count == tokens + 3 and not game.tokens_owed


def test_11_6_a_share_bought_from_the_treasury_first_pays_for_stations_owed() -> None:
    game = new()
    start(game, "a", "C", 60)
    act(game, "pass", "b")
    game.tokens_owed["C"] = 1
    corp(game, "C").cash = 0
    tokens = corp(game, "C").token_count
    act(game, "buy_shares", "a", shares=["C_1"])
    assert corp(game, "C").cash == 10 and corp(game, "C").token_count == tokens + 1 and not game.tokens_owed


def test_11_6_a_title_may_spare_a_company_owing_stations_from_liquidation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new()
    monkeypatch.setattr(game, "liquidates_for_unpaid_stations", lambda corporation: False)
    start(game, "a", "C", 60)
    game.tokens_owed["C"] = 1
    corp(game, "C").cash = 0
    pass_stock_round(game)
    assert not [line for line in game.log if "could not pay for its stations" in line]


@pytest.mark.parametrize("site", [False, True])
def test_11_the_president_of_a_company_in_liquidation_is_asked_only_on_the_site(site: bool) -> None:
    """Ann, without money, presides C in liquidation: she can do nothing. The printed rules pass
    her over (Bob's pass ends the round); `site_liquidation_president_asked` asks her."""
    game = five_share_company_after_a_round()
    if site:
        game.options.add(SITE_LIQUIDATION_PRESIDENT_ASKED)
    liquidate(game, corp(game, "C"), "test")
    ann, bob = player(game, "a"), player(game, "b")
    ann.cash = bob.cash = 0
    game.round.current_index = game.players.index(bob)
    act(game, "pass", "b")
    if site:
        assert game.round.name == "Stock Round" and game.round.current(game) is ann
        assert [m["type"] for m in legal_moves(game)] == ["pass"]
        act(game, "pass", "a")
    assert game.round.name != "Stock Round"

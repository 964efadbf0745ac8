"""Rule 14.1: conversions and mergers in the merger round, the share dealings after them
(14.1.3) and the loans and stations that follow, in both readings."""

from __future__ import annotations

from family_helpers import (
    act,
    corp,
    first_and_other,
    legal_moves,
    new,
    player,
    price,
    refused,
    start,
    to_acquisition_round,
    to_merger_round,
    to_next_stock_round,
    two_companies,
)

from engine.core.family1817.game import SITE_POST_CONVERSION
from engine.core.family1817.market import area, liquidate


def certs(game: object, company: str, who: str) -> list[int]:
    holder = game.player(who) if who in ("a", "b", "c") else corp(game, company) if who == "T" else game.pool
    return sorted(s.percent for s in corp(game, company).shares if s.owner is holder)


def ann_has_a_and_b(players: int = 2, options: list[str] | None = None) -> object:
    game = new(players, options)
    start(game, "a", "A", 70)
    for who in ("b", "c")[: players - 1]:
        act(game, "pass", who)
    start(game, "a", "B", 60)
    to_merger_round(game)
    return game


def ann_has_c_and_cy_d() -> object:
    """Ann starts C (5 shares) at $70, Bob passes, Cy starts D at $60."""
    game = new(3)
    start(game, "a", "C", 70)
    act(game, "pass", "b")
    start(game, "c", "D", 60)
    return game


def test_14_1_1_a_2_share_company_converts_to_5_shares() -> None:
    game = ann_has_a_and_b()
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    assert certs(game, first, "a") == [40] and certs(game, first, "T") == [20, 20, 20]
    assert game.company_size(corp(game, first)) == 5


def test_14_1_1_printed_order_loans_then_the_station_then_the_share_dealings() -> None:
    game = ann_has_a_and_b()
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    company = corp(game, first)
    tokens = company.token_count
    assert [m["type"] for m in legal_moves(game)] == ["take_loan", "pass"]  # loans first
    act(game, "take_loan", first)
    act(game, "pass", first)
    assert company.token_count == tokens + 1  # the station was bought for $50
    assert legal_moves(game)[0]["entity"] == "a"  # then Ann may buy from the treasury


def test_14_1_1_site_order_shares_then_loans_then_the_station_no_loan_taken_for_it() -> None:
    game = ann_has_a_and_b(options=[SITE_POST_CONVERSION])
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    company = corp(game, first)
    assert legal_moves(game)[0]["entity"] == "a"  # the share dealings first
    act(game, "pass", "a")
    if legal_moves(game)[0]["entity"] == "b":
        act(game, "pass", "b")
    company.cash = 10
    loans = game.loans.count(first)
    act(game, "pass", first)  # no loan by choice, and none is taken for the $50 station
    assert game.loans.count(first) == loans and company.cash == 10 and area(game, company) == "liquidation"


def test_14_2_1_a_company_liquidated_in_the_merger_round_is_sold_in_the_next_acquisition_round() -> None:
    game = ann_has_a_and_b()
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    corp(game, first).cash = 10
    act(game, "pass", first)
    assert area(game, corp(game, first)) == "liquidation"
    to_acquisition_round(game)
    # as on the site, the acquisition round sells only what was in liquidation as the merger
    # round began: the company waits, set aside neither its treasury nor its loans
    assert game.round.name != "Acquisition Round" or game.round.sale is None or game.round.sale.target != first
    assert corp(game, first).cash == 10 and first in game.market.position


def test_14_1_1_a_company_that_cannot_pay_for_its_station_is_liquidated() -> None:
    game = ann_has_a_and_b()
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    company = corp(game, first)
    company.cash = 10
    act(game, "pass", first)
    assert area(game, company) == "liquidation"


def test_14_1_2_two_2_share_companies_of_one_president_merge_into_a_5_share_company() -> None:
    game = ann_has_a_and_b()
    first, other = first_and_other(game, "A", "B")
    expected = game.market  # the sum of the prices, rounded down to a market price
    total = price(game, "A") + price(game, "B")
    trains = len(corp(game, "A").trains) + len(corp(game, "B").trains)
    cash = corp(game, "A").cash + corp(game, "B").cash
    act(game, "merge", first, corporation=other)
    survivor = corp(game, first)
    assert price(game, first) == max(c.price for c in expected.cells.values() if c.price <= total and not c.types)
    assert certs(game, first, "a") == [40] and certs(game, first, "T") == [20, 20, 20]
    assert len(survivor.trains) == trains and survivor.cash == cash
    assert sorted(coord for coord, _ in game.board.token_hexes(first)) == ["A1", "B2"]
    assert other not in game.market.position and not corp(game, other).ipoed


def test_14_1_2_different_presidents_the_initiator_buys_a_share() -> None:
    game = two_companies()
    to_merger_round(game)
    first, other = first_and_other(game, "A", "B")
    initiator = corp(game, first).president().id
    follower = corp(game, other).president().id
    cash = player(game, initiator).cash
    act(game, "merge", first, corporation=other)
    new_price = price(game, first)
    assert certs(game, first, initiator) == [40] and certs(game, first, follower) == [20]
    assert player(game, initiator).cash == cash - new_price and certs(game, first, "T") == [20, 20]


def test_14_1_2_two_5_share_companies_merge_one_for_one_at_the_average_price() -> None:
    game = new(2)
    start(game, "a", "C", 70)
    start(game, "b", "D", 60)
    act(game, "buy_shares", "a", shares=["D_1"])
    act(game, "buy_shares", "b", shares=["C_1"])
    to_merger_round(game)
    first, other = first_and_other(game, "C", "D")
    average = (price(game, "C") + price(game, "D")) // 2
    act(game, "merge", first, corporation=other)
    assert price(game, first) == max(c.price for c in game.market.cells.values() if c.price <= average and not c.types)
    assert game.company_size(corp(game, first)) == 10
    assert sum(s.percent for s in corp(game, first).shares) == 100
    # each held 3 shares: a tie, so the initiating company's president presides
    initiator = "a" if first == "C" else "b"
    assert corp(game, first).president().id == initiator
    assert sum(game.corporations[first].units(s.percent) for s in corp(game, first).shares
               if s.owner is player(game, "a")) == 3


def test_14_1_a_company_converts_or_merges_once_a_round_and_only_from_the_white_area() -> None:
    game = ann_has_a_and_b()
    first, other = first_and_other(game, "A", "B")
    act(game, "convert", first)
    while game.round.pending:
        move = next(m for m in legal_moves(game) if m["type"] == "pass")
        act(game, "pass", move["entity"], move.get("entity_type"))
    assert game.round.current_entity(game).id == other
    assert [m["type"] for m in legal_moves(game)] == ["convert", "pass"]  # no merger with a converted company
    refused(game, "merge", other, "not two companies of 2 or of 5 shares", corporation=first)
    liquidate(game, corp(game, other), "test")
    refused(game, "convert", other, "is in liquidation or acquisition")


def test_14_1_3_the_president_buys_any_number_then_each_player_one() -> None:
    game = new(3)
    start(game, "a", "C", 70)
    act(game, "pass", "b")
    act(game, "pass", "c")
    to_merger_round(game)
    act(game, "convert", "C")  # to 10 shares: Ann's president's certificate is now 20%
    corp(game, "C").cash = 1000
    act(game, "pass", "C")  # no loans; the two stations are bought
    shares = [s.id for s in game.ledger.holding_order(corp(game, "C"), corp(game, "C"))]
    for share in shares[:3]:
        act(game, "buy_shares", "a", shares=[share])  # the president may buy several
    assert legal_moves(game)[0]["entity"] == "a"
    act(game, "pass", "a")
    act(game, "buy_shares", "b", shares=[shares[3]])  # the next player: one share, then the next
    assert legal_moves(game)[0]["entity"] == "c"
    act(game, "buy_shares", "c", shares=[shares[4]])
    assert certs(game, "C", "a") == [10, 10, 10, 20] and certs(game, "C", "b") == [10]
    assert "C has settled its conversion or merger" in game.log


def test_14_1_3_no_dealing_in_a_company_in_liquidation() -> None:
    game = ann_has_a_and_b(players=3)
    first = game.round.current_entity(game).id
    act(game, "convert", first)
    corp(game, first).cash = 10
    act(game, "pass", first)  # it cannot pay for its station
    assert area(game, corp(game, first)) == "liquidation" and game.round.pending is None


def test_14_3_a_merged_station_in_a_hex_of_the_survivor_goes_back_to_the_charter() -> None:
    game = ann_has_a_and_b()
    first, other = first_and_other(game, "A", "B")
    home = corp(game, first).home_hex
    # the other company has a second station, in the survivor's home hex
    slots = game.board.hexes[home].tokens[0]
    slots[slots.index(None)] = other
    corp(game, other).token_count = 2
    act(game, "merge", first, corporation=other)
    assert all(m["type"] != "remove_token" for m in legal_moves(game))  # nobody is asked (the site)
    assert sorted(coord for coord, _ in game.board.token_hexes(first)) == ["A1", "B2"]
    assert game.board.hexes[home].tokens[0].count(first) == 1 and corp(game, first).token_count == 3


def test_14_3_over_the_most_stations_the_merged_ones_wait_for_the_survivor_removal() -> None:
    game = ann_has_a_and_b()
    game.MAX_TOKENS = 1  # the test map has two cities: one station at most makes a merger crowd
    first, other = first_and_other(game, "A", "B")
    act(game, "merge", first, corporation=other)
    assert [m["type"] for m in legal_moves(game)] == ["remove_token"]
    # the merged company left play, but its station is its own until the survivor removes one
    assert other not in game.market.position and len(game.board.token_hexes(other)) == 1
    other_home = corp(game, other).home_hex
    act(game, "remove_token", first, city=f"{corp(game, first).home_hex}-0-0", slot=0)
    assert game.board.token_hexes(first) == [(other_home, 0)] and game.board.token_hexes(other) == []


def test_14_1_1_a_conversion_after_shorts_closed_keeps_the_company_whole() -> None:
    from engine.core.family1817.sizes import convert

    game = new(3)
    start(game, "a", "C", 60)  # 5 shares: Ann's president's certificate, three in the treasury
    c = corp(game, "C")
    cy = player(game, "c")
    game.ledger.short(c, cy, game.pool)  # a short pair: +1 in the market, -1 for Cy
    # Cy closes the short with a treasury share (its ordinary share goes back with the short),
    # leaving the market's share of the pair, numbered as a short's, an ordinary one
    share = next(s for s in c.shares_of(c) if s.percent > 0)
    game.ledger.move(share, cy)
    game.ledger.close_short(c, cy, share)
    assert sum(s.percent for s in c.shares) == 100
    convert(game, c)
    assert sum(s.percent for s in c.shares) == 100 and len({s.id for s in c.shares}) == len(c.shares)
    assert game.company_size(c) == 10 and sum(1 for s in c.shares if s.percent == 10) == 8


def test_14_1_3_a_player_a_purchase_makes_president_then_deals_as_the_president() -> None:
    game = new(2)
    start(game, "a", "C", 60)
    start(game, "b", "D", 60)
    to_merger_round(game)
    first, other = first_and_other(game, "C", "D")
    president = corp(game, first).president().id
    follower = corp(game, other).president().id
    act(game, "merge", first, corporation=other)
    # a 10-share company: two shares each; the initiating company's president keeps the chair
    assert certs(game, first, president) == [20] and certs(game, first, follower) == [10, 10]
    act(game, "pass", president)
    act(game, "buy_shares", follower, shares=[next(s.id for s in corp(game, first).shares_of(corp(game, first))
                                                    if not s.president)])
    assert corp(game, first).president().id == follower
    # the new president may go on buying from the treasury (as on the site), until they pass
    moves = legal_moves(game)
    assert moves[0]["entity"] == follower and {m["type"] for m in moves} == {"buy_shares", "pass"}
    act(game, "pass", follower)
    assert legal_moves(game)[0]["entity"] == first  # then the company's loans


def test_14_1_3_the_other_players_may_sell_shares_of_any_company() -> None:
    """14.1.3: "sell any number of shares to the open market" — Bob, asked after C's
    conversion, sells his share of D (as on the site: s8400 at 644)."""
    game = ann_has_c_and_cy_d()
    act(game, "pass", "a")
    act(game, "buy_shares", "b", shares=["D_1"])
    to_merger_round(game)
    act(game, "convert", "C")
    corp(game, "C").cash = 1000
    act(game, "pass", "C")  # no loans; the two stations are bought
    act(game, "pass", "a")  # the president buys nothing
    moves = legal_moves(game)
    assert moves[0]["entity"] == "b"
    sells = next(m for m in moves if m["type"] == "sell_shares")["choices"]
    assert {c["corporation"] for c in sells} == {"D"}
    act(game, "sell_shares", "b", shares=["D_1"], percent=20)
    assert corp(game, "D").share_by_id("D_1").owner is game.pool
    assert legal_moves(game)[0]["entity"] == "c"


def d_with_a_closed_short() -> object:
    """Ann's C and Cy's D (5 shares each). Bob shorts D, then closes it buying a share from D's
    treasury: the ordinary share his short sale put in the market is now a plain share of D
    numbered as a short's. The next merger round begins."""
    game = ann_has_c_and_cy_d()
    to_next_stock_round(game)
    bob = player(game, "b")
    game.round.current_index = game.players.index(bob)
    act(game, "short", "b", corporation="D")
    to_next_stock_round(game)
    game.round.current_index = game.players.index(bob)
    act(game, "buy_shares", "b", shares=["D_2"])
    assert corp(game, "D").percent_owned_by(bob) == 0 and corp(game, "D").share_by_id("D_10").owner is game.pool
    to_merger_round(game)
    return game


def test_14_1_2_a_merger_counts_a_share_numbered_as_a_shorts_once() -> None:
    game = d_with_a_closed_short()
    first, other = first_and_other(game, "C", "D")
    act(game, "merge", first, corporation=other)
    survivor = corp(game, first)
    assert sum(s.percent for s in survivor.shares) == 100
    assert sum(survivor.units(s.percent) for s in survivor.shares if s.owner is game.pool) == 1  # D_10


def test_14_1_2_no_merger_would_leave_its_president_with_shorts_of_it() -> None:
    """Ann (C) shorts D and Cy (D) shorts C: whichever merges first, its president would preside
    the merged company holding short shares of it (6.2), so neither may merge with the other."""
    game = ann_has_c_and_cy_d()
    to_next_stock_round(game)
    for who, target in (("a", "D"), ("c", "C")):
        game.round.current_index = game.players.index(player(game, who))
        act(game, "short", who, corporation=target)
        act(game, "pass", who)
    to_merger_round(game)
    first, other = first_and_other(game, "C", "D")
    assert "merge" not in {m["type"] for m in legal_moves(game)}
    refused(game, "merge", first, "would preside", corporation=other)

"""Rulebook section 10: the private company auction and the Jay Gould par."""

from __future__ import annotations

import pytest
from engine_helpers import (
    acting,
    auction,
    choices_of,
    corp,
    make_game,
    play,
    player,
    refuse,
    total_money,
)

from engine.core.stock_round import StockRound


def test_10_first_player_bids_at_least_face_value() -> None:
    game = make_game(3)
    refuse(game, "bid", "A", r"a bid on GRRRC must be at least \$80 \(face value\)", company="GRRRC", price=75)
    play(game, "bid", "A", company="GRRRC", price=80)
    assert acting(game) == ["B"]


def test_10_bids_are_multiples_of_five() -> None:
    game = make_game(3)
    refuse(game, "bid", "A", r"bids are multiples of \$5 \(rule 10\); \$83 is not", company="GRRRC", price=83)
    play(game, "bid", "A", company="GRRRC", price=85)
    assert {c["company"]: c["step"] for c in choices_of(game, "bid")} == {"BBBCRC": 5, "GRRRC": 5, "JG": 5}


def test_10_overbid_is_at_least_five_more_and_cancels_the_earlier_bid() -> None:
    game = make_game(3)
    play(game, "bid", "A", company="JG", price=200)
    refuse(game, "bid", "B", r"a bid on JG must be at least \$205 \(\$5 over the current bid\)", company="JG", price=200)
    play(game, "bid", "B", company="JG", price=205)
    # A's bid is cancelled, so A bids again (C is next in turn).
    play(game, "bid", "C", company="GRRRC", price=80)
    assert acting(game) == ["A"]
    play(game, "bid", "A", company="BBBCRC", price=50)
    state = game.state
    assert state.companies["JG"].owner is player(game, "B")
    assert state.companies["BBBCRC"].owner is player(game, "A")


def test_10_a_player_holding_a_winning_bid_is_passed_over() -> None:
    game = make_game(3)
    play(game, "bid", "A", company="BBBCRC", price=50)
    play(game, "bid", "B", company="GRRRC", price=80)
    play(game, "bid", "C", company="GRRRC", price=85)
    # A still holds the winning bid on the BB-B&C: B, outbid, is next.
    assert acting(game) == ["B"]
    refuse(game, "bid", "A", "it is B's turn to bid", company="JG", price=200)


def test_10_every_player_must_bid_no_passing() -> None:
    game = make_game(3)
    refuse(game, "pass", "A", r"in the private auction each player must bid \(rule 10\); what you can do now: /bid$")


def test_10_a_bid_may_not_exceed_the_players_cash() -> None:
    game = make_game(3)
    refuse(game, "bid", "A", r"A has only \$500", company="JG", price=505)
    assert max(c["max"] for c in choices_of(game, "bid")) == 500


def test_10_privates_already_bid_on_cannot_be_bought_at_the_same_price_and_unknown_ones_are_refused() -> None:
    game = make_game(3)
    refuse(game, "bid", "A", r"'IGN' is not up for auction", company="IGN", price=210)


def test_10_auction_ends_when_every_private_has_one_bid_and_then_everyone_pays() -> None:
    game = make_game(3)
    play(game, "bid", "A", company="JG", price=200)
    play(game, "bid", "B", company="GRRRC", price=80)
    # Nobody pays until the auction is over.
    assert [p.cash for p in game.state.players] == [500, 500, 500]
    play(game, "bid", "C", company="BBBCRC", price=60)
    assert [p.cash for p in game.state.players] == [300, 420, 440]
    owners = {c.id: c.owner.key for c in game.state.companies.values()}
    assert owners == {"JG": "A", "GRRRC": "B", "BBBCRC": "C"}
    assert total_money(game.state) == 8000


def test_10_jay_gould_winner_sets_par_and_bank_funds_shares() -> None:
    game = make_game(3, "MKT")
    for company, price in (("BBBCRC", 50), ("GRRRC", 80), ("JG", 200)):
        play(game, "bid", acting(game)[0], company=company, price=price)
    # C bought Jay Gould and must set MKT's par before anything else happens.
    assert acting(game) == ["C"]
    refuse(game, "par", "C", r"choose a par price from the par spaces", corporation="MKT", share_price="110,1,4")
    refuse(game, "par", "C", r"the Jay Gould company is MKT", corporation="SP", share_price="100,2,4")
    refuse(game, "pass", "C", r"C must first set the par price of MKT \(Jay Gould\)")
    assert {c["share_price"] for c in choices_of(game, "par")} == {"100,2,4", "82,3,3", "90,3,4", "70,4,2", "75,4,3"}
    bank = game.state.bank.cash
    play(game, "par", "C", corporation="MKT", share_price="90,3,4")
    mkt = corp(game, "MKT")
    # The 20% president's certificate is free; the bank puts 2 x $90 on the charter.
    assert mkt.president() is player(game, "C") and mkt.percent_owned_by(player(game, "C")) == 20
    assert player(game, "C").cash == 300
    assert mkt.cash == 180 and game.state.bank.cash == bank - 180
    assert game.state.share_price(mkt) == 90 and mkt.ipoed and not mkt.floated


@pytest.mark.parametrize(("count", "shares"), [(4, {"C": 20, "D": 10}), (5, {"C": 20, "D": 10, "E": 10})])
def test_10_ign_and_nopr_winners_receive_a_ten_percent_jay_gould_share(count: int, shares: dict[str, int]) -> None:
    game = make_game(count, "SSW")
    auction(game, par="75,4,3")
    ssw = corp(game, "SSW")
    assert {p.key: ssw.percent_owned_by(p) for p in game.state.players if ssw.percent_owned_by(p)} == shares
    # The bank funds the company with the share value for every share handed out.
    assert ssw.cash == 75 * sum(shares.values()) // 10


def test_10_priority_deal_goes_left_of_the_last_bidder() -> None:
    game = make_game(3)
    play(game, "bid", "A", company="BBBCRC", price=50)
    play(game, "bid", "B", company="JG", price=200)
    play(game, "bid", "C", company="BBBCRC", price=55)
    # A was outbid and bids last; the player to A's left, B, gets the priority deal.
    play(game, "bid", "A", company="GRRRC", price=80)
    play(game, "par", "B", corporation="MKT", share_price="100,2,4")
    assert isinstance(game.state.round, StockRound)
    assert game.state.priority_player.key == "B"
    assert acting(game) == ["B"]


def test_10_site_reading_accepts_any_amount_over_the_minimum() -> None:
    game = make_game(3, options=["site_auction_bids"])
    play(game, "bid", "A", company="GRRRC", price=83)
    assert {c["company"]: c["step"] for c in choices_of(game, "bid")} == {"BBBCRC": 1, "GRRRC": 1, "JG": 1}
    refuse(game, "bid", "B", r"a bid on GRRRC must be at least \$88", company="GRRRC", price=87)
    play(game, "bid", "B", company="GRRRC", price=88)

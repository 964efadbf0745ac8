"""Rule 15: the cash crisis and bankruptcy."""

from __future__ import annotations

from family_helpers import (
    act,
    corp,
    legal_moves,
    new,
    pass_stock_round,
    play_until_stock_round,
    player,
    refused,
    start,
)

from engine.core.family1817.game import SITE_DEALING_DUMPS
from engine.core.family1817.market import area
from engine.core.family1817.merger_round import dump_president_certificate
from engine.core.family1817.shorts import bank_closes_market_shorts
from engine.core.steps.cash_crisis import Debt


def three_players(options: list[str] | None = None) -> object:
    """Ann president of C (40%) and holding 20% of D; Bob president of D (40%) with 20% of C."""
    game = new(3, options)
    start(game, "a", "C", 60)
    start(game, "b", "D", 60)
    act(game, "pass", "c")
    act(game, "buy_shares", "a", shares=["D_1"])
    act(game, "buy_shares", "b", shares=["C_1"])
    pass_stock_round(game)
    return game


def test_15_sell_to_raise_the_money_then_the_debt_is_paid() -> None:
    game = three_players()
    ann = player(game, "a")
    ann.cash = 10
    game.demand(ann, 40, game.bank, "a test debt")
    assert legal_moves(game)[0]["type"] == "sell_shares"
    choices = legal_moves(game)[0]["choices"]
    assert {c["corporation"] for c in choices} == {"D"}  # no sale of the presidency of C
    act(game, "sell_shares", "a", shares=["D_1"], percent=20)
    assert not game.cash_crisis and player(game, "a").cash == 10 + game.share_price(corp(game, "D")) - 40


def test_15_no_sale_may_change_a_presidency() -> None:
    game = three_players()
    ann = player(game, "a")
    ann.cash = 0
    game.demand(ann, 500, game.bank, "a test debt")
    refused(game, "sell_shares", "a", "no sale may change a presidency", shares=["C_0"], percent=20)


def test_15_over_the_certificate_limit_is_allowed() -> None:
    game = three_players()
    game.cert_limit = 1
    ann = player(game, "a")
    ann.cash = 0
    game.demand(ann, 30, game.bank, "a test debt")
    act(game, "sell_shares", "a", shares=["D_1"], percent=20)
    assert not game.cash_crisis and game.certificate_count(player(game, "a")) == 1


def test_15_bankruptcy_holdings_to_the_market_and_presidencies_to_liquidation() -> None:
    game = three_players()
    ann = player(game, "a")
    ann.cash = 0
    game.demand(ann, 5000, game.bank, "a test debt")
    act(game, "sell_shares", "a", shares=["D_1"], percent=20)
    assert legal_moves(game) == [{"type": "bankrupt", "entity": "a", "entity_type": "player"}]
    act(game, "bankrupt", "a")
    ann = player(game, "a")
    assert ann.bankrupt and ann.cash == 0 and not corp(game, "C").shares_of(ann)
    assert corp(game, "C").president_share().owner is game.pool and area(game, corp(game, "C")) == "liquidation"
    assert not game.finished  # two players are left


def test_15_a_bankrupt_president_without_their_certificate_leaves_the_company_without_one() -> None:
    """`SITE_DEALING_DUMPS`: Ann sold half of C's president's certificate into the market and
    presides without it. Bankrupt, she presides no more: C goes to liquidation with no president
    (14.2.1: its unpaid loans go back to the bank, nobody is asked to pay them)."""
    game = three_players([SITE_DEALING_DUMPS])
    ann = player(game, "a")
    dump_president_certificate(game, ann, corp(game, "C"), ["C_0"], 20)
    assert corp(game, "C").president() is ann
    ann.cash = 0
    game.demand(ann, 5000, game.bank, "a test debt")
    act(game, "sell_shares", "a", shares=["D_1"], percent=20)
    act(game, "bankrupt", "a")
    company = corp(game, "C")
    assert company.president() is None and area(game, company) == "liquidation"
    assert game.former_presidents["C"] == ann.key


def test_15_interest_bankruptcy_money_goes_to_the_company() -> None:
    game = three_players()
    ann = player(game, "a")
    ann.cash = 7
    game.demand(ann, 5000, game.bank, "C's interest", company="C", kind=Debt.INTEREST)
    assert ann.cash == 7 - 5000  # paid in full, below $0 (the site)
    cash = corp(game, "C").cash
    act(game, "sell_shares", "a", shares=["D_1"], percent=20)
    act(game, "bankrupt", "a")
    assert corp(game, "C").cash == cash + 7 + game.share_price(corp(game, "D")) and ann.cash == 0


def test_15_shorts_go_to_the_market_and_cancel_a_market_share() -> None:
    game = three_players()
    c = corp(game, "C")
    cy = player(game, "c")
    game.ledger.short(c, cy, game.pool)
    assert c.percent_owned_by(game.pool) == 20
    cy.cash = 0
    game.demand(cy, 100, game.bank, "a test debt")
    act(game, "bankrupt", "c")
    assert c.percent_owned_by(game.pool) == 0 and sum(s.percent for s in c.shares) == 100


def test_15_all_but_one_bankrupt_ends_the_game() -> None:
    game = new(2)
    start(game, "a", "C", 60)
    act(game, "pass", "b")
    bob = player(game, "b")
    bob.cash = 0
    game.demand(bob, 100, game.bank, "a test debt")
    act(game, "bankrupt", "b")
    assert game.finished and game.end_reason == "bankrupt"


def test_16_value_is_cash_plus_shares_at_market_less_shorts_privates_count_nothing() -> None:
    game = three_players()
    c, d = corp(game, "C"), corp(game, "D")
    cy = player(game, "c")
    game.ledger.short(c, cy, game.pool)
    value = cy.cash - game.share_price(c)
    assert game.player_value(cy) == value
    ann = player(game, "a")
    assert game.player_value(ann) == ann.cash + 2 * game.share_price(c) + game.share_price(d)


def test_11_the_bank_closes_market_shorts_from_the_treasury_at_the_start_of_a_stock_round() -> None:
    game = three_players()
    c = corp(game, "C")
    cy = player(game, "c")
    game.ledger.short(c, cy, game.pool)
    game.ledger.move(c.share_by_id("C_10"), cy)  # Cy bought it without closing: the pair is apart
    short = next(s for s in c.shares if s.percent < 0)
    game.ledger.move(short, game.pool)  # a bankrupt's short in the open market
    treasury = len(c.shares_of(c))
    cash = c.cash
    bank_closes_market_shorts(game)
    assert not [s for s in c.shares if s.percent < 0]
    assert len(c.shares_of(c)) == treasury - 1 and c.cash == cash + game.share_price(c)


def test_15_a_bankrupt_players_priority_deal_passes_to_their_left() -> None:
    game = three_players()
    cy = player(game, "c")
    assert game.priority_player is cy  # left of Bob, the last to act
    cy.cash = 0
    game.demand(cy, 100, game.bank, "a test debt")
    act(game, "bankrupt", "c")
    assert cy.bankrupt and not game.finished
    play_until_stock_round(game)
    assert game.round.current(game) is player(game, "a") and game.priority_player is player(game, "a")

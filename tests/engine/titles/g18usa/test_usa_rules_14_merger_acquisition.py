"""18USA rule 14 at logged positions: a conversion (14.1.1, s8403 179), a merger of two 2-share
companies with different presidents (14.1.2, s8403 283), and a friendly offer made possible by
P15 (14.2.3 with P15's card: bidders may go $100 over their limit; s8504 803)."""

from __future__ import annotations

from usa_positions import log_named, replayed

from engine.core.family1817 import acquisition_round as sales
from engine.legal import legal_moves


def holdings(game: object, corp_id: str) -> list[tuple[str, str, int]]:
    corp = game.corporations[corp_id]  # type: ignore[attr-defined]
    return [(s.id, game.describe(s.owner), s.percent) for s in corp.shares]  # type: ignore[attr-defined]


def test_14_1_1_a_2_share_company_converts_to_5_shares_in_its_treasury() -> None:
    game = replayed("s8403", 179)
    assert holdings(game, "N&W") == [("N&W_0", "P2", 100)]
    game.apply(log_named("s8403")["actions"][179])
    assert game.company_size(game.corporations["N&W"]) == 5
    assert holdings(game, "N&W") == [("N&W_0", "P2", 40), ("N&W_1", "N&W", 20), ("N&W_2", "N&W", 20),
                                     ("N&W_3", "N&W", 20)]
    # 14.1.3: share dealings follow, a purchase from the treasury (not the open market) or a pass;
    # P2, presiding, can buy nothing, so P1 deals. The site (this log's reading) also lets P1 sell
    # the president's certificate of NP, a 2-share company nobody could take over.
    moves = {move["type"]: move for move in legal_moves(game)}
    assert set(moves) == {"buy_shares", "sell_shares", "pass"} and moves["pass"]["entity"] == "P1"
    assert [c["from"] for c in moves["buy_shares"]["choices"]] == ["treasury"]
    assert {(c["corporation"], tuple(c["shares"])) for c in moves["sell_shares"]["choices"]} == {("NP", ("NP_0",))}


def test_14_1_2_two_2_share_companies_merge_at_the_sum_of_their_prices() -> None:
    game = replayed("s8403", 283)  # NP (P1, $53) takes in B&O (P4, $50)
    np_, bo = game.corporations["NP"], game.corporations["B&O"]
    cash = np_.cash + bo.cash
    loans = game.loans.count("NP") + game.loans.count("B&O")
    trains = sorted(t.name for t in np_.trains + bo.trains)
    privates = {c.id for c in game.companies_of(np_) + game.companies_of(bo)}
    p1 = game.player("P1").cash
    game.apply(log_named("s8403")["actions"][283])
    assert game.company_size(np_) == 5 and game.share_price(np_) == 100  # $103 rounded down
    # Different presidents: the initiator buys one more share from the company (its $100 goes
    # to the treasury) and takes the president's certificate; the other gets one 20% share.
    assert game.player("P1").cash == p1 - 100 and np_.cash == cash + 100
    assert holdings(game, "NP") == [("NP_0", "P1", 40), ("NP_1", "P4", 20), ("NP_2", "NP", 20), ("NP_3", "NP", 20)]
    assert game.loans.count("NP") == loans and sorted(t.name for t in np_.trains) == trains
    assert {c.id for c in game.companies_of(np_)} == privates
    assert "B&O" not in game.market.position and game.loans.count("B&O") == 0  # B&O leaves play


def test_14_2_3_p15_lets_a_friendly_sale_be_offered_that_no_buyer_could_otherwise_pay() -> None:
    game = replayed("s8504", 803)  # acquisition round: DRG (holding P15) is offered for sale
    sale = game.round.sale
    assert (sale.target, sale.kind) == ("DRG", "friendly")
    assert game.owns(game.corporations["DRG"], "P15")
    floor = sales.minimum_bid(game, sale)
    power = sales.buying_power(game, game.corporations["B&O"], sale)
    assert floor == 3600 and power == 3687 and power - 100 < floor
    assert [move["type"] for move in legal_moves(game)] == ["assign", "pass"]

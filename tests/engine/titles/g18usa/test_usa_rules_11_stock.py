"""18USA rule 11 at logged positions (s8403): selling (11.1), selling short (11.2), buying back
a sold company (11.3), acting for a company (11.7) and the moves at the stock round's end
(11.8). Refused moves give the rule and change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from usa_positions import log_named, replayed

from engine.errors import GameError
from engine.legal import legal_moves

ACTIONS = log_named("s8403")["actions"]


def moves_of(game: Any, kind: str) -> list[dict[str, Any]]:
    return [move for move in legal_moves(game) if move["type"] == kind]


def refused(game: Any, action: dict[str, Any], match: str) -> None:
    before = ([(p.cash, p.bankrupt) for p in game.players],
              {c.id: [(s.id, game.describe(s.owner)) for s in c.shares] for c in game.corporations.values()},
              dict(game.market.position), len(game.log))
    with pytest.raises(GameError, match=match):
        game.apply(action)
    after = ([(p.cash, p.bankrupt) for p in game.players],
             {c.id: [(s.id, game.describe(s.owner)) for s in c.shares] for c in game.corporations.values()},
             dict(game.market.position), len(game.log))
    assert after == before


def test_11_1_a_sale_pays_the_price_and_leaves_it_then_no_buying_back() -> None:
    game = replayed("s8403", 349)  # stock round 4: P2 sells N&W's 20% share
    nw, p2 = game.corporations["N&W"], game.player("P2")
    price, cash = game.share_price(nw), p2.cash
    game.apply(ACTIONS[349])
    assert p2.cash == cash + price and game.share_price(nw) == price  # sales do not move the price
    assert nw.share_by_id("N&W_1").owner is game.pool
    assert not any(choice["corporation"] == "N&W" for move in moves_of(game, "buy_shares")
                   for choice in move.get("choices", []) if move.get("entity_type") != "corporation")
    refused(game, {"type": "buy_shares", "entity": "P2", "entity_type": "player", "shares": ["N&W_1"],
                   "percent": 20}, "sold N&W this round")


def test_11_2_a_2_share_company_may_not_be_sold_short() -> None:
    game = replayed("s8403", 349)
    assert game.company_size(game.corporations["UP"]) == 2
    assert all(choice["corporation"] != "UP" for move in moves_of(game, "short") for choice in move["choices"])
    refused(game, {"type": "short", "entity": "P2", "entity_type": "player", "corporation": "UP"},
            "2-share company")


def test_11_2_a_short_sale_pays_the_price_and_puts_a_share_in_the_open_market() -> None:
    game = replayed("s8403", 661)  # stock round 7: P3 sells NP short
    np_, p3 = game.corporations["NP"], game.player("P3")
    assert [choice["corporation"] for move in moves_of(game, "short") for choice in move["choices"]] == ["NP"]
    price, cash, in_market = game.share_price(np_), p3.cash, np_.percent_owned_by(game.pool)
    game.apply(ACTIONS[661])
    assert p3.cash == cash + price and game.share_price(np_) == price
    assert np_.percent_owned_by(p3) == -10 and np_.percent_owned_by(game.pool) == in_market + 10
    assert game.player_value(p3) == p3.cash + game.share_price(game.corporations["SLSF"]) - price
    # A short sale is a sale: no NP share for P3 for the rest of the round (11.2).
    refused(game, {"type": "buy_shares", "entity": "P3", "entity_type": "player", "shares": ["NP_10"],
                   "percent": 10}, "sold NP this round")


def test_11_2_no_short_of_a_company_held_or_formed_this_round() -> None:
    game = replayed("s8403", 661)
    refused(game, {"type": "short", "entity": "P3", "entity_type": "player", "corporation": "SLSF"},
            "holds shares of SLSF")
    refused(game, {"type": "short", "entity": "P3", "entity_type": "player", "corporation": "TP"},
            "formed this stock round")


def test_11_7_acting_for_a_company_is_the_whole_turn() -> None:
    game = replayed("s8403", 349)
    assert [move["entity"] for move in moves_of(game, "take_loan")] == ["N&W"]
    nw = game.corporations["N&W"]
    cash = nw.cash
    game.apply({"type": "take_loan", "entity": "N&W", "entity_type": "corporation"})
    assert nw.cash == cash + 100
    assert {move["type"] for move in legal_moves(game)} <= {"take_loan", "pass", "buy_shares", "scrap_train"}
    refused(game, {"type": "sell_shares", "entity": "P2", "entity_type": "player", "shares": ["N&W_1"],
                   "percent": 20}, "acting for N&W")


def test_11_8_at_the_end_two_steps_back_per_market_certificate() -> None:
    game = replayed("s8403", 354)  # the round's last pass is next; one N&W certificate is in the market
    before = {corp.id: game.market.cell_of(corp.id).col for corp in game.operating_order()}
    in_market = {corp.id: sum(1 for s in corp.shares if s.owner is game.pool and s.percent > 0)
                 for corp in game.operating_order()}
    all_held = {corp.id for corp in game.operating_order()
                if game.company_size(corp) > 2 and sum(corp.percent_owned_by(p) for p in game.players) >= 100}
    assert in_market["N&W"] == 1 and not all_held
    game.apply(ACTIONS[354])
    assert game.round.name == "Operating Round"
    after = {corp: game.market.cell_of(corp).col for corp in before}
    assert after == {corp: col - 2 * in_market[corp] for corp, col in before.items()}

"""18USA rule 15 from a logged position: s8401, where P2 cannot pay what a liquidation leaves
them owing and goes bankrupt (action 787). Rule 15 puts the bankrupt's privates in the open
market; the site leaves them with the player (`site_bankrupt_privates`). A bankrupt player then
takes no more turns: the next stock round starts with the priority holder's left-hand neighbour."""

from __future__ import annotations

import pytest
from usa_positions import replayed

from engine.errors import GameError
from engine.legal import legal_moves

BANKRUPTCY = 787  # P2's bankrupt action is next


def test_15_sell_what_may_be_sold_but_no_presidency_then_bankruptcy() -> None:
    game = replayed("s8401", 700)  # stock round 12: P1 presides SR (20% + 30%) and WP (40%)
    p1 = game.player("P1")
    cash = p1.cash
    game.demand(p1, cash + 1000, game.bank, "a test debt")
    assert p1.cash == -1000 and game.cash_crisis  # paid in full, below $0 (as on the site)
    moves = legal_moves(game)
    assert [move["type"] for move in moves] == ["sell_shares"]
    # Only SR's ordinary shares: the presidents' certificates may not change hands (15).
    assert {choice["corporation"] for choice in moves[0]["choices"]} == {"SR"}
    with pytest.raises(GameError, match="must first sell shares"):
        game.apply({"type": "bankrupt", "entity": "P1", "entity_type": "player"})
    assert p1.cash == -1000 and not p1.bankrupt
    with pytest.raises(GameError, match="presidency"):
        game.apply({"type": "sell_shares", "entity": "P1", "entity_type": "player", "shares": ["WP_0"],
                    "percent": 40})
    largest = moves[0]["choices"][-1]
    game.apply({"type": "sell_shares", "entity": "P1", "entity_type": "player", "shares": largest["shares"],
                "percent": largest["percent"]})
    assert p1.cash == -1000 + largest["price"] < 0
    assert [move["type"] for move in legal_moves(game)] == ["bankrupt"]
    game.apply({"type": "bankrupt", "entity": "P1", "entity_type": "player"})
    assert p1.bankrupt and p1.cash == 0
    # P1's companies go into liquidation; nothing of theirs is left with them.
    assert all(game.market_area(game.corporations[corp]) == "liquidation" for corp in ("SR", "WP"))
    assert not any(share.owner is p1 for corp in game.corporations.values() for share in corp.shares)


def test_15_bankrupt_with_nothing_left_to_sell_printed_privates_to_the_open_market() -> None:
    game = replayed("s8401", BANKRUPTCY, without=("site_bankrupt_privates",))
    assert [move["type"] for move in legal_moves(game)] == ["bankrupt"]
    p2 = game.player("P2")
    privates = [company.id for company in game.companies_of(p2)]
    assert sorted(privates) == ["P10", "P30"]
    game.apply({"type": "bankrupt", "entity": "P2", "entity_type": "player"})
    assert p2.bankrupt and p2.cash == 0
    assert not game.companies_of(p2)
    assert all(game.companies[private].owner is game.pool for private in privates)
    assert not any(share.owner is p2 for corp in game.corporations.values() for share in corp.shares)


def test_15_site_reading_the_bankrupt_keeps_their_privates() -> None:
    game = replayed("s8401", BANKRUPTCY + 1)
    p2 = game.player("P2")
    assert p2.bankrupt and sorted(company.id for company in game.companies_of(p2)) == ["P10", "P30"]
    assert not game.finished  # three players are left


def test_15_a_bankrupt_player_holding_the_priority_is_passed_over() -> None:
    game = replayed("s8401", 797)  # the acquisition round's last pass: stock round 13 begins next
    assert game.players[game.priority_index].id == "P2" and game.player("P2").bankrupt
    game.apply({"type": "pass", "entity": "P1", "entity_type": "player"})
    assert game.round.name == "Stock Round"
    # P3 and P4 ($8, no shares) can do nothing and pass by themselves: P1 is asked, as on the
    # site; the bankrupt P2 is never asked.
    assert [player.id for player in game.acting_players()] == ["P1"]
    assert not any(line.startswith("P2 ") for line in game.log[-3:])

"""11.4: a player can be caused to be above the certificate limit by losing a presidency; the
condition is resolved at their next opportunity to sell in a stock round. Random play flagged the
position as broken (its check counted any player over the limit); the engine is right.

The position (tests/data/positions/usa_presidency_lost_over_cert_limit.json, random legal play,
7 players of whom one went bankrupt, so the limit is 13; bench/keep_positions.py): in Stock Round
9 Player 2, holding 40% of GN as its president Player 3 does, buys GN_2 and presides GN; Player 3,
at the limit of 13, gets two 10% certificates for the president's 20% one, and acts next.
"""

from __future__ import annotations

from usa_positions import kept_position

from engine import GameError
from engine.legal import legal_moves
from engine.log import Game

BUY = {"type": "buy_shares", "entity": 1002, "entity_type": "player", "shares": ["GN_2"], "percent": 10}


def after_the_presidency_changes() -> Game:
    game = kept_position("usa_presidency_lost_over_cert_limit")
    state = game.state
    gn = state.corporations["GN"]
    assert gn.president() is state.players[2]
    assert gn.percent_owned_by(state.players[1]) == gn.percent_owned_by(state.players[2]) == 40
    assert state.certificate_count(state.players[2]) == state.cert_limit == 13
    game.process(dict(BUY))
    return game


def test_losing_the_presidency_puts_the_former_president_over_the_limit() -> None:
    state = after_the_presidency_changes().state
    gn = state.corporations["GN"]
    assert gn.president() is state.players[1]
    assert gn.percent_owned_by(state.players[2]) == 40 and not any(
        share.president for share in gn.shares if share.owner is state.players[2])
    assert state.certificate_count(state.players[2]) == 14 > state.cert_limit


def test_over_the_limit_they_must_sell_first_and_may_not_buy_or_pass() -> None:
    """At their next opportunity (their turn, right after the purchase) selling is their only move
    of their own: no purchase, no pass; a purchase is refused and changes nothing; a sale that
    brings them back to the limit is accepted."""
    game = after_the_presidency_changes()
    state = game.state
    own = [m for m in legal_moves(state) if m["entity"] == 1003]
    assert [m["type"] for m in own] == ["sell_shares"]
    before = state.certificate_count(state.players[2])
    share = next(s for s in state.corporations["GN"].shares if s.owner is state.corporations["GN"])
    try:
        game.process({"type": "buy_shares", "entity": 1003, "entity_type": "player", "shares": [share.id],
                      "percent": share.percent})
    except GameError as refused:
        assert "certificate limit" in str(refused) or "must sell" in str(refused), str(refused)
    else:
        raise AssertionError("a player over the certificate limit bought a share")
    assert state.certificate_count(state.players[2]) == before
    try:
        game.process({"type": "pass", "entity": 1003, "entity_type": "player"})
    except GameError as refused:
        assert "sell" in str(refused), str(refused)
    else:
        raise AssertionError("a player over the certificate limit who can sell passed")
    one = next(c for c in own[0]["choices"] if len(c["shares"]) == 1)
    game.process({"type": "sell_shares", "entity": 1003, "entity_type": "player", "shares": one["shares"],
                  "percent": one["percent"]})
    assert state.certificate_count(state.players[2]) == state.cert_limit

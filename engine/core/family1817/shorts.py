"""Short sales (rules 6.2, 11.2, 11.3, 12.5, 15).

A short sale makes a pair of certificates: an ordinary share for the open market and a negative
one the seller keeps (the share ledger's short). Buying a share of a company one is short of
closes the short: both certificates go back to the short stack, which here means they leave play.
A company may be shorted at most as many times as it has shares. Shorts do not count toward the
certificate limit; their holders pay dividends; a player's value counts them at minus the price.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.family1817.market import area
from engine.core.step import how_to_start
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game


def shorts_of(corporation: Corporation, holder: Holder) -> list[Share]:
    return [share for share in corporation.shares if share.owner is holder and share.percent < 0]


def short_count(corporation: Corporation) -> int:
    """Short shares outstanding (in players' hands or in the open market)."""
    return sum(1 for share in corporation.shares if share.percent < 0)


def short_refusal(game: Family1817Game, player: Player, corporation: Corporation) -> str | None:
    """Why `player` may not sell `corporation` short now (11.2), or None."""
    reason = game.shorts_forbidden()
    if reason:
        return reason
    if not corporation.ipoed or corporation.id not in game.market.position:
        return f"{corporation.id} has not been started{how_to_start(game, player)}"
    size = game.company_size(corporation)
    if size <= 2:
        return f"a 2-share company ({corporation.id}) may not be sold short (11.2)"
    if corporation.id in game.formed_this_round():
        return f"{corporation.id} was formed this stock round and may not be sold short yet (11.2)"
    if any(share.percent > 0 for share in corporation.shares_of(player)):
        return f"{player.name} holds shares of {corporation.id} and may not sell it short (11.2)"
    where = area(game, corporation)
    if where is not None:
        return f"{corporation.id} is in {where} and may not be sold short (11.2)"
    if short_count(corporation) >= size:
        return f"{corporation.id} has been sold short {size} times, the most its short stack allows (11.2)"
    return None


def sell_short(game: Family1817Game, player: Player, corporation: Corporation) -> None:
    reason = short_refusal(game, player, corporation)
    if reason:
        raise GameError(reason)
    game.ledger.short(corporation, player, game.pool)
    price = game.share_price(corporation)
    game.transfer(game.bank, player, price)
    game.log.append(f"{player.name} sells a share of {corporation.id} short for ${price}")


def close_short(game: Family1817Game, holder: Holder, share: Share) -> bool:
    """If `holder` (who just got `share`) is short of its company, both go back to the stack."""
    corporation = share.corporation
    if not shorts_of(corporation, holder) or share.percent <= 0 or share.president:
        return False
    game.ledger.close_short(corporation, holder, share)
    game.log.append(f"{game.describe(holder)} closes a short position in {corporation.id}")
    return True


def match_market_shorts(game: Family1817Game) -> None:
    """A short share and an ordinary share both in the open market go back to the stack (15)."""
    for corporation in game.corporations.values():
        while shorts_of(corporation, game.pool):
            share = next((s for s in game.ledger.holding_order(corporation, game.pool)
                          if s.percent > 0 and not s.president), None)
            if share is None:
                break
            game.ledger.close_short(corporation, game.pool, share)


def bank_closes_market_shorts(game: Family1817Game) -> None:
    """At the start of each stock round the bank closes the open market's short shares with
    shares it buys from the company's treasury, while there are any (rule 11)."""
    match_market_shorts(game)
    for corporation in game.corporations.values():
        while shorts_of(corporation, game.pool):
            share = next((s for s in game.ledger.holding_order(corporation, corporation)
                          if s.percent > 0 and not s.president), None)
            if share is None:
                break
            price = game.share_price(corporation)
            game.transfer(game.bank, corporation, price)
            game.ledger.move(share, game.pool)
            game.ledger.close_short(corporation, game.pool, share)
            game.log.append(f"The bank buys a share of {corporation.id} for ${price} and closes a short")


def close_matching_pairs(game: Family1817Game, corporation: Corporation) -> None:
    """A player never holds shares and shorts of one company at once (6.2): where an exchange
    gave one both, they close each other."""
    for player in game.players:
        while shorts_of(corporation, player):
            share = next((s for s in game.ledger.holding_order(corporation, player)
                          if s.percent > 0 and not s.president), None)
            if share is None:
                break
            close_short(game, player, share)

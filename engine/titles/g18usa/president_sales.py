"""Rule 17's variant "the president of a company may exceed 60% ownership": when a president
holds more than 60% and no other share of the company is for sale (treasury or open market),
another player may buy one of the president's ordinary shares, paying the president the share
price plus 10%, rounded up. Otherwise every rule of buying (11.3, 11.4) applies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation, Player, Share
from engine.core.family1817.market import area
from engine.core.stock_round import StockRound
from engine.errors import GameError
from engine.titles.g18usa.setup import PRESIDENT_ABOVE_60

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

PRESIDENT_LIMIT = 60


def premium_price(game: G18USA, corporation: Corporation, share: Share) -> int:
    """The share price plus 10%, rounded up, for each share of the certificate."""
    per_share = -(-game.share_price(corporation) * 11 // 10)
    return per_share * corporation.units(share.percent)


def share_from_president(game: G18USA, corporation: Corporation, buyer: Player) -> Share | None:
    """The president's ordinary share another player may buy now, or None."""
    if not game.option(PRESIDENT_ABOVE_60):
        return None
    president = corporation.president()
    if not isinstance(president, Player) or president is buyer:
        return None
    if corporation.percent_owned_by(president) <= PRESIDENT_LIMIT:
        return None
    if any(share.owner in (corporation, game.pool) and share.percent > 0 and not share.president
           for share in corporation.shares):
        return None
    return next((share for share in game.ledger.holding_order(corporation, president)
                 if share.percent > 0 and not share.president), None)


def check_buy_from_president(game: G18USA, rnd: StockRound, buyer: Player, share: Share) -> int:
    """Why `buyer` may not buy `share` from its company's president now (GameError), or its price."""
    corporation = share.corporation
    if rnd.turn_state.bought:
        raise GameError("only one certificate may be bought each turn")
    if corporation.id in rnd.sold_this_round.get(buyer.key, set()):
        raise GameError(f"{buyer.name} sold {corporation.id} this round and may not buy it back")
    where = area(game, corporation)
    if where is not None:
        raise GameError(f"{corporation.id} is in {where}; its shares may not be bought (11.3)")
    offered = share_from_president(game, corporation, buyer)
    if offered is None or share.owner is not offered.owner or share.president or share.percent <= 0:
        raise GameError(f"{share.id} is not for sale: a player's shares are bought only from a president "
                        f"holding over {PRESIDENT_LIMIT}% when no other share of {corporation.id} is for sale "
                        f"(rule 17 variant)")
    if game.certificate_count(buyer) >= game.cert_limit:
        raise GameError(f"{buyer.name} is at the certificate limit of {game.cert_limit}")
    most = game.max_player_percent_of(corporation, buyer)
    if corporation.percent_owned_by(buyer) + share.percent > most:
        raise GameError(f"a player may hold at most {most}% of {corporation.id} (11.4)")
    price = premium_price(game, corporation, share)
    if buyer.cash < price:
        raise GameError(f"{share.id} costs ${price} from the president; {buyer.name} has ${buyer.cash}")
    return price


def buy_from_president(game: G18USA, rnd: StockRound, buyer: Player, share: Share) -> None:
    price = check_buy_from_president(game, rnd, buyer, share)
    president = share.owner
    assert isinstance(president, Player)
    game.transfer(buyer, president, price)
    game.ledger.move(share, buyer)
    game.log.append(f"{buyer.name} buys {share.percent}% of {share.corporation.id} from its president "
                    f"{president.name} for ${price}")
    game.check_presidency_after_buy(share.corporation, buyer)

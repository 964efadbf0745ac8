"""Selling certificates to the pool: checking a sale, moving the certificates as the reference
site does, and the amounts a player may sell now (in a stock round or to raise cash)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation, Player, Share
from engine.core.step import how_to_start
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class SalePlan:
    """What a sale does, worked out before anything moves."""

    corporation: Corporation
    percent: int
    new_president: Player | None
    price: int


def plan_sale(game: BaseGame, player: Player, corporation: Corporation, share_ids: tuple[str, ...] | list[str],
              percent: int | None = None, keep_presidency: bool = False) -> SalePlan:
    """Check a sale by a player to the pool and say what it would do."""
    if not corporation.ipoed or corporation.id not in game.market.position:
        raise GameError(f"{corporation.id} has not been started{how_to_start(game, player)}")
    reason = game.sell_blocked_reason(player, corporation)
    if reason:
        raise GameError(reason)
    shares: list[Share] = []
    for share_id in share_ids:
        share = corporation.share_by_id(share_id)
        if share is None:
            raise GameError(f"{share_id} is not a certificate of {corporation.id}")
        if share.owner is not player:
            raise GameError(f"{player.name} does not own {share_id}")
        if share in shares:
            raise GameError(f"{share_id} is listed twice")
        shares.append(share)
    listed = sum(share.percent for share in shares)
    # Selling part of a president's certificate is allowed: it is first swapped for ordinary shares.
    sold = listed if percent is None else percent
    unit = corporation.share_percent
    if not isinstance(sold, int) or sold <= 0 or sold % unit or sold > listed:
        raise GameError(f"the certificates listed make {listed}%; sell a multiple of {unit}% up to that")
    pool_after = corporation.percent_owned_by(game.pool) + sold
    if pool_after > game.pool_limit_percent():
        raise GameError(
            f"at most {game.pool_limit_percent()}% of {corporation.id} may be in the bank pool; "
            f"this sale would make {pool_after}%"
        )
    holding = corporation.percent_owned_by(player)
    remaining = holding - sold
    new_president = None
    president_cert = corporation.president_share()
    if president_cert.owner is player:
        new_president = game.new_president_after(corporation, player, remaining)
        if keep_presidency and new_president is not None:
            raise GameError(f"{player.name} must keep the president's certificate of {corporation.id}")
        if new_president is None and remaining < president_cert.percent:
            raise GameError(
                f"the president's certificate of {corporation.id} may not go to the pool and no "
                f"other player holds enough shares to take it over"
            )
    elif president_cert in shares:
        raise GameError("only the president holds the president's certificate")
    if president_cert in shares and new_president is None:
        raise GameError(f"{player.name} must keep the president's certificate of {corporation.id}")
    return SalePlan(corporation, sold, new_president, game.share_price(corporation))


def execute_sale(game: BaseGame, player: Player, plan: SalePlan, share_ids: tuple[str, ...] | list[str]) -> None:
    """Move a sale's certificates the way the reference site does, so share ids stay in step.

    The listed certificates go to the pool; if the president's certificate went with them, the
    new president pays it with ordinary shares into the pool; a sale of less than the listed
    certificates (part of a president's certificate) takes back the pool's earliest shares.
    """
    corporation = plan.corporation
    bundle = [share for share_id in share_ids if (share := corporation.share_by_id(share_id))]
    if not bundle:
        bundle = [s for s in game.ledger.holding_order(corporation, player) if not s.president]
    listed = sum(share.percent for share in bundle)
    president_cert = corporation.president_share()
    for share in bundle:
        game.ledger.move(share, game.pool)
    if plan.new_president is not None:
        if president_cert.owner is game.pool:
            handed = 0
            for share in game.ledger.holding_order(corporation, plan.new_president):
                if handed >= president_cert.percent:
                    break
                if not share.president:
                    game.ledger.move(share, game.pool)
                    handed += share.percent
            game.ledger.move(president_cert, plan.new_president)
            game.log.append(f"{plan.new_president.name} becomes the president of {corporation.id}")
        else:
            game.swap_presidency(corporation, player, plan.new_president)
    returned = 0
    for share in game.ledger.holding_order(corporation, game.pool):
        if returned >= listed - plan.percent:
            break
        if not share.president:
            game.ledger.move(share, player)
            returned += share.percent
    proceeds = plan.price * corporation.units(plan.percent)
    game.transfer(game.bank, player, proceeds)
    game.log.append(f"{player.name} sells {plan.percent}% of {corporation.id} for ${proceeds}")
    game.after_sale(corporation, plan.percent)


def corporation_of_shares(game: BaseGame, share_ids: tuple[str, ...] | list[str]) -> Corporation:
    names = {share_id.rsplit("_", 1)[0] for share_id in share_ids}
    if len(names) != 1:
        raise GameError("certificates of one company at a time")
    return game.corporation(names.pop())


def sale_choices(game: BaseGame, player: Player, keep_president_of: Corporation | None = None,
                 stop_at: int | None = None, prices: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Every amount of each company the player may sell now, with certificates that make it."""
    return list(sale_offers(game, player, keep_president_of, stop_at, prices))


def sale_offers(game: BaseGame, player: Player, keep_president_of: Corporation | None = None,
                stop_at: int | None = None, prices: dict[str, int] | None = None) -> Iterator[dict[str, Any]]:
    """`sale_choices` one at a time, each worked out when asked for (whether there is any sale
    at all is answered by the first)."""
    for corporation in game.corporations.values():
        owned = game.ledger.holding_order(corporation, player)
        if not owned:
            continue
        ordinary = [s for s in reversed(owned) if not s.president]
        president = [s for s in owned if s.president]
        holding = sum(s.percent for s in owned)
        unit = corporation.share_percent
        for percent in range(unit, holding + 1, unit):
            ids: list[str] = []
            total = 0
            for share in ordinary + president:
                if total >= percent:
                    break
                ids.append(share.id)
                total += share.percent
            try:
                plan = plan_sale(game, player, corporation, ids, percent,
                                 keep_presidency=corporation is keep_president_of)
            except GameError:
                continue
            price = (prices or {}).get(corporation.id, plan.price)
            if stop_at is not None and more_than_needed(corporation, ids, percent, price, stop_at):
                break
            proceeds = price * corporation.units(plan.percent)
            yield {"corporation": corporation.id, "shares": ids, "percent": percent, "price": proceeds}


def more_than_needed(corporation: Corporation, share_ids: tuple[str, ...] | list[str], percent: int,
                     price: int, need: int) -> bool:
    """Whether a sale raising cash would raise `need` even without one of its certificates: the
    sales stop as soon as the cash is raised (12.6), but a certificate is sold whole, so one
    certificate worth more than what is missing may be sold."""
    sizes = [share.percent for share_id in share_ids if (share := corporation.share_by_id(share_id))]
    rest = percent - min(sizes, default=corporation.share_percent)
    return rest > 0 and price * corporation.units(rest) >= need

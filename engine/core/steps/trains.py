"""Buying trains (12.6): from the depot, from other companies, and the compulsory purchase with
the president's money."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.actions import BuyTrain
from engine.core.entities import Corporation, Player, Train
from engine.core.phases import apply_first_train
from engine.core.share_sales import sale_choices
from engine.core.step import command_word
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def min_train_price(game: BaseGame, corporation: Corporation) -> int:
    prices = []
    upcoming = game.depot.next_train()
    if upcoming is not None:
        prices.append(upcoming.price)
    for seller in game.train_sellers(corporation):
        for train in seller.trains:
            limits = game.inter_company_price_limits(corporation, seller, train)
            if limits is not None:
                prices.append(limits[0])
    return min(prices) if prices else 10**9


def company_trains_open(game: BaseGame, corporation: Corporation, sold: bool) -> bool:
    """Whether other companies' trains may be bought now: always, except in a compulsory purchase
    whose treasury cannot pay the cheapest bank train; then as the title says (`sold`: the
    president has already sold shares for this purchase)."""
    upcoming = game.depot.next_train()
    if upcoming is None or corporation.cash >= upcoming.price or not game.must_buy_train(corporation):
        return True
    return game.emergency_company_trains(corporation, sold)


def buyable_trains(game: BaseGame, corporation: Corporation, sold: bool = False) -> list[dict[str, Any]]:
    choices: list[dict[str, Any]] = []
    upcoming = game.depot.next_train()
    must = game.must_buy_train(corporation)
    if upcoming is not None:
        short = emergency_shortfall(game, corporation)
        if corporation.cash >= upcoming.price or (must and short <= 0):
            choices.append({"train": upcoming.id, "price": upcoming.price, "variant": upcoming.name,
                            "from": "depot"})
    seen: set[str] = set()
    for train in game.depot.discarded:  # the open market: one of each kind, at face value
        if train.name not in seen and corporation.cash >= train.price:
            seen.add(train.name)
            choices.append({"train": train.id, "price": train.price, "variant": train.name, "from": "depot"})
    if company_trains_open(game, corporation, sold):
        for seller in game.train_sellers(corporation):
            for train in seller.trains:
                limits = game.inter_company_price_limits(corporation, seller, train)
                if limits is None:
                    continue
                low, high = limits
                if low == high:
                    choices.append({"train": train.id, "from": seller.id, "price": low})
                else:
                    choices.append({"train": train.id, "from": seller.id, "min_price": low,
                                    "max_price": high})
    return choices


def emergency_shortfall(game: BaseGame, corporation: Corporation) -> int:
    """Money the president still has to find for a compulsory train purchase."""
    if not game.must_buy_train(corporation):
        return 0
    upcoming = game.depot.next_train()
    if upcoming is None or corporation.cash >= upcoming.price:
        return 0
    president = corporation.president()
    cash = president.cash if president else 0
    return max(0, upcoming.price - corporation.cash - cash)


def emergency_sales(game: BaseGame, corporation: Corporation, president: Player,
                    prices: dict[str, int] | None = None) -> list[dict[str, Any]]:
    """Sales open to the president for a compulsory train; `prices` fixes what a company's
    shares fetch (see `emergency_sales_at_start_price`)."""
    return sale_choices(game, president, keep_president_of=corporation,
                        stop_at=emergency_shortfall(game, corporation), prices=prices)


def buy_train(game: BaseGame, corporation: Corporation, action: BuyTrain, sold: bool = False) -> None:
    train_id = action.train
    price = action.price
    if price is None:
        raise GameError("a train purchase needs a price")
    if len(corporation.trains) >= game.train_limit(corporation):
        raise GameError(f"{corporation.id} already has {len(corporation.trains)} trains, the limit")
    upcoming = game.depot.next_train()
    if upcoming is not None and upcoming.id == train_id:
        if price != upcoming.price:
            raise GameError(f"a new {upcoming.name}-train costs ${upcoming.price}")
        buy_from_depot(game, corporation, upcoming)
        return
    used = next((t for t in game.depot.discarded if t.id == train_id), None)
    if used is not None:
        if price != used.price:
            raise GameError(f"a {used.name}-train from the bank's open market costs ${used.price}")
        buy_from_depot(game, corporation, used)
        return
    seller_train = next((t for t in game.all_trains() if t.id == train_id), None)
    if seller_train is None or not isinstance(seller_train.owner, Corporation):
        hint = f"the next new train is {upcoming.id} at ${upcoming.price}" if upcoming else "the depot is empty"
        raise GameError(f"train {train_id!r} cannot be bought now; {hint}")
    seller = seller_train.owner
    if seller is corporation:
        raise GameError(f"{corporation.id} already owns {train_id}")
    if not company_trains_open(game, corporation, sold):
        raise GameError(f"{corporation.id} cannot pay for the cheapest bank train from its treasury, so in "
                        f"this compulsory purchase the train must come from the bank (12.6)")
    problem = game.inter_company_price_ok(corporation, seller, seller_train, price)
    if problem:
        raise GameError(problem)
    game.transfer(corporation, seller, price)
    seller.trains.remove(seller_train)
    corporation.trains.append(seller_train)
    seller_train.owner = corporation
    game.log.append(f"{corporation.id} buys a {seller_train.name}-train from {seller.id} for ${price}")


def buy_from_depot(game: BaseGame, corporation: Corporation, train: Train) -> None:
    price = train.price
    if corporation.cash < price:
        if not game.must_buy_train(corporation):
            raise GameError(f"{corporation.id} has ${corporation.cash}; the {train.name}-train costs ${price}")
        president = corporation.president()
        short = price - corporation.cash
        if president is None or president.cash < short:
            have = president.cash if president else 0
            raise GameError(
                f"the president must add ${short} but has ${have}; sell shares first with "
                f"{command_word(game, 'sell_shares', president or corporation)} (or declare bankruptcy with "
                f"{command_word(game, 'bankrupt', president or corporation)})"
            )
        game.transfer(president, corporation, short)
        game.log.append(f"{president.name} adds ${short} for the train")
    game.transfer(corporation, game.bank, price)
    game.depot.take(train)
    corporation.trains.append(train)
    train.owner = corporation
    game.log.append(f"{corporation.id} buys a {train.name}-train for ${price}")
    apply_first_train(game, train)

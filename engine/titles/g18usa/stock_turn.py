"""18USA stock round turns (rule 11): a player sells (11.1), sells one share short (11.2), then
buys one certificate (11.3) or starts a company (11.6); or acts for one of their companies:
loans, then its own shares from the open market (11.7)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, Bid, BuyShares, Pass, SellShares
from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares, execute_sale, plan_sale, sale_choices
from engine.core.step import Handler, Move, Step
from engine.core.steps.shares import share_choice_matches
from engine.errors import GameError
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa import loans
from engine.titles.g18usa.actions import Short, TakeLoan
from engine.titles.g18usa.stock import UsaStockRound, _stock, _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA

SHORT_PHASE_END = "8"


class UsaStockStep(Step):
    key = "stock"
    label = "buy and sell shares"

    def handlers(self) -> Mapping[str, Handler]:
        return {"sell_shares": self.process_sell, "buy_shares": self.process_buy, "short": self.process_short,
                "bid": self.process_bid, "take_loan": self.process_take_loan, "pass": self.process_pass}

    def current(self, game: BaseGame, rnd: Round) -> Player:
        return _stock(rnd).current(game)

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        stock = _stock(rnd)
        player = stock.current(game)
        if entity is player:
            if stock.acting_for is not None:
                return ["pass"]
            return ["sell_shares", "short", "buy_shares", "bid", "pass"]
        if isinstance(entity, Corporation) and entity.president() is player and self._may_act_for(stock, entity):
            return ["take_loan", "buy_shares"]
        return []

    def _may_act_for(self, stock: UsaStockRound, corporation: Corporation) -> bool:
        if stock.acting_for is not None:
            return stock.acting_for is corporation
        return not (stock.turn_state.sold or stock.turn_state.bought or stock.shorted)

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        player = _stock(rnd).current(game)
        if isinstance(entity, Player) and entity is not player:
            return f"it is {player.name}'s turn in the stock round"
        if isinstance(entity, Corporation) and entity.president() is not player:
            return f"only {player.name} may act, for themselves or a company they preside over"
        return None

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        return True

    # --- handlers ------------------------------------------------------------------------------
    def _acted(self, stock: UsaStockRound, player: Player) -> None:
        stock.last_to_act = player

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        stock = _stock(rnd)
        self._end_turn(game, stock)

    def _end_turn(self, game: BaseGame, stock: UsaStockRound) -> None:
        if stock.shorted or stock.acting_for is not None:
            stock.turn_state.sold = True
        stock.shorted = False
        stock.acting_for = None
        stock.end_turn(game)

    def process_sell(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        if stock.turn_state.bought:
            raise GameError("shares are sold before buying, not after")
        corporation = corporation_of_shares(game, action.shares)
        if corporation.id in stock.bought_now:
            raise GameError(f"{corporation.id} was started this round; its shares may not be sold (11.1)")
        plan = plan_sale(usa, player, corporation, action.shares, action.percent)
        execute_sale(usa, player, plan, action.shares)
        stock.sold_this_round.setdefault(player.key, set()).add(corporation.id)
        stock.turn_state.sold = True
        self._acted(stock, player)

    def process_short(self, game: BaseGame, rnd: Round, entity: Holder, action: Short) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        corporation = usa.corporation(action.corporation)
        reason = short_refusal(usa, stock, player, corporation)
        if reason:
            raise GameError(reason)
        sell_short(usa, player, corporation)
        stock.sold_this_round.setdefault(player.key, set()).add(corporation.id)
        stock.shorted = True
        self._acted(stock, player)

    def process_bid(self, game: BaseGame, rnd: Round, entity: Holder, action: Bid) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        if stock.turn_state.bought:
            raise GameError("only one certificate may be bought or company started each turn")
        corporation = usa.corporation(action.corporation)
        reason = start_refusal(usa, player, corporation, action.price)
        if reason:
            raise GameError(reason)
        assert action.price is not None
        bidders = [p for p in usa.players_from(player)[1:] + [player] if not p.bankrupt]
        stock.ipo = ipos.Ipo(corporation, player, action.price, player, bidders)
        self._acted(stock, player)
        game.log.append(f"{player.name} starts the auction for {corporation.id} at ${action.price}")

    def process_buy(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyShares) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        if isinstance(entity, Corporation):
            buy_own_shares(usa, entity, action.shares)
            stock.acting_for = entity
            self._acted(stock, player)
            stock.turn_state.bought = True
            self._end_turn(game, stock)
            return
        if stock.turn_state.bought:
            raise GameError("only one certificate may be bought each turn")
        if len(action.shares) != 1:
            raise GameError("buy one certificate at a time")
        corporation = corporation_of_shares(game, action.shares)
        share = corporation.share_by_id(action.shares[0])
        if share is None:
            raise GameError(f"{action.shares[0]} is not a certificate of {corporation.id}")
        price = buy_refusal_or_price(usa, stock, player, share)
        buy_share(usa, player, share, price)
        stock.turn_state.bought = True
        self._acted(stock, player)
        self._end_turn(game, stock)

    def process_take_loan(self, game: BaseGame, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        assert isinstance(entity, Corporation)
        loans.take_loan(usa, entity)
        stock.acting_for = entity
        usa.after_company_loan(entity)
        self._acted(stock, stock.current(game))

    # --- legal moves ---------------------------------------------------------------------------
    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, SellShares):
            return "shares" in choice and share_choice_matches(game, choice, action.shares, action.percent)
        if isinstance(action, BuyShares):
            if "shares" in choice:
                return share_choice_matches(game, choice, action.shares, action.percent)
            return len(action.shares) == 1 and choice.get("corporation") == action.shares[0].rsplit("_", 1)[0] \
                and choice.get("from") == _source(game, action.shares[0])
        if isinstance(action, Bid):
            return (choice["corporation"] == action.corporation and action.price is not None
                    and choice["min"] <= action.price <= choice["max"])
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        moves: list[Move] = []
        if stock.acting_for is None:
            if not stock.turn_state.bought:
                sells = [c for c in sale_choices(usa, player) if c["corporation"] not in stock.bought_now]
                if sells:
                    moves.append({"type": "sell_shares", "entity": player.id, "choices": sells})
                if not stock.shorted:
                    shorts = [{"corporation": corp.id} for corp in usa.corporations.values()
                              if short_refusal(usa, stock, player, corp) is None]
                    if shorts:
                        moves.append({"type": "short", "entity": player.id, "choices": shorts})
                buys = buy_choices(usa, stock, player)
                if buys:
                    moves.append({"type": "buy_shares", "entity": player.id, "choices": buys})
                starts = [{"corporation": corp.id, "min": ipos.MIN_BID, "max": ipos.max_bid(usa, player, None)}
                          for corp in usa.corporations.values()
                          if start_refusal(usa, player, corp, ipos.MIN_BID) is None]
                if starts:
                    moves.append({"type": "bid", "entity": player.id, "choices": starts})
        for corporation in usa.corporations.values():
            if corporation.president() is not player or not self._may_act_for(stock, corporation):
                continue
            if loans.loan_refusal(usa, corporation) is None:
                moves.append({"type": "take_loan", "entity": corporation.id, "entity_type": "corporation"})
            own = own_share_choices(usa, corporation)
            if own:
                moves.append({"type": "buy_shares", "entity": corporation.id, "entity_type": "corporation",
                              "choices": own})
        return moves + [{"type": "pass", "entity": player.id}]


def _source(game: BaseGame, share_id: str) -> str | None:
    corporation = game.corporations.get(share_id.rsplit("_", 1)[0])
    share = corporation.share_by_id(share_id) if corporation else None
    if share is None or corporation is None:
        return None
    return "treasury" if share.owner is corporation else "pool" if share.owner is game.pool else None


# --- rules -------------------------------------------------------------------------------------
def start_refusal(game: G18USA, player: Player, corporation: Corporation, price: int | None) -> str | None:
    if corporation.ipoed:
        return f"{corporation.id} has already been started"
    if not game.corporation_sizes():
        return "no new companies may be started in this phase (8)"
    if game.certificate_count(player) >= game.cert_limit:
        return f"{player.name} is at the certificate limit of {game.cert_limit}"
    if price is None or price < ipos.MIN_BID:
        return f"the opening bid for a company is at least ${ipos.MIN_BID} (11.6)"
    most = ipos.max_bid(game, player, None)
    if price > most:
        return f"{player.name} can bid at most ${most} (cash and privates' face value, 11.6)"
    return None


def buy_refusal_or_price(game: G18USA, stock: UsaStockRound, player: Player, share: Share) -> int:
    """Rule 11.3 and 11.4 for one certificate; its price."""
    corporation = share.corporation
    if corporation.id in stock.sold_this_round.get(player.key, set()):
        raise GameError(f"{player.name} sold {corporation.id} this round and may not buy it (11.3)")
    if game.market_area(corporation):
        raise GameError(f"{corporation.id} is in {game.market_area(corporation)}; its shares may not be bought")
    if share.owner is not corporation and share.owner is not game.pool:
        raise GameError(f"{share.id} is neither in the company treasury nor in the open market")
    if share.president or share.percent <= 0:
        raise GameError(f"{share.id} cannot be bought")
    short = corporation.percent_owned_by(player) < 0
    if not short and game.certificate_count(player) >= game.cert_limit:
        raise GameError(f"{player.name} is at the certificate limit of {game.cert_limit} (11.4)")
    if corporation.percent_owned_by(player) + share.percent > game.player_percent_limit(corporation):
        raise GameError(f"a player may hold at most {game.player_percent_limit(corporation)}% of {corporation.id}")
    price = game.share_price(corporation)
    if player.cash < price:
        raise GameError(f"{share.id} costs ${price}; {player.name} has ${player.cash}")
    return price


def buy_share(game: G18USA, player: Player, share: Share, price: int) -> None:
    corporation = share.corporation
    payee = corporation if share.owner is corporation else game.bank
    game.transfer(player, payee, price)
    if corporation.percent_owned_by(player) < 0:
        close_short(game, player, share)
        game.log.append(f"{player.name} buys {share.id} for ${price} and closes a short")
        return
    game.ledger.move(share, player)
    game.log.append(f"{player.name} buys {share.percent}% of {corporation.id} for ${price}")
    game.check_presidency_after_buy(corporation, player)


def buy_choices(game: G18USA, stock: UsaStockRound, player: Player) -> list[dict[str, Any]]:
    found = []
    for corporation in game.corporations.values():
        if not corporation.ipoed:
            continue
        for source in (corporation, game.pool):
            share = next((s for s in corporation.shares if s.owner is source and not s.president
                          and s.percent > 0), None)
            if share is None:
                continue
            try:
                price = buy_refusal_or_price(game, stock, player, share)
            except GameError:
                continue
            found.append({"corporation": corporation.id, "share": share.id, "percent": share.percent,
                          "from": "treasury" if source is corporation else "pool", "price": price})
    return found


def buy_own_shares(game: G18USA, corporation: Corporation, share_ids: tuple[str, ...]) -> None:
    """Rule 11.7: a company buys its own shares from the open market, paying the bank."""
    price = game.share_price(corporation)
    shares = []
    for share_id in share_ids:
        share = corporation.share_by_id(share_id)
        if share is None or share.owner is not game.pool or share.percent <= 0:
            raise GameError(f"{share_id} is not a share of {corporation.id} in the open market")
        shares.append(share)
    cost = price * len(shares)
    if corporation.cash < cost:
        raise GameError(f"{len(shares)} shares cost ${cost}; {corporation.id} has ${corporation.cash}")
    game.transfer(corporation, game.bank, cost)
    for share in shares:
        game.ledger.move(share, corporation)
    game.log.append(f"{corporation.id} buys back {len(shares)} of its shares for ${cost}")


def own_share_choices(game: G18USA, corporation: Corporation) -> list[dict[str, Any]]:
    price = game.share_price(corporation) if corporation.id in game.market.position else 0
    pool = [s for s in corporation.shares if s.owner is game.pool and s.percent > 0]
    if not price or not pool:
        return []
    choices = []
    for count in range(1, len(pool) + 1):
        if price * count > corporation.cash:
            break
        chosen = pool[:count]
        choices.append({"corporation": corporation.id, "shares": [s.id for s in chosen],
                        "percent": sum(s.percent for s in chosen), "price": price * count})
    return choices


# --- short sales (11.2) ------------------------------------------------------------------------
def short_refusal(game: G18USA, stock: UsaStockRound, player: Player, corporation: Corporation) -> str | None:
    if not corporation.ipoed or corporation.closed:
        return f"{corporation.id} has not been started"
    if game.phase_at_least(SHORT_PHASE_END):
        return "short sales are forbidden from phase 8"
    size = game.share_count(corporation)
    if size == 2:
        return f"{corporation.id} is a 2-share company and cannot be sold short (11.2)"
    if corporation.id in stock.bought_now:
        return f"{corporation.id} was started this round (11.2)"
    if corporation.percent_owned_by(player) > 0:
        return f"{player.name} owns shares of {corporation.id} and may not sell it short (11.2)"
    if game.market_area(corporation):
        return f"{corporation.id} is in {game.market_area(corporation)} (11.2)"
    shorts = sum(1 for share in corporation.shares if share.percent < 0)
    if shorts >= size:
        return f"{corporation.id} has been sold short {size} times, the most (11.2)"
    if stock.shorted:
        return "only one share may be sold short each turn (11.2)"
    return None


def sell_short(game: G18USA, player: Player, corporation: Corporation) -> None:
    game.ledger.short(corporation, player, game.pool)
    price = game.share_price(corporation)
    game.transfer(game.bank, player, price)
    game.log.append(f"{player.name} sells a share of {corporation.id} short for ${price}")


def close_short(game: G18USA, player: Player, share: Share) -> None:
    game.ledger.move(share, player)
    game.ledger.close_short(share.corporation, player, share)

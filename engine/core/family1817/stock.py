"""The stock round of the 1817 family (rule 11).

On a turn the active player acts for themselves — sells any number of certificates, sells one
share short, then buys one certificate (which closes a short of that company) — or acts for one
of their companies — takes loans, then buys as many of the company's own shares from the open
market as it likes, which ends the turn — or passes. Its start releases the interest rate and
has the bank close the open market's shorts; its end moves prices (11.8) and liquidates
companies that still owe stations.

A title's stock round is `FamilyStockRound` with `FamilyStockStep()` (or a subclass adding the
title's way of starting companies; it records a company formed this round in `started`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core.actions import Action, BuyShares, Pass, SellShares
from engine.core.entities import Corporation, Holder, Player, Share
from engine.core.family1817.actions import ScrapTrain, Short, TakeLoan
from engine.core.family1817.loans import take_loan
from engine.core.family1817.market import LIQUIDATION, area
from engine.core.family1817.operating import family, loan_moves, scrap_moves, scrap_train
from engine.core.family1817.shorts import (
    bank_closes_market_shorts,
    close_short,
    sell_short,
    short_refusal,
)
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares
from engine.core.step import Handler, Move
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.errors import GameError


@dataclass
class FamilyStockRound(StockRound):
    """The 1817 family's stock round: shares, shorts, starting companies, acting for one."""

    started: set[str] = field(default_factory=set)  # companies formed this round
    acting_for: str | None = None  # the company the active player acts for this turn
    shorted: bool = False
    company_bought: bool = False  # the company acted for has bought its shares this turn

    def start(self, game: Any) -> None:
        game.loans.release_rate()
        bank_closes_market_shorts(family(game))
        super().start(game)

    def end_turn(self, game: Any) -> None:
        if self.acting_for is not None:
            self.turn_state.bought = True  # acting for a company is acting (11.8)
        if self.shorted:
            self.turn_state.sold = True
        self.acting_for = None
        self.shorted = False
        self.company_bought = False
        super().end_turn(game)

    def acted_for_company(self, game: Any, corporation: Corporation) -> None:
        self.acting_for = corporation.id
        self.last_to_act = self.current(game)


def _stock(rnd: Round) -> FamilyStockRound:
    assert isinstance(rnd, FamilyStockRound), f"{type(rnd).__name__} is not a family stock round"
    return rnd


class FamilyStockStep(BuySellParShares):
    PLAYER_ACTIONS: ClassVar[list[str]] = ["sell_shares", "short", "buy_shares", "pass"]
    offers_par = False  # a title's own step starts companies (18USA: the auction of 11.6)

    def handlers(self) -> Mapping[str, Handler]:
        return {"sell_shares": self.process_sell, "buy_shares": self.process_buy_any,
                "short": self.process_short, "pass": self.process_pass,
                "take_loan": self.process_take_loan, "scrap_train": self.process_scrap}

    # --- who may act -------------------------------------------------------------------------
    def companies_of(self, game: Any, player: Player) -> list[Corporation]:
        return [corp for corp in game.corporations.values()
                if corp.ipoed and not corp.closed and corp.president() is player
                and corp.id in game.market.position]

    def may_act_for(self, game: Any, rnd: FamilyStockRound, corporation: Corporation) -> bool:
        player = rnd.current(game)
        if corporation.president() is not player:
            return False
        if rnd.acting_for is not None:
            return rnd.acting_for == corporation.id
        return not (rnd.turn_state.sold or rnd.turn_state.bought or rnd.shorted)

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        stock = _stock(rnd)
        player = stock.current(game)
        if entity is player:
            return self.PLAYER_ACTIONS
        if isinstance(entity, Corporation) and self.may_act_for(game, stock, entity):
            return ["take_loan", "buy_shares", "scrap_train"]
        return []

    def refusal(self, game: Any, rnd: Round, entity: Holder, action: Action) -> str | None:
        stock = _stock(rnd)
        player = stock.current(game)
        if isinstance(entity, Corporation):
            if entity.president() is not player:
                return f"it is {player.name}'s turn; only their companies may act"
            return (f"{player.name} has already acted this turn for "
                    f"{stock.acting_for or 'themselves'}; a turn is for the player or one company (11)")
        return super().refusal(game, rnd, entity, action)

    def waiting(self, game: Any, rnd: Round) -> bool:
        stock = _stock(rnd)
        if stock.turn_state.bought or stock.acting_for or stock.shorted:
            return True
        if stock.turn_state.sold:
            # A player who sold and can do nothing more has ended the turn (as the site does).
            return self.may_do_more_than_pass(game, stock)
        if family(game).asks_liquidation_presidents() and any(
                area(game, corp) == LIQUIDATION for corp in self.companies_of(game, stock.current(game))):
            return True  # the site asks them, though they may only pass (s8600 at 335)
        return self.player_has_a_move(game, stock)

    def may_do_more_than_pass(self, game: Any, stock: StockRound) -> bool:
        """Whether `legal_moves` lists a move other than passing, from the first move found."""
        stock = _stock(stock)
        player = stock.current(game)
        if stock.acting_for is None and not stock.turn_state.bought:
            if self.must_sell_reason(game, stock, player):  # selling is then the only move of their own
                if not self.no_sale_after_short(game, stock):
                    return True
            # Sales first: a player's own certificates are fewer to look through than every company's.
            elif ((not self.no_sale_after_short(game, stock) and any(self.sell_offers(game, stock, player)))
                  or any(self.buy_offers(game, stock, player)) or any(self.short_offers(game, stock, player))):
                return True
        return any(self.company_moves(game, corporation) for corporation in self.companies_of(game, player)
                   if self.may_act_for(game, stock, corporation))

    # --- the player's own actions -----------------------------------------------------------
    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        stock = _stock(rnd)
        if entity is not stock.current(game):
            raise GameError(f"it is {stock.current(game).name}'s turn")
        if stock.acting_for is None:
            self._not_before_selling(game, stock, stock.current(game))
        stock.end_turn(game)

    def process_sell(self, game: Any, rnd: Round, entity: Holder, action: SellShares) -> None:
        stock = _stock(rnd)
        if stock.shorted and not game.sells_after_short():
            raise GameError("shares are sold before selling short, not after (11)")
        if stock.acting_for is not None:
            raise GameError(f"{stock.current(game).name} is acting for {stock.acting_for} this turn")
        super().process_sell(game, rnd, entity, action)

    def process_short(self, game: Any, rnd: Round, entity: Holder, action: Short) -> None:
        stock = _stock(rnd)
        player = stock.current(game)
        if entity is not player:
            raise GameError(f"it is {player.name}'s turn")
        if stock.acting_for is not None:
            raise GameError(f"{player.name} is acting for {stock.acting_for} this turn")
        if stock.shorted:
            raise GameError("one share may be sold short each turn (11.2)")
        if stock.turn_state.bought:
            raise GameError("a short sale comes before buying, not after (11)")
        corporation = game.corporation(action.corporation)
        sell_short(family(game), player, corporation)
        stock.shorted = True
        stock.sold_this_round.setdefault(player.key, set()).add(corporation.id)
        stock.last_to_act = player

    def check_buy(self, game: Any, rnd: StockRound, player: Player, share: Share) -> int:
        corporation = share.corporation
        where = area(game, corporation)
        if where is not None:
            raise GameError(f"{corporation.id} is in {where}; its shares may not be bought (11.3)")
        price = super().check_buy(game, rnd, player, share)
        most = family(game).max_player_percent_of(corporation, player)
        if corporation.percent_owned_by(player) + share.percent > most:
            raise GameError(f"a player may hold at most {most}% of {corporation.id} (11.4)")
        return price

    def process_buy_any(self, game: Any, rnd: Round, entity: Holder, action: BuyShares) -> None:
        if isinstance(entity, Corporation):
            self.process_company_buy(game, rnd, entity, action)
        else:
            self.process_buy(game, rnd, entity, action)

    def process_buy(self, game: Any, rnd: Round, entity: Holder, action: BuyShares) -> None:
        stock = _stock(rnd)
        if stock.acting_for is not None:
            raise GameError(f"{stock.current(game).name} is acting for {stock.acting_for} this turn")
        player = stock.current(game)
        share_id = action.shares[0] if action.shares else ""
        corporation = corporation_of_shares(game, action.shares)
        share = corporation.share_by_id(share_id)
        super().process_buy(game, rnd, entity, action)
        if share is not None:
            close_short(family(game), player, share)
            # Money paid into the treasury first buys the stations the company still owes (11.6).
            family(game).buy_owed_tokens(corporation)

    # --- acting for a company (11.7) ---------------------------------------------------------
    def process_take_loan(self, game: Any, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        stock = _stock(rnd)
        corporation = self._company(game, stock, entity)
        self._not_after_buying(stock, corporation)
        take_loan(family(game), corporation)
        stock.acted_for_company(game, corporation)

    def process_scrap(self, game: Any, rnd: Round, entity: Holder, action: ScrapTrain) -> None:
        stock = _stock(rnd)
        corporation = self._company(game, stock, entity)
        scrap_train(family(game), corporation, action)
        stock.acted_for_company(game, corporation)

    def process_company_buy(self, game: Any, rnd: Round, corporation: Corporation, action: BuyShares) -> None:
        """The company buys its own shares from the open market, paying the bank; the turn ends."""
        stock = _stock(rnd)
        self._company(game, stock, corporation)
        self._not_after_buying(stock, corporation)
        shares = []
        for share_id in action.shares:
            share = corporation.share_by_id(share_id)
            if share is None or share.owner is not game.pool or share.percent <= 0:
                raise GameError(f"{share_id} is not a share of {corporation.id} in the open market")
            if share in shares:
                raise GameError(f"{share_id} is listed twice")
            shares.append(share)
        price = game.share_price(corporation) * sum(corporation.units(share.percent) for share in shares)
        if corporation.cash < price:
            raise GameError(f"{corporation.id} has ${corporation.cash}; the shares cost ${price}")
        game.transfer(corporation, game.bank, price)
        for share in shares:
            game.ledger.move(share, corporation)
        game.log.append(f"{corporation.id} buys {len(shares)} of its shares from the open market for ${price}")
        stock.acted_for_company(game, corporation)
        # As on the site the turn goes on only while the company may still scrap a train; it
        # takes no loan and buys no more after buying (109372 1155, 902).
        stock.company_bought = True
        if not scrap_moves(family(game), corporation):
            stock.end_turn(game)

    @staticmethod
    def _not_after_buying(stock: FamilyStockRound, corporation: Corporation) -> None:
        if stock.company_bought:
            raise GameError(f"{corporation.id} has bought its shares this turn; it may only scrap a train now")

    def _company(self, game: Any, stock: FamilyStockRound, entity: Holder) -> Corporation:
        if not isinstance(entity, Corporation) or not self.may_act_for(game, stock, entity):
            raise GameError(f"{game.describe(entity)} may not act now")
        return entity

    # --- legal moves -------------------------------------------------------------------------
    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Short):
            return bool(choice["corporation"] == action.corporation)
        if isinstance(action, BuyShares) and action.entity_type == "corporation":
            return sorted(choice["shares"]) == sorted(action.shares) or (
                choice.get("percent") == action.percent and len(choice["shares"]) == len(action.shares))
        return super().matches(game, choice, action)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        stock = _stock(rnd)
        player = stock.current(game)
        moves: list[Move] = []
        if stock.acting_for is None:
            moves = [move for move in super().legal_moves(game, rnd) if move["type"] != "par"]
            if self.no_sale_after_short(game, stock):
                moves = [move for move in moves if move["type"] != "sell_shares"]
            shorts = self.short_choices(game, stock, player)
            if shorts:
                moves.insert(len(moves) - 1, {"type": "short", "entity": player.id, "choices": shorts})
        else:
            moves.append({"type": "pass", "entity": player.id})
        for corporation in self.companies_of(game, player):
            if self.may_act_for(game, stock, corporation):
                moves += self.company_moves(game, corporation)
        return moves

    @staticmethod
    def no_sale_after_short(game: Any, stock: FamilyStockRound) -> bool:
        return stock.shorted and not game.sells_after_short()

    def short_choices(self, game: Any, stock: FamilyStockRound, player: Player) -> list[Move]:
        return list(self.short_offers(game, stock, player))

    def short_offers(self, game: Any, stock: FamilyStockRound, player: Player) -> Iterator[Move]:
        """`short_choices` one at a time, each worked out when asked for."""
        if stock.shorted or stock.turn_state.bought or self.must_sell_reason(game, stock, player):
            return
        for corp in game.corporations.values():
            if short_refusal(family(game), player, corp) is None:
                yield {"corporation": corp.id, "price": game.share_price(corp)}

    def company_moves(self, game: Any, corporation: Corporation) -> list[Move]:
        if _stock(game.round).company_bought:
            return scrap_moves(family(game), corporation)
        moves = loan_moves(family(game), corporation) + scrap_moves(family(game), corporation)
        in_market = [s for s in game.ledger.holding_order(corporation, game.pool)
                     if s.percent > 0 and not s.president]
        price = game.share_price(corporation)
        choices = []
        for count in range(1, len(in_market) + 1):
            bundle = in_market[:count]
            cost = price * sum(corporation.units(s.percent) for s in bundle)
            if cost > corporation.cash:
                break
            choices.append({"shares": [s.id for s in bundle], "percent": sum(s.percent for s in bundle),
                            "price": cost})
        if choices:
            moves.append({"type": "buy_shares", "entity": corporation.id, "entity_type": "corporation",
                          "choices": choices})
        return moves

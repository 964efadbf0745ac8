"""18USA stock round turns (rule 11) on the 1817 family's stock step: a player sells (11.1),
sells one share short (11.2), then buys one certificate (11.3) or starts a company (11.6, the
`bid` that opens its auction); or acts for one of their companies (11.7, the family's)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, Bid, BuyShares
from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.shorts import close_short
from engine.core.family1817.stock import FamilyStockStep
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.stock_round import StockRound
from engine.errors import GameError
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa import president_sales
from engine.titles.g18usa.setup import PRESIDENT_ABOVE_60
from engine.titles.g18usa.stock import _stock, drop_unable_bidders
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA


class UsaStockStep(FamilyStockStep):
    PLAYER_ACTIONS: ClassVar[list[str]] = ["sell_shares", "short", "buy_shares", "bid", "pass"]

    def handlers(self) -> Mapping[str, Handler]:
        return {**super().handlers(), "bid": self.process_bid}

    def process_bid(self, game: Any, rnd: Round, entity: Holder, action: Bid) -> None:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        if entity is not player:
            raise GameError(f"it is {player.name}'s turn")
        if stock.acting_for is not None:
            raise GameError(f"{player.name} is acting for {stock.acting_for} this turn")
        if stock.turn_state.bought:
            raise GameError("only one certificate may be bought or company started each turn")
        corporation = usa.corporation(action.corporation)
        reason = start_refusal(usa, player, corporation, action.price)
        if reason:
            raise GameError(reason)
        assert action.price is not None
        bidders = [p for p in usa.players_from(player)[1:] + [player] if not p.bankrupt]
        stock.ipo = ipos.Ipo(corporation, player, action.price, player, bidders)
        drop_unable_bidders(usa, stock.ipo, ipos.best_open_subsidy(usa))
        stock.last_to_act = player
        game.log.append(f"{player.name} starts the auction for {corporation.id} at ${action.price}")

    # --- rule 17's variant: buying from a president above 60% (president_sales.py) -----------
    def buy_offers(self, game: Any, rnd: StockRound, player: Player) -> Iterator[Move]:
        yield from super().buy_offers(game, rnd, player)
        for corporation in game.corporations.values():
            share = president_sales.share_from_president(_usa(game), corporation, player)
            if share is None:
                continue
            try:
                price = president_sales.check_buy_from_president(_usa(game), rnd, player, share)
            except GameError:
                continue
            yield {"corporation": corporation.id, "share": share.id, "from": "president",
                   "percent": share.percent, "price": price}

    def process_buy(self, game: Any, rnd: Round, entity: Holder, action: BuyShares) -> None:
        stock = _stock(rnd)
        player = stock.current(game)
        corporation = game.corporations.get(action.shares[0].rsplit("_", 1)[0]) if action.shares else None
        share = corporation.share_by_id(action.shares[0]) if corporation is not None else None
        if (share is None or not isinstance(share.owner, Player) or share.owner is player
                or not game.option(PRESIDENT_ABOVE_60)):
            super().process_buy(game, rnd, entity, action)
            return
        if stock.acting_for is not None:
            raise GameError(f"{player.name} is acting for {stock.acting_for} this turn")
        self._not_before_selling(game, stock, player)
        if len(action.shares) != 1:
            raise GameError("buy one certificate at a time")
        president_sales.buy_from_president(_usa(game), stock, player, share)
        close_short(game, player, share)
        stock.turn_state.bought = True
        stock.last_to_act = player
        stock.end_turn(game)

    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Bid):
            return (choice["corporation"] == action.corporation and action.price is not None
                    and choice["min"] <= action.price <= choice["max"])
        return super().matches(game, choice, action)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        usa = _usa(game)
        stock = _stock(rnd)
        player = stock.current(game)
        moves = super().legal_moves(game, rnd)
        if stock.acting_for is None and not stock.turn_state.bought:
            starts = list(self.start_offers(usa, player))
            if starts:
                at = next((i for i, move in enumerate(moves) if move["type"] == "pass"), len(moves))
                moves.insert(at, {"type": "bid", "entity": player.id, "choices": starts})
        return moves

    def may_do_more_than_pass(self, game: Any, stock: StockRound) -> bool:
        stock = _stock(stock)
        return super().may_do_more_than_pass(game, stock) or (
            stock.acting_for is None and not stock.turn_state.bought
            and any(self.start_offers(_usa(game), stock.current(game))))

    @staticmethod
    def start_offers(game: G18USA, player: Player) -> Iterator[Move]:
        """The companies `player` may start now (11.6), each worked out when asked for."""
        for corp in game.corporations.values():
            if start_refusal(game, player, corp, ipos.MIN_BID) is None:
                yield {"corporation": corp.id, "min": ipos.MIN_BID, "max": ipos.opening_max_bid(game, player)}


def start_refusal(game: G18USA, player: Player, corporation: Corporation, price: int | None) -> str | None:
    """Rule 11.6: why `player` may not open an auction for `corporation` at `price` now."""
    if corporation.ipoed:
        return f"{corporation.id} has already been started"
    if not game.corporation_sizes():
        return "no new companies may be started in this phase (8)"
    if game.certificate_count(player) >= game.cert_limit:
        return f"{player.name} is at the certificate limit of {game.cert_limit}"
    if price is None or price < ipos.MIN_BID:
        return f"the opening bid for a company is at least ${ipos.MIN_BID} (11.6)"
    most = ipos.opening_max_bid(game, player)
    if price > most:
        return (f"{player.name} can bid at most ${most} (cash, privates' face value and the best cash "
                f"subsidy still open, 11.6)")
    return None

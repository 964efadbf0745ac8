"""The stock round's step (1829 family): sell any number of certificates, then buy one
certificate or start a company, or pass."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, BuyShares, Par, Pass, SellShares
from engine.core.entities import Holder, Player, Share
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares, execute_sale, plan_sale, sale_offers
from engine.core.step import Handler, Move, Step, how_to_start
from engine.core.stock_round import StockRound
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame

STOCK_ACTIONS = ["sell_shares", "buy_shares", "par", "pass"]


def _stock(rnd: Round) -> StockRound:
    assert isinstance(rnd, StockRound)
    return rnd


def share_choice_matches(game: BaseGame, choice: Mapping[str, Any], shares: tuple[str, ...],
                         percent: int | None) -> bool:
    """A sale or purchase of several certificates: the same certificates (or the same company),
    and the same percent, since the same certificates can make different amounts."""
    wanted = choice.get("percent") if percent is None else percent
    return wanted == choice.get("percent") and (
        sorted(choice["shares"]) == sorted(shares) or _corp(choice["shares"]) == _corp(shares))


def _corp(share_ids: Any) -> str | None:
    names = {share_id.rsplit("_", 1)[0] for share_id in share_ids}
    return names.pop() if len(names) == 1 else None


def share_source(game: BaseGame, shares: tuple[str, ...]) -> str | None:
    """Where the (single) certificate bought lies now: "treasury", "pool" or None.

    Any certificate from the offered source matches, as logs may name another share id than the
    one offered; a president's certificate never does (it is bought with par).
    """
    corporation = game.corporations.get(_corp(shares) or "")
    if corporation is None or len(shares) != 1:
        return None
    share = corporation.share_by_id(shares[0])
    if share is None or share.president:
        return None
    if share.owner is corporation:
        return "treasury"
    return "pool" if share.owner is game.pool else None


class BuySellParShares(Step):
    key = "stock"
    label = "buy and sell shares"
    # Whether the legal moves offer par moves (a family that starts companies otherwise does not
    # have them worked out after every action).
    offers_par = True
    # Whether this class lists moves in `legal_moves` below the class that last said how to find
    # the first one (`may_do_more_than_pass`): then only the full listing has every move.
    lists_moves_not_found_first: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)

        def owner(name: str) -> type:
            return next(base for base in cls.__mro__ if name in vars(base))

        listing, finding = owner("legal_moves"), owner("may_do_more_than_pass")
        cls.lists_moves_not_found_first = listing is not finding and issubclass(listing, finding)

    def handlers(self) -> Mapping[str, Handler]:
        return {"sell_shares": self.process_sell, "buy_shares": self.process_buy,
                "par": self.process_par, "pass": self.process_pass}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return STOCK_ACTIONS if entity is _stock(rnd).current(game) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        """Out of turn, a share action is refused by whose turn it is; anything else, and any
        action while another step holds the round (a title's own: the size of a company just
        won, a contribution owed), is left to the round, which names who acts and what the step
        in play allows."""
        if action.type not in self.handlers() or self not in rnd.active_steps(game):
            return None
        player = _stock(rnd).current(game)
        if entity is not player:
            return f"it is {player.name}'s turn in the stock round"
        return None

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        """A player who can neither sell, buy nor start a company has nothing to decide: the
        turn ends by itself, also after a sale that left nothing more to do."""
        return self.player_has_a_move(game, _stock(rnd))

    def player_has_a_move(self, game: BaseGame, stock: StockRound) -> bool:
        """Whether `legal_moves` lists a move other than passing: from the first move found, unless
        a subclass lists moves that its `may_do_more_than_pass` does not know of."""
        if self.lists_moves_not_found_first:
            return any(move["type"] != "pass" for move in self.legal_moves(game, stock))
        return self.may_do_more_than_pass(game, stock)

    def may_do_more_than_pass(self, game: BaseGame, stock: StockRound) -> bool:
        """Whether `legal_moves` lists a move other than passing, from the first move found
        (asked after every action; every move is a non-empty dict, so `any` stops at the first).
        A subclass that adds moves to `legal_moves` extends this too."""
        if stock.turn_state.bought:
            return False
        player = stock.current(game)
        return (any(self.buy_offers(game, stock, player)) or any(self.sell_offers(game, stock, player))
                or (self.offers_par and any(self.par_offers(game, player))))

    def skip(self, game: BaseGame, rnd: Round) -> None:
        stock = _stock(rnd)
        if stock.turn_state.sold or stock.turn_state.bought:
            game.log.append(f"{stock.current(game).name} can do nothing more this turn")
        else:
            game.log.append(f"{stock.current(game).name} has no valid actions and passes")
        stock.end_turn(game)

    # --- rules -------------------------------------------------------------------------------
    def must_sell_reason(self, game: BaseGame, rnd: StockRound, player: Player) -> str | None:
        """Rule 11.1: a player over the certificate limit who can sell must do so first."""
        count = game.certificate_count(player)
        if count <= game.cert_limit or not any(self.sell_offers(game, rnd, player)):
            return None
        return (f"{player.name} holds {count} certificates, more than the limit of {game.cert_limit}, "
                f"and must sell first (11.1)")

    def legal_sells(self, game: BaseGame, rnd: StockRound, player: Player) -> list[Move]:
        return list(self.sell_offers(game, rnd, player))

    def sell_offers(self, game: BaseGame, rnd: StockRound, player: Player) -> Iterator[Move]:
        """`legal_sells` one at a time, each worked out when asked for."""
        if rnd.turn_state.bought:
            return
        yield from sale_offers(game, player, prices=self.held_prices(game, rnd))

    @staticmethod
    def held_prices(game: BaseGame, rnd: StockRound) -> dict[str, int] | None:
        """Prices a further sale in this turn fetches (`turn_sales_at_first_price`)."""
        return rnd.turn_state.first_sale_prices if game.turn_sales_at_first_price() else None

    def check_buy(self, game: BaseGame, rnd: StockRound, player: Player, share: Share) -> int:
        """Validate buying one certificate; return its price."""
        corporation = share.corporation
        if rnd.turn_state.bought:
            raise GameError("only one certificate may be bought each turn")
        if corporation.id in rnd.sold_this_round.get(player.key, set()):
            raise GameError(f"{player.name} sold {corporation.id} this round and may not buy it back")
        if share.owner is corporation:
            if not corporation.ipoed:
                raise GameError(f"{corporation.id} has not been started{how_to_start(game, player)}")
        elif share.owner is not game.pool:
            raise GameError(f"{share.id} is neither in the company treasury nor in the bank pool")
        if share.percent <= 0:
            raise GameError(f"{share.id} is a short share; it is not bought")
        if share.president and not game.may_buy_president_certificate(share):
            raise GameError(f"the president's certificate is not bought as a share"
                            f"{how_to_start(game, player, '; it comes')}")
        if not game.buy_within_certificate_limit(player, share):
            raise GameError(f"{player.name} is at the certificate limit of {game.cert_limit}")
        after = corporation.percent_owned_by(player) + share.percent
        most = game.max_player_percent_of(corporation, player)
        if after > most:
            raise GameError(f"a player may hold at most {most}% of {corporation.id}")
        price = game.share_price(corporation) * corporation.units(share.percent)
        if player.cash < price:
            raise GameError(f"{share.id} costs ${price}; {player.name} has ${player.cash}")
        return price

    def _not_before_selling(self, game: BaseGame, rnd: StockRound, player: Player) -> None:
        reason = self.must_sell_reason(game, rnd, player)
        if reason:
            raise GameError(reason)

    # --- handlers ----------------------------------------------------------------------------
    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        stock = _stock(rnd)
        self._not_before_selling(game, stock, stock.current(game))
        stock.end_turn(game)

    def process_sell(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        stock = _stock(rnd)
        player = stock.current(game)
        if stock.turn_state.bought:
            raise GameError("shares are sold before buying, not after")
        corporation = corporation_of_shares(game, action.shares)
        plan = plan_sale(game, player, corporation, action.shares, action.percent)
        held = self.held_prices(game, stock)
        if held is not None:
            # 11.1: each share sold fetches the original price, also in a second sale this turn.
            plan = replace(plan, price=held.get(corporation.id, plan.price))
            held.setdefault(corporation.id, plan.price)
        execute_sale(game, player, plan, action.shares)
        stock.sold_this_round.setdefault(player.key, set()).add(corporation.id)
        stock.turn_state.sold = True
        stock.last_to_act = player

    def process_buy(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyShares) -> None:
        stock = _stock(rnd)
        player = stock.current(game)
        self._not_before_selling(game, stock, player)
        if len(action.shares) != 1:
            raise GameError("buy one certificate at a time")
        corporation = corporation_of_shares(game, action.shares)
        share = corporation.share_by_id(action.shares[0])
        if share is None:
            raise GameError(f"{action.shares[0]} is not a certificate of {corporation.id}")
        price = self.check_buy(game, stock, player, share)
        source = share.owner
        game.transfer(player, corporation if source is corporation else game.bank, price)
        game.ledger.move(share, player)
        game.log.append(f"{player.name} buys {share.percent}% of {corporation.id} for ${price}")
        if share.president:
            game.president_certificate_bought(corporation, player, source)
        game.check_presidency_after_buy(corporation, player)
        game.check_float(corporation)
        stock.turn_state.bought = True
        stock.last_to_act = player
        stock.end_turn(game)

    def process_par(self, game: BaseGame, rnd: Round, entity: Holder, action: Par) -> None:
        stock = _stock(rnd)
        player = stock.current(game)
        self._not_before_selling(game, stock, player)
        corporation = game.corporation(action.corporation)
        if stock.turn_state.bought:
            raise GameError("only one certificate may be bought each turn")
        cell = game.market.by_id.get(action.share_price)
        game.check_par(player, corporation, cell)
        if game.certificate_count(player) >= game.cert_limit:
            raise GameError(f"{player.name} is at the certificate limit of {game.cert_limit}")
        assert cell is not None
        game.par_corporation(player, corporation, cell, pay=True)
        stock.turn_state.bought = True
        stock.last_to_act = player
        stock.end_turn(game)

    # --- legal moves -------------------------------------------------------------------------
    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, SellShares | BuyShares) and "shares" in choice:
            return share_choice_matches(game, choice, action.shares, action.percent)
        if isinstance(action, BuyShares):
            return bool(choice["share"] in action.shares) or (
                choice["corporation"] == _corp(action.shares) and choice["from"] == share_source(game, action.shares))
        if isinstance(action, Par):
            return bool(choice["corporation"] == action.corporation and choice["share_price"] == action.share_price)
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        stock = _stock(rnd)
        player = stock.current(game)
        moves: list[Move] = []
        if self.must_sell_reason(game, stock, player):
            return [{"type": "sell_shares", "entity": player.id, "choices": self.legal_sells(game, stock, player)}]
        if not stock.turn_state.bought:
            sells = self.legal_sells(game, stock, player)
            if sells:
                moves.append({"type": "sell_shares", "entity": player.id, "choices": sells})
            buys = self.buy_choices(game, stock, player)
            if buys:
                moves.append({"type": "buy_shares", "entity": player.id, "choices": buys})
            pars = self.par_choices(game, player) if self.offers_par else []
            if pars:
                moves.append({"type": "par", "entity": player.id, "choices": pars})
        moves.append({"type": "pass", "entity": player.id})
        return moves

    def buy_choices(self, game: BaseGame, rnd: StockRound, player: Player) -> list[Move]:
        return list(self.buy_offers(game, rnd, player))

    def buy_offers(self, game: BaseGame, rnd: StockRound, player: Player) -> Iterator[Move]:
        """`buy_choices` one at a time, each worked out when asked for."""
        for corporation in game.corporations.values():
            by_id = sorted(corporation.shares, key=lambda s: s.id)
            for source in (corporation, game.pool):
                # An ordinary certificate, and a president's one a title lets be bought back (the
                # 1817 family's dumped one): each may be bought when the other may not.
                ordinary = next((s for s in by_id if s.owner is source and s.percent > 0 and not s.president), None)
                president = next((s for s in by_id if s.owner is source and s.president
                                  and game.may_buy_president_certificate(s)), None)
                for share in (president, ordinary):
                    if share is None:
                        continue
                    try:
                        price = self.check_buy(game, rnd, player, share)
                    except GameError:
                        continue
                    yield {"corporation": corporation.id, "share": share.id,
                           "from": "treasury" if source is corporation else "pool",
                           "percent": share.percent, "price": price}

    def par_choices(self, game: BaseGame, player: Player) -> list[Move]:
        return list(self.par_offers(game, player))

    def par_offers(self, game: BaseGame, player: Player) -> Iterator[Move]:
        """`par_choices` one at a time, each worked out when asked for."""
        if game.certificate_count(player) >= game.cert_limit:
            return
        cells = game.market.par_cells()
        for corporation in game.corporations.values():
            if corporation.ipoed:  # refused by check_par at every price: passed over at once
                continue
            for cell in cells:
                try:
                    game.check_par(player, corporation, cell)
                except GameError:
                    continue
                yield {"corporation": corporation.id, "share_price": cell.engine_id,
                       "price": cell.price, "cost": game.par_cost(corporation, cell.price)}

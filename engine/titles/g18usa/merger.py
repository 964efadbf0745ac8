"""18USA merger and acquisition rounds (rule 14): conversions and mergers in operating order,
then company sales in reverse operating order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engine.core.actions import Action, BuyShares, Pass, SellShares
from engine.core.entities import Corporation, Holder, Player
from engine.core.round import Round, RoundSpec
from engine.core.share_sales import corporation_of_shares, execute_sale, plan_sale, sale_choices
from engine.core.step import Handler, Move, Step
from engine.errors import GameError
from engine.titles.g18usa import loans
from engine.titles.g18usa.actions import Convert, TakeLoan

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA


def _usa(game: BaseGame) -> G18USA:
    from engine.titles.g18usa.game import G18USA

    assert isinstance(game, G18USA)
    return game


@dataclass
class MergerRound(Round):
    """Each company in operating order may convert, merge or pass (14.1)."""

    name: ClassVar[str] = "Merger and Conversion Round"
    order: list[str] = field(default_factory=list)
    index: int = 0
    involved: set[str] = field(default_factory=set)  # converted or merged this round (14.1)
    post: PostConversion | None = None

    def start(self, game: BaseGame) -> None:
        usa = _usa(game)
        usa.merger_involved = self.involved
        self.order = [corp.id for corp in usa.operating_order() if usa.market_area(corp) is None]
        self.index = 0
        game.log.append(f"{self.title(game)}")
        if not self.order:
            self.finished = True

    def current_entity(self, game: BaseGame) -> Holder | None:
        if self.index >= len(self.order):
            return None
        return game.corporations[self.order[self.index]]

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def next_company(self) -> None:
        self.index += 1
        if self.index >= len(self.order):
            self.finished = True


@dataclass
class PostConversion:
    """Rule 14.1.3: after a conversion the president buys from the treasury, then each other
    player in turn buys one share or sells; then the company may take loans and buys stations."""

    corporation: Corporation
    players: list[Player]  # still to decide, the next first
    president_done: bool = False
    trading_done: bool = False


def _merger(rnd: Round) -> MergerRound:
    assert isinstance(rnd, MergerRound)
    return rnd


def convertible(game: G18USA, rnd: MergerRound, corporation: Corporation) -> str | None:
    if corporation.id in rnd.involved:
        return f"{corporation.id} has already converted or merged this round (14.1)"
    if game.market_area(corporation):
        return f"{corporation.id} is in {game.market_area(corporation)} and may not convert (14)"
    if game.share_count(corporation) == 10:
        return f"{corporation.id} already has 10 shares"
    return None


def convert(game: G18USA, corporation: Corporation) -> None:
    """2 -> 5 or 5 -> 10 shares: every certificate keeps its shares at the new percent, and the
    new shares go to the treasury (14.1.1)."""
    old = game.share_count(corporation)
    new = 5 if old == 2 else 10
    unit = 100 // new
    for share in corporation.shares:
        share.percent = share.percent // corporation.share_percent * unit
    corporation.share_percent = unit
    have = sum(share.percent for share in corporation.shares if share.percent > 0)
    index = 1 + max(int(share.id.rsplit("_", 1)[1]) for share in corporation.shares if share.percent > 0)
    from engine.core.entities import Share

    while have < 100:
        share = Share(f"{corporation.id}_{index}", corporation, unit, False, corporation)
        corporation.shares.append(share)
        game.ledger.move(share, corporation)
        have += unit
        index += 1
    game.log.append(f"{corporation.id} converts to {new} shares")


class ConversionStep(Step):
    key = "conversion"
    label = "convert or merge"

    def handlers(self) -> Mapping[str, Handler]:
        return {"convert": self.process_convert, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return _merger(rnd).post is None

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        if entity is not rnd.current_entity(game):
            return []
        assert isinstance(entity, Corporation)
        if convertible(_usa(game), _merger(rnd), entity) is None:
            return ["convert", "pass"]
        return ["pass"]

    def process_convert(self, game: BaseGame, rnd: Round, entity: Holder, action: Convert) -> None:
        usa = _usa(game)
        merger = _merger(rnd)
        assert isinstance(entity, Corporation)
        reason = convertible(usa, merger, entity)
        if reason:
            raise GameError(reason)
        convert(usa, entity)
        merger.involved.add(entity.id)
        president = entity.president()
        others = [p for p in usa.players_from(president)[1:] if not p.bankrupt] if president else []
        merger.post = PostConversion(entity, others)
        settle_post(usa, merger)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        assert isinstance(rnd, MergerRound)
        rnd.next_company()

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        current = rnd.current_entity(game)
        if isinstance(current, Corporation) and entity is not current:
            return f"it is {current.id}'s turn in the merger round"
        return None


@dataclass
class AcquisitionRound(Round):
    """Liquidations, acquisitions and friendly sales in reverse operating order (14.2). Only the
    friendly-sale offers are played so far: each president is asked, company by company."""

    name: ClassVar[str] = "Acquisition Round"
    order: list[str] = field(default_factory=list)
    index: int = 0

    def start(self, game: BaseGame) -> None:
        usa = _usa(game)
        involved = usa.merger_involved
        self.order = [corp.id for corp in reversed(usa.operating_order())
                      if corp.id not in involved and usa.market_area(corp) is None and corp.president()]
        self.index = 0
        game.log.append(self.title(game))
        if not self.order:
            self.finished = True

    def current_entity(self, game: BaseGame) -> Holder | None:
        if self.index >= len(self.order):
            return None
        return game.corporations[self.order[self.index]].president()

    def company_on_offer(self, game: BaseGame) -> Corporation:
        return game.corporations[self.order[self.index]]

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def next_company(self) -> None:
        self.index += 1
        if self.index >= len(self.order):
            self.finished = True


class FriendlyOfferStep(Step):
    """Rule 14.2.3: the president may offer the company for a friendly sale, or pass."""

    key = "friendly_offer"
    label = "offer a company for sale"

    def handlers(self) -> Mapping[str, Handler]:
        return {"pass": self.process_pass}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["pass"] if entity is rnd.current_entity(game) else []

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        assert isinstance(rnd, AcquisitionRound)
        rnd.next_company()


def _treasury_share(corporation: Corporation) -> object:
    return next((s for s in corporation.shares if s.owner is corporation and s.percent > 0), None)


def can_buy_from_treasury(game: G18USA, player: Player, corporation: Corporation) -> bool:
    share = _treasury_share(corporation)
    if share is None or player.cash < game.share_price(corporation):
        return False
    if game.certificate_count(player) >= game.cert_limit:
        return False
    return corporation.percent_owned_by(player) + corporation.share_percent <= game.player_percent_limit(corporation)


def settle_post(game: G18USA, rnd: MergerRound) -> None:
    """Pass over the players who can do nothing in the post-conversion trading."""
    post = rnd.post
    if post is None:
        return
    corporation = post.corporation
    if not post.president_done:
        president = corporation.president()
        if president is None or not can_buy_from_treasury(game, president, corporation):
            post.president_done = True
    while post.president_done and post.players:
        player = post.players[0]
        if can_buy_from_treasury(game, player, corporation) or sale_choices(game, player):
            return
        post.players.pop(0)
    if post.president_done and not post.players:
        post.trading_done = True


def finish_post(game: G18USA, rnd: MergerRound) -> None:
    """The converted company buys its extra stations (14.1.1), or goes into liquidation."""
    from engine.titles.g18usa.finance import liquidate

    post = rnd.post
    assert post is not None
    corporation = post.corporation
    extra = 1 if game.share_count(corporation) == 5 else 2
    extra = max(0, min(extra, 8 - corporation.token_count))
    cost = 50 * extra
    if corporation.cash >= cost:
        game.transfer(corporation, game.bank, cost)
        corporation.token_count += extra
    else:
        liquidate(game, corporation, "it cannot pay for the stations of its conversion")
    rnd.post = None
    rnd.next_company()


class PostConversionStep(Step):
    """Rule 14.1.3: buying from the treasury (the president any number, the others one each) or
    selling, each player once in turn from the president's left."""

    key = "post_conversion"
    label = "trade shares after the conversion"

    def handlers(self) -> Mapping[str, Handler]:
        return {"buy_shares": self.process_buy, "sell_shares": self.process_sell, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        post = _merger(rnd).post
        return post is not None and not post.trading_done

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        post = _merger(rnd).post
        assert post is not None
        return post.corporation.president() if not post.president_done else post.players[0]

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["buy_shares", "sell_shares", "pass"] if entity is self.acting_entity(game, rnd) else []

    def _next(self, game: G18USA, rnd: MergerRound) -> None:
        post = rnd.post
        assert post is not None
        if not post.president_done:
            post.president_done = True
        elif post.players:
            post.players.pop(0)
        settle_post(game, rnd)

    def process_buy(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyShares) -> None:
        usa = _usa(game)
        merger = _merger(rnd)
        post = merger.post
        assert post is not None and isinstance(entity, Player)
        corporation = post.corporation
        for share_id in action.shares:
            share = corporation.share_by_id(share_id)
            if share is None or share.owner is not corporation:
                raise GameError(f"{share_id} is not in {corporation.id}'s treasury")
            if not can_buy_from_treasury(usa, entity, corporation):
                raise GameError(f"{entity.name} cannot buy {share_id}")
            price = usa.share_price(corporation)
            usa.transfer(entity, corporation, price)
            usa.ledger.move(share, entity)
            usa.check_presidency_after_buy(corporation, entity)
            game.log.append(f"{entity.name} buys {share.id} for ${price}")
        if post.president_done or not can_buy_from_treasury(usa, entity, corporation):
            self._next(usa, merger)

    def process_sell(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        usa = _usa(game)
        assert isinstance(entity, Player)
        corporation = corporation_of_shares(game, action.shares)
        plan = plan_sale(usa, entity, corporation, action.shares, action.percent)
        execute_sale(usa, entity, plan, action.shares)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self._next(_usa(game), _merger(rnd))


class PostConversionLoansStep(Step):
    """After the trading, the company may take loans, then buys its stations."""

    key = "post_conversion_loans"
    label = "take loans after the conversion"

    def handlers(self) -> Mapping[str, Handler]:
        return {"take_loan": self.process_take, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        post = _merger(rnd).post
        return post is not None and post.trading_done

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        post = _merger(rnd).post
        assert post is not None
        return post.corporation

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        post = _merger(rnd).post
        if post is None or entity is not post.corporation:
            return []
        return ["take_loan", "pass"] if loans.loan_refusal(_usa(game), post.corporation) is None else []

    def skip(self, game: BaseGame, rnd: Round) -> None:
        finish_post(_usa(game), _merger(rnd))

    def process_take(self, game: BaseGame, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        assert isinstance(entity, Corporation)
        loans.take_loan(_usa(game), entity)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        finish_post(_usa(game), _merger(rnd))


def merger_round_spec() -> RoundSpec:
    return RoundSpec(MergerRound, (PostConversionLoansStep(), PostConversionStep(), ConversionStep()))


def acquisition_round_spec() -> RoundSpec:
    return RoundSpec(AcquisitionRound, (FriendlyOfferStep(),))


def _moves(entity: Corporation) -> list[Move]:
    return [{"type": "pass", "entity": entity.id}]

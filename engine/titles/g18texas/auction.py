"""18Texas section 10: the simultaneous private company auction, then the Jay Gould par."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from engine.core.actions import Action, Bid, Par
from engine.core.entities import Company, Holder, Player
from engine.core.round import Round
from engine.core.step import Handler, Move, Step, command_word
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame

BID_STEP = 5


@dataclass
class HighBid:
    player: Player
    price: int


@dataclass
class AuctionRound(Round):
    """Players bid in turn until every private has exactly one bid, then all pay at once."""

    name: ClassVar[str] = "Auction Round"
    current_index: int = 0
    bids: dict[str, HighBid] = field(default_factory=dict)
    last_bidder: Player | None = None
    settled: bool = False

    def start(self, game: BaseGame) -> None:
        game.log.append("Private company auction")
        self.current_index = 0

    def current(self, game: BaseGame) -> Player:
        return game.players[self.current_index]

    def current_entity(self, game: BaseGame) -> Holder | None:
        return self.current(game)


def _auction(rnd: Round) -> AuctionRound:
    assert isinstance(rnd, AuctionRound)
    return rnd


@runtime_checkable
class JayGouldRules(Protocol):
    """What the auction asks of 18Texas's game (game.py), which assembles its rounds from these
    steps: the steps name this, not the game class, so the two files do not import each other."""

    jay_gould_corporation: str

    def on_private_bought(self, company: Company) -> None: ...

    def pending_jay_gould_par(self) -> Player | None: ...

    def jay_gould_par(self, player: Player, cell: Any) -> None: ...


def _texas(game: BaseGame) -> JayGouldRules:
    assert isinstance(game, JayGouldRules)
    return game


class PrivateBidStep(Step):
    """Rule 10: each player in turn bids on one private; a player holding a high bid is passed
    over; when every private has a bid, each goes to its bidder."""

    key = "bid"
    label = "bid on a private company"

    def handlers(self) -> Mapping[str, Handler]:
        return {"bid": self.process_bid}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return not _auction(rnd).settled

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["bid"] if entity is _auction(rnd).current(game) else []

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        return True  # every player must bid (rule 10)

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        player = _auction(rnd).current(game)
        if entity is not player:
            return f"it is {player.name}'s turn to bid"
        return f"in the private auction each player must bid (rule 10); what you can do now: {command_word(game, 'bid', player)}"

    def minimum_bid(self, game: BaseGame, rnd: AuctionRound, company_id: str) -> int:
        bid = rnd.bids.get(company_id)
        if bid is None:
            return game.company(company_id).value
        return bid.price + BID_STEP

    def check_bid(self, game: BaseGame, rnd: AuctionRound, player: Player, company_id: str,
                  price: int | None) -> int:
        company = game.companies.get(company_id)
        if company is None or company.owner is not None or company.closed:
            names = ", ".join(c for c in game.companies if game.companies[c].owner is None)
            raise GameError(f"{company_id!r} is not up for auction; the privates are {names}")
        if price is None:
            raise GameError("a bid is a whole number of dollars")
        minimum = self.minimum_bid(game, rnd, company_id)
        if price < minimum:
            what = "face value" if company_id not in rnd.bids else f"${BID_STEP} over the current bid"
            raise GameError(f"a bid on {company_id} must be at least ${minimum} ({what})")
        if not game.option("site_auction_bids") and price % BID_STEP:
            raise GameError(f"bids are multiples of ${BID_STEP} (rule 10); ${price} is not")
        if price > player.cash:
            raise GameError(f"{player.name} has only ${player.cash}")
        return price

    def process_bid(self, game: BaseGame, rnd: Round, entity: Holder, action: Bid) -> None:
        auction = _auction(rnd)
        player = auction.current(game)
        company_id = str(action.company)
        price = self.check_bid(game, auction, player, company_id, action.price)
        auction.bids[company_id] = HighBid(player, price)
        auction.last_bidder = player
        game.log.append(f"{player.name} bids ${price} for {company_id}")
        if len(auction.bids) == sum(1 for c in game.companies.values() if c.owner is None):
            self._settle(game, auction)
            return
        self._next_bidder(game, auction)

    def _next_bidder(self, game: BaseGame, rnd: AuctionRound) -> None:
        for _ in range(len(game.players)):
            rnd.current_index = (rnd.current_index + 1) % len(game.players)
            if not any(bid.player is game.players[rnd.current_index] for bid in rnd.bids.values()):
                return

    def _settle(self, game: BaseGame, rnd: AuctionRound) -> None:
        for company_id, bid in rnd.bids.items():
            company = game.company(company_id)
            game.transfer(bid.player, game.bank, bid.price)
            company.owner = bid.player
            game.log.append(f"{bid.player.name} buys {company.name} for ${bid.price}")
            _texas(game).on_private_bought(company)
        assert rnd.last_bidder is not None
        game.priority_index = game.players.index(game.player_left_of(rnd.last_bidder))
        rnd.settled = True

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if not isinstance(action, Bid):
            return False
        price = action.price
        return choice["company"] == action.company and price is not None and \
            choice["min"] <= price <= choice["max"] and (price - choice["min"]) % choice["step"] == 0

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        auction = _auction(rnd)
        player = auction.current(game)
        choices = []
        for company_id, company in game.companies.items():
            if company.owner is not None or company.closed:
                continue
            minimum = self.minimum_bid(game, auction, company_id)
            if minimum <= player.cash:
                choices.append({"company": company_id, "min": minimum, "max": player.cash,
                                "step": 1 if game.option("site_auction_bids") else BID_STEP})
        return [{"type": "bid", "entity": player.id, "choices": choices}]


class JayGouldParStep(Step):
    """Rule 10: the buyer of the Jay Gould private sets its company's par price at once."""

    key = "jay_gould_par"
    label = "set the Jay Gould par price"

    def handlers(self) -> Mapping[str, Handler]:
        return {"par": self.process_par}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return _texas(game).pending_jay_gould_par() is not None

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        return _texas(game).pending_jay_gould_par()

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["par"] if entity is self.acting_entity(game, rnd) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        texas = _texas(game)
        owner = texas.pending_jay_gould_par()
        if owner is None:
            return None
        return f"{owner.name} must first set the par price of {texas.jay_gould_corporation} (Jay Gould)"

    def process_par(self, game: BaseGame, rnd: Round, entity: Holder, action: Par) -> None:
        texas = _texas(game)
        owner = texas.pending_jay_gould_par()
        assert owner is not None
        if action.corporation != texas.jay_gould_corporation:
            raise GameError(f"the Jay Gould company is {texas.jay_gould_corporation}")
        texas.jay_gould_par(owner, game.market.by_id.get(action.share_price))

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        texas = _texas(game)
        owner = texas.pending_jay_gould_par()
        if owner is None:
            return []
        cells = game.market.par_cells()
        choices = [{"corporation": texas.jay_gould_corporation, "share_price": cell.engine_id,
                    "price": cell.price, "cost": 0} for cell in cells]  # certificate is free
        prices = ", ".join(f"${price}" for price in sorted({cell.price for cell in cells}))
        return [{"type": "par", "entity": owner.id, "choices": choices,
                 "phrase": f"set the par price of {texas.jay_gould_corporation} (Jay Gould): {prices}"}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return isinstance(action, Par) and choice["corporation"] == action.corporation \
            and choice["share_price"] == action.share_price

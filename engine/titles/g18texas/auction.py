"""18Texas section 10: the simultaneous private company auction."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.entities import Holder, Player
from engine.core.rounds import Round
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.titles.g18texas.game import G18Texas

BID_STEP = 5


@dataclass
class Bid:
    player: Player
    price: int


@dataclass
class PrivateAuction(Round):
    """Players bid in turn until every private has exactly one bid, then all pay at once."""

    name = "Auction Round"
    current_index: int = 0
    bids: dict[str, Bid] = field(default_factory=dict)
    last_bidder: Player | None = None

    def __post_init__(self) -> None:
        Round.__init__(self)

    def start(self, game: G18Texas) -> None:  # type: ignore[override]
        game.log.append("Private company auction")
        self.current_index = 0

    def current(self, game: G18Texas) -> Player:
        return game.players[self.current_index]

    def acting_players(self, game: G18Texas) -> list[Player]:  # type: ignore[override]
        owner = game.pending_jay_gould_par()
        if owner is not None:
            return [owner]
        return [self.current(game)]

    def holds_bid(self, player: Player) -> bool:
        return any(bid.player is player for bid in self.bids.values())

    def minimum_bid(self, game: G18Texas, company_id: str) -> int:
        bid = self.bids.get(company_id)
        if bid is None:
            return game.company(company_id).value
        return bid.price + BID_STEP

    def check_bid(self, game: G18Texas, player: Player, company_id: str, price: Any) -> None:
        company = game.companies.get(company_id)
        if company is None or company.owner is not None or company.closed:
            names = ", ".join(c for c in game.companies if game.companies[c].owner is None)
            raise GameError(f"{company_id!r} is not up for auction; the privates are {names}")
        if not isinstance(price, int):
            raise GameError("a bid is a whole number of dollars")
        minimum = self.minimum_bid(game, company_id)
        if price < minimum:
            what = "face value" if company_id not in self.bids else f"${BID_STEP} over the current bid"
            raise GameError(f"a bid on {company_id} must be at least ${minimum} ({what})")
        if not game.option("site_auction_bids") and price % BID_STEP:
            raise GameError(f"bids are multiples of ${BID_STEP} (rule 10); ${price} is not")
        if price > player.cash:
            raise GameError(f"{player.name} has only ${player.cash}")

    def process(self, game: G18Texas, entity: Holder, action: dict[str, Any]) -> None:  # type: ignore[override]
        owner = game.pending_jay_gould_par()
        if owner is not None:
            self._jay_gould_par(game, owner, entity, action)
            return
        player = self.current(game)
        if entity is not player:
            raise GameError(f"it is {player.name}'s turn to bid")
        if action["type"] != "bid":
            raise GameError("in the private auction each player must bid (rule 10)")
        company_id = str(action.get("company"))
        price = action.get("price")
        self.check_bid(game, player, company_id, price)
        assert isinstance(price, int)
        self.bids[company_id] = Bid(player, price)
        self.last_bidder = player
        game.log.append(f"{player.name} bids ${price} for {company_id}")
        if len(self.bids) == sum(1 for c in game.companies.values() if c.owner is None):
            self._settle(game)
            return
        self._next_bidder(game)

    def _jay_gould_par(self, game: G18Texas, owner: Player, entity: Holder, action: dict[str, Any]) -> None:
        if entity is not owner or action["type"] != "par":
            raise GameError(f"{owner.name} must first set the par price of {game.jay_gould_corporation} (Jay Gould)")
        if action.get("corporation") != game.jay_gould_corporation:
            raise GameError(f"the Jay Gould company is {game.jay_gould_corporation}")
        game.jay_gould_par(owner, game.market.by_id.get(str(action.get("share_price"))))
        self.finished = True

    def _next_bidder(self, game: G18Texas) -> None:
        for _ in range(len(game.players)):
            self.current_index = (self.current_index + 1) % len(game.players)
            if not self.holds_bid(game.players[self.current_index]):
                return

    def _settle(self, game: G18Texas) -> None:
        for company_id, bid in self.bids.items():
            company = game.company(company_id)
            game.transfer(bid.player, game.bank, bid.price)
            company.owner = bid.player
            game.log.append(f"{bid.player.name} buys {company.name} for ${bid.price}")
            game.on_private_bought(company)
        assert self.last_bidder is not None
        game.priority_index = game.players.index(game.player_left_of(self.last_bidder))
        self.finished = game.pending_jay_gould_par() is None

    def legal_moves(self, game: G18Texas) -> list[dict[str, Any]]:  # type: ignore[override]
        owner = game.pending_jay_gould_par()
        if owner is not None:
            choices = [{"corporation": game.jay_gould_corporation, "share_price": cell.engine_id,
                        "price": cell.price, "cost": 0} for cell in game.market.par_cells()]  # certificate is free
            return [{"type": "par", "entity": owner.id, "choices": choices}]
        player = self.current(game)
        choices = []
        for company_id, company in game.companies.items():
            if company.owner is not None or company.closed:
                continue
            minimum = self.minimum_bid(game, company_id)
            if minimum <= player.cash:
                choices.append({"company": company_id, "min": minimum, "max": player.cash,
                                "step": 1 if game.option("site_auction_bids") else BID_STEP})
        return [{"type": "bid", "entity": player.id, "choices": choices}]

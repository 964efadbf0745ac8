"""18USA section 10: the private company auction that opens the game.

On a turn with no auction running a player puts a private up with a bid of at least half its
face value (P14: $5) or passes; the others then raise by multiples of $5 or drop out, in seat
order, until one bidder is left. The turn then goes to the left of the player who started the
auction. The round ends when every private is sold or all players pass in succession; the
priority deal goes to the left of the last player to start an auction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, Bid, Pass
from engine.core.entities import Company, Holder, Player
from engine.core.round import Round
from engine.core.step import Handler, Move, Step, command_word
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame

BID_MULTIPLE = 5


@dataclass
class PrivateAuction:
    """A private put up for auction: its bids so far and who is still in."""

    company: Company
    starter: Player
    price: int
    leader: Player
    bidders: list[Player]  # still in, in seat order from the starter


@dataclass
class PrivateAuctionRound(Round):
    """18USA's opening auction of the private companies."""

    name: ClassVar[str] = "Auction Round"
    current_index: int = 0
    auction: PrivateAuction | None = None
    consecutive_passes: int = 0
    last_starter: Player | None = None

    def start(self, game: BaseGame) -> None:
        game.log.append("Private company auction")
        self.current_index = game.priority_index

    def current(self, game: BaseGame) -> Player:
        if self.auction is not None:
            return self.auction.bidders[0]
        return game.players[self.current_index]

    def current_entity(self, game: BaseGame) -> Holder | None:
        return self.current(game)

    def finish(self, game: BaseGame) -> None:
        # Unsold privates leave the game (the site's reading; the rulebook is silent).
        for company in unsold(game):
            company.closed = True
            game.log.append(f"{company.id} is not sold and closes")
        if self.last_starter is not None:
            game.priority_index = game.players.index(game.player_left_of(self.last_starter))


def unsold(game: BaseGame) -> list[Company]:
    return [company for company in game.companies.values()
            if company.owner is None and not company.closed and company.id.startswith("P")]


def minimum_opening_bid(company: Company) -> int:
    explicit = company.ability.get("min_bid")
    return int(explicit) if explicit is not None else company.value // 2


def _round(rnd: Round) -> PrivateAuctionRound:
    assert isinstance(rnd, PrivateAuctionRound)
    return rnd


class SelectionAuctionStep(Step):
    key = "private_auction"
    label = "auction private companies"

    def handlers(self) -> Mapping[str, Handler]:
        return {"bid": self.process_bid, "pass": self.process_pass}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["bid", "pass"] if entity is _round(rnd).current(game) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        player = _round(rnd).current(game)
        if entity is not player:
            return f"it is {player.name}'s turn in the private auction"
        return None  # the round says what the auction allows, in the title's command words

    # --- rules -------------------------------------------------------------------------------
    def minimum(self, auction: PrivateAuctionRound, company: Company) -> int:
        if auction.auction is not None:
            return auction.auction.price + BID_MULTIPLE
        return minimum_opening_bid(company)

    def check_bid(self, game: BaseGame, rnd: PrivateAuctionRound, player: Player, action: Bid) -> Company:
        company = game.companies.get(str(action.company))
        running = rnd.auction
        if running is not None and company is not running.company:
            raise GameError(f"the auction for {running.company.id} is running; "
                            f"{command_word(game, 'bid', player)} on it or {command_word(game, 'pass', player)}")
        if company is None or company.owner is not None or company.closed or not company.id.startswith("P"):
            names = ", ".join(c.id for c in unsold(game))
            raise GameError(f"{action.company!r} is not up for auction; the privates left are {names}")
        price = action.price
        if price is None:
            raise GameError("a bid is a whole number of dollars")
        minimum = self.minimum(rnd, company)
        if price < minimum:
            raise GameError(f"a bid on {company.id} must be at least ${minimum}")
        if price % BID_MULTIPLE:
            raise GameError(f"bids are multiples of ${BID_MULTIPLE} (rule 10); ${price} is not")
        if price > player.cash:
            raise GameError(f"{player.name} has only ${player.cash}")
        return company

    # --- handlers ----------------------------------------------------------------------------
    def process_bid(self, game: BaseGame, rnd: Round, entity: Holder, action: Bid) -> None:
        auction = _round(rnd)
        player = auction.current(game)
        company = self.check_bid(game, auction, player, action)
        price = int(action.price or 0)
        game.log.append(f"{player.name} bids ${price} for {company.id}")
        if auction.auction is None:
            others = game.players_from(player)[1:] + [player]
            auction.auction = PrivateAuction(company, player, price, player,
                                             [p for p in others if not p.bankrupt])
            auction.last_starter = player
        else:
            running = auction.auction
            running.price, running.leader = price, player
            running.bidders.append(running.bidders.pop(0))
        auction.consecutive_passes = 0
        self._settle_if_alone(game, auction)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        auction = _round(rnd)
        player = auction.current(game)
        running = auction.auction
        if running is None:
            game.log.append(f"{player.name} passes")
            auction.consecutive_passes += 1
            if auction.consecutive_passes >= sum(1 for p in game.players if not p.bankrupt):
                auction.finished = True
                return
            self._advance(game, auction, player)
            return
        game.log.append(f"{player.name} leaves the auction for {running.company.id}")
        running.bidders.pop(0)
        self._settle_if_alone(game, auction)

    def _settle_if_alone(self, game: BaseGame, rnd: PrivateAuctionRound) -> None:
        running = rnd.auction
        assert running is not None
        # Players who cannot afford the next raise are passed over (as on the site).
        running.bidders = [p for p in running.bidders
                           if p is running.leader or p.cash >= running.price + BID_MULTIPLE]
        if len(running.bidders) > 1:
            return
        winner, company = running.leader, running.company
        game.transfer(winner, game.bank, running.price)
        company.owner = winner
        game.log.append(f"{winner.name} buys {company.id} for ${running.price}")
        rnd.auction = None
        if not unsold(game):
            rnd.finished = True
            return
        self._advance(game, rnd, running.starter)

    def _advance(self, game: BaseGame, rnd: PrivateAuctionRound, after: Player) -> None:
        index = game.players.index(after)
        for offset in range(1, len(game.players) + 1):
            candidate = game.players[(index + offset) % len(game.players)]
            if not candidate.bankrupt:
                rnd.current_index = game.players.index(candidate)
                return

    # --- legal moves -------------------------------------------------------------------------
    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if not isinstance(action, Bid):
            return super().matches(game, choice, action)
        price = action.price
        return (choice["company"] == action.company and price is not None
                and choice["min"] <= price <= choice["max"] and (price - choice["min"]) % choice["step"] == 0)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        auction = _round(rnd)
        player = auction.current(game)
        companies = [auction.auction.company] if auction.auction else unsold(game)
        choices = []
        for company in companies:
            minimum = self.minimum(auction, company)
            top = player.cash - player.cash % BID_MULTIPLE
            if minimum <= top:
                choices.append({"company": company.id, "min": minimum, "max": top, "step": BID_MULTIPLE})
        moves: list[Move] = []
        if choices:
            moves.append({"type": "bid", "entity": player.id, "choices": choices})
        return moves + [{"type": "pass", "entity": player.id}]

"""The acquisition round (rule 14.2): liquidations, then acquisitions, then friendly sales, each
in reverse operating order, sold by auction to companies bid for by their presidents.

An auction goes round the table from the left of the company's president: each player bids (on
behalf of any of their companies, multiples of $10) or passes and is out. The company's own
president may raise by at most $10; nobody may bid more than any of their companies can pay
(cash and the loans it may still take, with the target's treasury in an acquisition or friendly
sale, and its treasury shares' value in a friendly sale). The last bidder names the buying
company (`merge`), which gets the target's trains, stations and private companies, and in an
acquisition or a friendly sale its treasury and loans; it pays the bid, taking loans if it must.
Then, as on the site, the buyer first removes stations (14.3) and discards trains over its
limit, may take loans while it can (a pass ends that), and may then repay the loans it acquired
(a pass ends that; an unpaid one moves its price two steps back). Only then are the target's
treasury shares returned and its shareholders paid the price per share (shorts pay it); in a
liquidation the set-aside treasury and the bid first repay the set-aside loans, which stay out
of the bank until then, the president paying what is missing.

A title's round is `AcquisitionRound` with `AcquisitionStep()` after the interrupting steps
(which must include the family's `TokenReductionStep`, `DiscardTrainStep` and cash crisis).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.core.actions import Action, Bid, Pass
from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.actions import Assign, Merge, PayoffLoan, ScrapTrain, TakeLoan
from engine.core.family1817.loans import LOAN_PRICE_STEPS, loan_refusal, payoff_refusal, take_loan
from engine.core.family1817.market import ACQUISITION, LIQUIDATION, area, in_normal_area
from engine.core.family1817.operating import family, scrap_moves, scrap_train
from engine.core.family1817.sizes import join_stations, take_over_assets
from engine.core.round import Round
from engine.core.step import Handler, Move, Step
from engine.core.steps.cash_crisis import Debt
from engine.errors import GameError

FRIENDLY = "friendly"
BID_STEP = 10


@dataclass
class Sale:
    """The company being sold and its auction."""

    target: str
    kind: str  # liquidation, acquisition or friendly
    bidders: list[str] = field(default_factory=list)  # players still in, in bidding order
    turn: int = 0
    high_bid: int = 0
    high_bidder: str | None = None
    offered: bool = False  # a friendly sale the president has offered
    set_aside_cash: int = 0
    set_aside_loans: int = 0
    buyer: str | None = None
    acquired_loans: int = 0  # loans the buyer got with the target and may repay now
    settling: bool = False
    loans_done: bool = False  # the buyer passed on taking loans; repaying acquired ones is next


@dataclass
class AcquisitionRound(Round):
    """The 1817 family's acquisition round: companies offered for sale or liquidated (14)."""

    name: ClassVar[str] = "Acquisition Round"
    queue: list[tuple[str, str]] = field(default_factory=list)  # (kind, company) still to offer
    sale: Sale | None = None
    stage: str = LIQUIDATION
    exhausted: bool = False  # no company is left to offer
    # Reverse operating order as the round began: as on the site, a price a sale moves does not
    # change when the companies after it are offered.
    order: list[str] = field(default_factory=list)
    bought: list[str] = field(default_factory=list)  # companies a winning bidder bought this round

    def start(self, game: Any) -> None:
        game.log.append(self.title(game))
        self.order = [corp.id for corp in reversed(game.operating_order_all())]
        self.refill(game)

    def title(self, game: Any) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def refill(self, game: Any) -> None:
        """The companies of the current stage, in reverse operating order as the round began."""
        while not self.queue and self.stage:
            order = [game.corporations[corp_id] for corp_id in self.order]
            if self.stage == LIQUIDATION:
                self.queue = [(LIQUIDATION, c.id) for c in order if area(game, c) == LIQUIDATION
                              and c.id not in family(game).entered_liquidation]
                self.stage = ACQUISITION
            elif self.stage == ACQUISITION:
                self.queue = [(ACQUISITION, c.id) for c in order if area(game, c) == ACQUISITION
                              and c.id not in family(game).entered_acquisition]
                self.stage = FRIENDLY
            elif self.stage == FRIENDLY:
                self.queue = [(FRIENDLY, c.id) for c in order if in_normal_area(game, c)
                              and c.president() is not None]
                self.stage = ""

    def current_entity(self, game: Any) -> Holder | None:
        return None

    def turn_over(self, game: Any) -> None:
        self.finished = True

    def next_sale(self, game: Any) -> None:
        """Open the next sale that can happen; companies nobody can buy are passed over."""
        self.sale = None
        while True:
            if not self.queue:
                self.refill(game)
            if not self.queue:
                return
            kind, target_id = self.queue.pop(0)
            target = game.corporations[target_id]
            if not target.ipoed or target_id not in game.market.position:
                continue
            if kind != LIQUIDATION and area(game, target) != (None if kind == FRIENDLY else ACQUISITION):
                continue
            self.sale = Sale(target_id, kind)
            if kind == FRIENDLY and not any(buyers_of(game, player, self.sale, minimum_bid(game, self.sale),
                                                      loan_room=False)
                                            for player in game.players if not player.bankrupt):
                self.sale = None  # no company could pay for it: its president is not asked (as on the site)
                continue
            if kind == LIQUIDATION:
                self.sale.set_aside_cash = target.cash
                self.sale.set_aside_loans = game.loans.count(target_id)
                # Set aside, the loans are still out of the bank until the sale settles them.
                game.loans.move(target_id, set_aside_key(target_id))
                # The bank holds the set-aside money; the loans and shareholders are paid from it.
                game.transfer(target, game.bank, target.cash)
                game.log.append(f"{target_id} is up for liquidation; its ${self.sale.set_aside_cash} and "
                                f"{self.sale.set_aside_loans} loans are set aside")
            if kind != FRIENDLY:
                self.open_bidding(game)
            return

    def sale_over(self, game: Any) -> None:
        """The next sale opens as soon as one ends, as on the site: a liquidation's treasury and
        loans are set aside before a cash crisis the last one caused is settled."""
        self.next_sale(game)
        self.exhausted = self.sale is None

    def open_bidding(self, game: Any) -> None:
        sale = self.sale
        assert sale is not None
        target = game.corporations[sale.target]
        president = target.president()
        former = game.former_presidents.get(target.id)
        seat = president or (game.player(former) if former else None)
        order = game.players_from(seat)[1:] + [seat] if seat is not None else game.players_from(game.priority_player)
        sale.bidders = [p.key for p in order if not p.bankrupt]
        sale.turn = 0


def _left_its_area(game: Any, sale: Sale | None) -> bool:
    """Whether an acquisition or friendly sale not yet bid on lost its company to liquidation."""
    if sale is None or sale.settling or sale.high_bidder is not None or sale.kind == LIQUIDATION:
        return False
    return bool(area(game, game.corporations[sale.target]) == LIQUIDATION)


def set_aside_key(target_id: str) -> str:
    """Who holds a liquidated company's loans while they are set aside."""
    return f"{target_id} (set aside)"


def _round(rnd: Round) -> AcquisitionRound:
    assert isinstance(rnd, AcquisitionRound), f"{type(rnd).__name__} is not an acquisition round"
    return rnd


def minimum_bid(game: Any, sale: Sale) -> int:
    target: Corporation = game.corporations[sale.target]
    if sale.kind == FRIENDLY:
        # The market value, rounded up to a multiple of the bid step (as on the site: bids are
        # multiples of $10).
        value: int = game.share_price(target) * family(game).company_size(target)
        floor = -(-value // BID_STEP) * BID_STEP
        return max(floor, sale.high_bid + BID_STEP) if sale.high_bidder else floor
    return sale.high_bid + BID_STEP


def buying_power(game: Any, buyer: Corporation, sale: Sale) -> int:
    """What the buyer could pay: its cash and the loans it may still take once it holds the
    target's, with the target's treasury (acquisition, friendly sale) and treasury shares' value
    (friendly sale). As on the site, target loans beyond the buyer's room count against it."""
    target: Corporation = game.corporations[sale.target]
    power: int = buyer.cash
    left = game.loans.available()
    room = family(game).max_loans(buyer) - game.loans.count(buyer.id)
    if sale.kind != LIQUIDATION:
        room -= game.loans.count(target.id)  # the target's loans come with it
    if left is not None:
        room = min(room, left)
    power += room * game.loans.value
    if sale.kind != LIQUIDATION:
        power += target.cash
    if sale.kind == FRIENDLY:
        power += family(game).share_price(target) * sum(target.units(s.percent) for s in target.shares_of(target))
    return power + family(game).buying_power_bonus(target)


def may_hold_loans_of(game: Any, buyer: Corporation, sale: Sale) -> bool:
    """Rule 9: a company never holds more loans than it may; in an acquisition or a friendly sale
    the target's loans come with it, so a buyer without room for them cannot buy. On the site it
    may (s8604 at 318, s8405 at 577): it repays the excess at once (`repay_loans_over_limit`)."""
    if sale.kind == LIQUIDATION or family(game).buys_over_loan_limit():
        return True
    held = game.loans.count(buyer.id) + game.loans.count(sale.target)
    return bool(held <= family(game).max_loans(buyer))


def buyers_of(game: Any, player: Player, sale: Sale, price: int, loan_room: bool = True) -> list[Corporation]:
    """The player's companies that could pay `price`; with `loan_room` only those with room for
    the target's loans (9): the site asks a president to offer a friendly sale without it."""
    # A president whose certificate is in the market (the site's dealing dumps) may offer the
    # company for sale but does not bid with it: the site finds bidders' companies by certificate.
    return [corp for corp in game.corporations.values()
            if corp.id != sale.target and corp.ipoed and corp.president_share().owner is player
            and in_normal_area(game, corp) and (not loan_room or may_hold_loans_of(game, corp, sale))
            and buying_power(game, corp, sale) >= price]


class AcquisitionStep(Step):
    key = "acquisition"
    label = "buy companies"

    def handlers(self) -> Mapping[str, Handler]:
        return {"bid": self.process_bid, "pass": self.process_pass, "assign": self.process_offer,
                "merge": self.process_choose_buyer, "take_loan": self.process_take_loan,
                "payoff_loan": self.process_payoff, "scrap_train": self.process_scrap}

    def active(self, game: Any, rnd: Round) -> bool:
        return not _round(rnd).exhausted

    # --- who acts --------------------------------------------------------------------------
    def acting_entity(self, game: Any, rnd: Round) -> Holder | None:
        sale = _round(rnd).sale
        if sale is None:
            return None
        target: Corporation = game.corporations[sale.target]
        if sale.settling:
            buyer: Corporation | None = game.corporations[sale.buyer] if sale.buyer else None
            return buyer
        if sale.kind == FRIENDLY and not sale.offered:
            return target.president()
        if sale.high_bidder is not None and len(sale.bidders) == 1:
            winner: Player = game.player(sale.high_bidder)  # the winner names the buyer
            return winner
        bidder: Player | None = game.player(sale.bidders[sale.turn]) if sale.bidders else None
        return bidder

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        sale = _round(rnd).sale
        if sale is None:
            return []
        if entity is not self.acting_entity(game, rnd):
            # The site takes any player's pass for the president's when a friendly sale is
            # offered (109372 1284); a replayed log keeps it.
            if (game.importing and sale.kind == FRIENDLY and not sale.offered and isinstance(entity, Player)
                    and not sale.settling):
                return ["pass"]
            return []
        if sale.settling:
            assert isinstance(entity, Corporation)
            # A title's scrappable trains (18USA's Pullman) go whenever the company may act.
            scrap = ["scrap_train"] if family(game).scrappable_trains(entity) else []
            if not sale.loans_done and loan_refusal(family(game), entity) is None:
                return ["take_loan", *scrap, "pass"]
            if sale.acquired_loans and payoff_refusal(family(game), entity) is None:
                return ["payoff_loan", *scrap, "pass"]
            return []
        if sale.kind == FRIENDLY and not sale.offered:
            return ["assign", "pass"]
        assert isinstance(entity, Player)
        if sale.high_bidder is not None and len(sale.bidders) == 1:
            return ["merge"]
        return ["bid", "pass"] if self.bid_range(game, sale, entity) else []

    def bid_range(self, game: Any, sale: Sale, player: Player) -> tuple[int, int] | None:
        low = minimum_bid(game, sale)
        powers = [buying_power(game, corp, sale) for corp in buyers_of(game, player, sale, low)]
        if not powers:
            return None
        high = max(powers)
        target = game.corporations[sale.target]
        if target.president() is player and sale.high_bidder is not None:
            high = min(high, sale.high_bid + BID_STEP)
        return (low, high) if high >= low else None

    def waiting(self, game: Any, rnd: Round) -> bool:
        if _left_its_area(game, _round(rnd).sale):
            return False
        entity = self.acting_entity(game, rnd)
        return entity is not None and bool(self.actions(game, rnd, entity))

    def skip(self, game: Any, rnd: Round) -> None:
        acquisition = _round(rnd)
        sale = acquisition.sale
        if sale is None:  # the next sale opens without a decision, or none is left
            acquisition.next_sale(game)
            acquisition.exhausted = acquisition.sale is None
            return
        if _left_its_area(game, sale):
            # Its president's bankruptcy put it into liquidation: no sale now (the site sells it
            # in a later acquisition round).
            game.log.append(f"{sale.target} is no longer for sale this round")
            acquisition.sale_over(game)
            return
        if sale.settling:
            self.finish_sale(game, acquisition)
        elif sale.kind == FRIENDLY and not sale.offered:
            acquisition.sale_over(game)
        elif sale.high_bidder is not None and len(sale.bidders) == 1:
            self.auto_buyer(game, acquisition)
        else:
            self.drop_bidder(game, acquisition)

    # --- the auction -----------------------------------------------------------------------
    def process_offer(self, game: Any, rnd: Round, entity: Holder, action: Assign) -> None:
        acquisition = _round(rnd)
        sale = acquisition.sale
        if sale is None or sale.kind != FRIENDLY or sale.offered or action.target != sale.target:
            raise GameError("a president offers the company whose friendly sale is asked now")
        sale.offered = True
        game.log.append(f"{game.describe(entity)} offers {sale.target} for a friendly sale")
        acquisition.open_bidding(game)

    def process_bid(self, game: Any, rnd: Round, entity: Holder, action: Bid) -> None:
        acquisition = _round(rnd)
        sale = acquisition.sale
        assert sale is not None and isinstance(entity, Player)
        if action.corporation != sale.target:
            raise GameError(f"the company for sale is {sale.target}")
        price = action.price
        limits = self.bid_range(game, sale, entity)
        if price is None or limits is None:
            raise GameError("none of your companies can pay a bid now")
        low, high = limits
        if price < low or price > high or price % BID_STEP:
            raise GameError(f"bid a multiple of ${BID_STEP} from ${low} to ${high} (14.2)")
        sale.high_bid, sale.high_bidder = price, entity.key
        game.log.append(f"{entity.name} bids ${price} for {sale.target}")
        self.next_bidder(sale)
        if sale.bidders == [entity.key]:  # everyone else is out: the auction ends with this bid
            self.auto_buyer(game, acquisition)

    def next_bidder(self, sale: Sale) -> None:
        """The next player still in; the highest bidder is not asked to outbid themselves."""
        if len(sale.bidders) > 1:
            sale.turn = (sale.turn + 1) % len(sale.bidders)
            if sale.bidders[sale.turn] == sale.high_bidder:
                sale.turn = (sale.turn + 1) % len(sale.bidders)

    def drop_bidder(self, game: Any, acquisition: AcquisitionRound) -> None:
        sale = acquisition.sale
        assert sale is not None
        sale.bidders.pop(sale.turn)
        if sale.bidders:
            sale.turn %= len(sale.bidders)
            if sale.bidders[sale.turn] == sale.high_bidder and len(sale.bidders) > 1:
                sale.turn = (sale.turn + 1) % len(sale.bidders)
        if sale.high_bidder is None and not sale.bidders:
            self.no_sale(game, acquisition)
        elif sale.high_bidder is not None and sale.bidders == [sale.high_bidder]:
            self.auto_buyer(game, acquisition)

    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        acquisition = _round(rnd)
        sale = acquisition.sale
        assert sale is not None
        if sale.settling and not sale.loans_done and "take_loan" in self.actions(game, rnd, entity):
            sale.loans_done = True  # no more loans; repaying the acquired ones comes next
        elif sale.settling:
            self.finish_sale(game, acquisition)
        elif sale.kind == FRIENDLY and not sale.offered:
            acquisition.sale_over(game)
        else:
            self.drop_bidder(game, acquisition)

    def no_sale(self, game: Any, acquisition: AcquisitionRound) -> None:
        sale = acquisition.sale
        assert sale is not None
        if sale.kind == LIQUIDATION:
            game.log.append(f"Nobody bids for {sale.target}: the bank takes it for $0")
            self.resolve(game, acquisition, None)
        else:
            game.log.append(f"Nobody bids for {sale.target}; it goes on operating")
            acquisition.sale_over(game)

    def auto_buyer(self, game: Any, acquisition: AcquisitionRound) -> None:
        """The winner names the buying company; with one company able to pay it needs no choice."""
        sale = acquisition.sale
        assert sale is not None and sale.high_bidder is not None
        buyers = buyers_of(game, game.player(sale.high_bidder), sale, sale.high_bid)
        if len(buyers) == 1:
            self.resolve(game, acquisition, buyers[0])

    def process_choose_buyer(self, game: Any, rnd: Round, entity: Holder, action: Merge) -> None:
        acquisition = _round(rnd)
        sale = acquisition.sale
        assert sale is not None and isinstance(entity, Player)
        buyer = game.corporation(action.corporation)
        if buyer not in buyers_of(game, entity, sale, sale.high_bid):
            raise GameError(f"{buyer.id} cannot buy {sale.target} for ${sale.high_bid}")
        self.resolve(game, acquisition, buyer)

    # --- resolution -------------------------------------------------------------------------
    def resolve(self, game: Any, acquisition: AcquisitionRound, buyer: Corporation | None) -> None:
        sale = acquisition.sale
        assert sale is not None
        target = game.corporations[sale.target]
        price = sale.high_bid if buyer is not None else 0
        if buyer is None:
            self.settle_liquidation(game, acquisition, 0)
            return
        if sale.kind == FRIENDLY:
            # The bank pays for the treasury shares now; they go to the open market as the
            # company leaves play (the site keeps them in its treasury until then).
            value = game.share_price(target) * sum(target.units(s.percent) for s in treasury_shares(target))
            if value:
                game.transfer(game.bank, target, value)
        loans_before = game.loans.count(buyer.id)
        take_over_assets(family(game), buyer, target, with_treasury=sale.kind != LIQUIDATION)
        join_stations(family(game), buyer, target, merger=False)
        sale.acquired_loans = game.loans.count(buyer.id) - loans_before
        while buyer.cash < price and loan_refusal(family(game), buyer) is None:
            take_loan(family(game), buyer)
        game.transfer(buyer, game.bank, price)
        game.log.append(f"{buyer.id} buys {target.id} for ${price}")
        self.repay_loans_over_limit(game, buyer, sale)
        sale.buyer = buyer.id
        sale.settling = True
        acquisition.bought.append(target.id)

    def repay_loans_over_limit(self, game: Any, buyer: Corporation, sale: Sale) -> None:
        """The site's buyer repays the acquired loans that took it over its limit, at once and
        from its treasury (its bid counted that money against it); they count as repaid acquired
        loans, which do not move its price (s8604 at 318: MILW's 3 loans become 2)."""
        excess = game.loans.count(buyer.id) - family(game).max_loans(buyer)
        while excess > 0 and sale.acquired_loans and buyer.cash >= game.loans.value:
            game.transfer(buyer, game.bank, game.loans.value)
            game.loans.repay(buyer.id)
            sale.acquired_loans -= 1
            excess -= 1
            game.log.append(f"{buyer.id} repays an acquired loan over its limit")

    def finish_sale(self, game: Any, acquisition: AcquisitionRound) -> None:
        sale = acquisition.sale
        assert sale is not None
        buyer = game.corporations[sale.buyer] if sale.buyer else None
        if buyer is not None and sale.acquired_loans:
            game.market.move(buyer.id, "left", LOAN_PRICE_STEPS * sale.acquired_loans)
        if sale.kind == LIQUIDATION:
            self.settle_liquidation(game, acquisition, sale.high_bid)
        else:
            target = game.corporations[sale.target]
            return_treasury_shares(game, target)
            compensate(game, target, sale.high_bid)
            game.retire(target)
            acquisition.sale_over(game)

    def settle_liquidation(self, game: Any, acquisition: AcquisitionRound, price: int) -> None:
        sale = acquisition.sale
        assert sale is not None
        target = game.corporations[sale.target]
        money = sale.set_aside_cash + price
        owed = sale.set_aside_loans * game.loans.value
        president = target.president()
        game.loans.forgive(set_aside_key(target.id))
        return_treasury_shares(game, target)
        left = money - owed
        if left < 0 and president is not None:
            game.log.append(f"{president.name} pays ${-left} of {target.id}'s loans")
            game.demand(president, -left, game.bank, f"{target.id}'s loans", company=target.id,
                        kind=Debt.LIQUIDATION_LOANS)
        compensate(game, target, max(0, left))
        game.retire(target)
        acquisition.sale_over(game)
        if game.cash_crisis:
            self.run_undecided_sales(game, acquisition)

    def run_undecided_sales(self, game: Any, acquisition: AcquisitionRound) -> None:
        """While the president raises the money the last liquidation left them owing, the site
        goes on with the sales that need nobody's decision (a liquidation no one can bid for)."""
        while not acquisition.exhausted and acquisition.sale is not None and not self.waiting(game, acquisition):
            self.skip(game, acquisition)

    def process_take_loan(self, game: Any, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        assert isinstance(entity, Corporation)
        take_loan(family(game), entity)

    def process_scrap(self, game: Any, rnd: Round, entity: Holder, action: ScrapTrain) -> None:
        assert isinstance(entity, Corporation)
        scrap_train(family(game), entity, action)

    def process_payoff(self, game: Any, rnd: Round, entity: Holder, action: PayoffLoan) -> None:
        sale = _round(rnd).sale
        assert sale is not None and isinstance(entity, Corporation)
        if not sale.acquired_loans:
            raise GameError(f"{entity.id} has no acquired loan to repay")
        reason = payoff_refusal(family(game), entity)
        if reason:
            raise GameError(reason)
        game.transfer(entity, game.bank, game.loans.value)
        game.loans.repay(entity.id)
        sale.acquired_loans -= 1
        sale.loans_done = True  # repaying comes after the loans: the room it makes takes none
        game.log.append(f"{entity.id} repays an acquired loan")

    # --- legal moves -------------------------------------------------------------------------
    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        entity = self.acting_entity(game, rnd)
        sale = _round(rnd).sale
        if entity is None or sale is None:
            return []
        kinds = self.actions(game, rnd, entity)
        moves: list[Move] = []
        if isinstance(entity, Corporation):
            for kind in kinds:
                if kind == "scrap_train":
                    moves += scrap_moves(family(game), entity)
                else:
                    moves.append({"type": kind, "entity": entity.id, "entity_type": "corporation"})
            return moves
        assert isinstance(entity, Player)
        base: dict[str, Any] = {"entity": entity.id, "entity_type": "player"}
        if "assign" in kinds:
            moves.append({"type": "assign", **base, "choices": [{"target": sale.target,
                                                               "target_type": "corporation"}]})
        if "bid" in kinds:
            limits = self.bid_range(game, sale, entity)
            assert limits is not None
            moves.append({"type": "bid", **base, "choices": [{"corporation": sale.target, "min_price": limits[0],
                                                            "max_price": limits[1], "step": BID_STEP}]})
        if "merge" in kinds:
            buyers = buyers_of(game, entity, sale, sale.high_bid)
            moves.append({"type": "merge", **base, "choices": [{"corporation": corp.id} for corp in buyers],
                          # the word's "merge" does not say that the winner names the buyer here
                          "phrase": f"name which of your companies buys {sale.target} for ${sale.high_bid}: "
                                    + ", ".join(corp.id for corp in buyers)})
        if "pass" in kinds:
            moves.append({"type": "pass", **base})
        return moves

    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Bid):
            return (choice["corporation"] == action.corporation and action.price is not None
                    and choice["min_price"] <= action.price <= choice["max_price"]
                    and action.price % BID_STEP == 0)
        if isinstance(action, Merge):
            return bool(choice["corporation"] == action.corporation)
        if isinstance(action, Assign):
            return bool(choice["target"] == action.target)
        if isinstance(action, ScrapTrain):
            return bool(choice["train"] == action.train)
        return super().matches(game, choice, action)


def treasury_shares(target: Corporation) -> list[Any]:
    return [s for s in target.shares_of(target) if s.percent > 0]


def return_treasury_shares(game: Any, target: Corporation) -> None:
    """The sold company's treasury shares go to the open market (14.2)."""
    for share in treasury_shares(target):
        game.ledger.move(share, game.pool)


def compensate(game: Any, target: Corporation, amount: int) -> None:
    """Shareholders return their shares for `amount` divided by the company's size, rounded
    down, per share; short sellers pay as much per short share (14.2)."""
    per_share = amount // family(game).company_size(target)
    president = target.president()
    order = game.players_from(president) if president is not None else list(game.players)
    for player in order:
        units = sum(target.units(s.percent) for s in target.shares_of(player))
        if units > 0 and per_share:
            game.transfer(game.bank, player, per_share * units)
        elif units < 0 and per_share:
            game.demand(player, per_share * -units, game.bank, f"the short shares of {target.id}")
    if per_share:
        game.log.append(f"{target.id}'s shareholders get ${per_share} a share")

"""Operating mechanics shared by the titles: dividends, trains, privates, round order."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from engine.core.board import HexState
from engine.core.entities import Corporation, Player, Train
from engine.core.graph import can_run_a_route
from engine.core.stock_round import sale_choices
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


class OperationsMixin:
    """Methods of BaseGame for the operating round; titles override the hooks."""

    # --- track and tokens --------------------------------------------------------------------
    def may_lay_tile(self: BaseGame, lays: list[bool]) -> bool:
        """Two tile actions are offered; which lays they allow is `lay_restriction`'s job."""
        return len(lays) < 2

    def lay_restriction(self: BaseGame, lays: list[bool]) -> str | None:
        """Two yellow lays, or one upgrade as the first and only lay (1829-family default)."""
        if lays and lays[0]:
            return "after an upgrade no further tile may be laid this turn"
        return None

    def may_upgrade(self: BaseGame, lays: list[bool]) -> bool:
        return not lays

    def upgrade_targets(self: BaseGame, state: HexState) -> tuple[str, ...]:
        return self.board.upgrade_targets(state)

    def terrain_cost(self: BaseGame, state: HexState) -> int:
        return 0 if state.tile_laid else state.hexdef.terrain_cost

    def no_token_hexes(self: BaseGame) -> set[str]:
        return set()

    def tokens_left(self: BaseGame, corporation: Corporation) -> int:
        placed = len(self.board.token_hexes(corporation.id))
        return corporation.token_count - placed

    def token_cost(self: BaseGame, corporation: Corporation) -> int:
        return 0

    def trust_logged_revenue(self: BaseGame) -> bool:
        """While an imported log replays, its stored run revenues stand, as on the reference site
        (maps there have been corrected since some games were played); live moves are checked."""
        return self.importing

    # --- dividends ---------------------------------------------------------------------------
    def dividend_kinds(self: BaseGame) -> list[str]:
        return ["payout", "withhold"]

    def total_shares(self: BaseGame, corporation: Corporation) -> int:
        return corporation.units(100)

    def pay_dividend(self: BaseGame, corporation: Corporation, revenue: int, kind: str) -> None:
        if kind == "withhold":
            kept, paid = revenue, 0
        elif kind == "payout":
            kept, paid = 0, revenue
        else:
            kept = self.half_withheld(revenue)
            paid = revenue - kept
        if kept:
            self.transfer(self.bank, corporation, kept)
        if paid:
            self.distribute(corporation, paid)
        corporation.has_paid = True
        self.log.append(f"{corporation.id} pays ${paid} and keeps ${kept}")
        self.dividend_price_move(corporation, paid)

    def half_withheld(self: BaseGame, revenue: int) -> int:
        return revenue // 2

    def distribute(self: BaseGame, corporation: Corporation, paid: int) -> None:
        per_share = paid / self.total_shares(corporation)
        holders: dict[int, tuple[Any, int]] = {}
        for share in corporation.shares:
            if share.owner is self.pool:
                continue
            entry = holders.setdefault(id(share.owner), (share.owner, 0))
            holders[id(share.owner)] = (entry[0], entry[1] + share.percent)
        for owner, percent in holders.values():
            amount = math.ceil(per_share * percent / corporation.share_percent - 1e-9)
            if amount:
                self.transfer(self.bank, owner, amount)

    def dividend_price_move(self: BaseGame, corporation: Corporation, paid: int) -> None:
        if paid <= 0:
            self.market.move(corporation.id, "left")
        elif paid >= self.share_price(corporation):
            self.market.move(corporation.id, "right")

    # --- trains ------------------------------------------------------------------------------
    def sticky_routes(self: BaseGame) -> bool:
        """Title hook: once a company has had a route, it counts as having one for good."""
        return False

    def route_available(self: BaseGame, corporation: Corporation) -> bool:
        current = can_run_a_route(self.board, corporation.id)
        if current:
            corporation.route_seen = True
        return current or (self.sticky_routes() and corporation.route_seen)

    def must_buy_train(self: BaseGame, corporation: Corporation) -> bool:
        return (not corporation.trains and self.depot.next_train() is not None
                and self.route_available(corporation))

    def min_train_price(self: BaseGame, corporation: Corporation) -> int:
        prices = []
        upcoming = self.depot.next_train()
        if upcoming is not None:
            prices.append(upcoming.price)
        for seller in self.train_sellers(corporation):
            for train in seller.trains:
                limits = self.inter_company_price_limits(corporation, seller, train)
                if limits is not None:
                    prices.append(limits[0])
        return min(prices) if prices else 10**9

    def train_sellers(self: BaseGame, corporation: Corporation) -> list[Corporation]:
        return [other for other in self.corporations.values() if other is not corporation and other.trains]

    def inter_company_price_ok(self: BaseGame, buyer: Corporation, seller: Corporation,
                               train: Train, price: int) -> str | None:
        if price < 1:
            return "a train costs at least $1"
        if price > buyer.cash:
            return f"{buyer.id} has only ${buyer.cash}"
        return None

    def inter_company_price_limits(self: BaseGame, buyer: Corporation, seller: Corporation,
                                   train: Train) -> tuple[int, int] | None:
        """Lowest and highest price `buyer` may pay for `seller`'s train, or None if it cannot.

        Titles that fix some prices narrow this; it must agree with `inter_company_price_ok`.
        """
        return (1, buyer.cash) if buyer.cash >= 1 else None

    def train_sale_consent(self: BaseGame, buyer: Corporation, train_id: str) -> Player | None:
        """The player whose consent a purchase of another company's train needs, or None.

        A front end asks this before it commits a `buy_train`; the engine itself does not
        check consent (it cannot know it), so a logged purchase replays as it was made.
        """
        return None

    def buyable_trains(self: BaseGame, corporation: Corporation) -> list[dict[str, Any]]:
        choices = []
        upcoming = self.depot.next_train()
        if upcoming is not None:
            short = self.emergency_shortfall(corporation)
            if corporation.cash >= upcoming.price or (self.must_buy_train(corporation) and short <= 0):
                choices.append({"train": upcoming.id, "price": upcoming.price, "variant": upcoming.name,
                                "from": "depot"})
        if not self.must_buy_train(corporation) or corporation.cash >= (upcoming.price if upcoming else 0):
            for seller in self.train_sellers(corporation):
                for train in seller.trains:
                    limits = self.inter_company_price_limits(corporation, seller, train)
                    if limits is None:
                        continue
                    low, high = limits
                    if low == high:
                        choices.append({"train": train.id, "from": seller.id, "price": low})
                    else:
                        choices.append({"train": train.id, "from": seller.id, "min_price": low,
                                        "max_price": high})
        return choices

    def emergency_shortfall(self: BaseGame, corporation: Corporation) -> int:
        """Money the president still has to find for a compulsory train purchase."""
        if not self.must_buy_train(corporation):
            return 0
        upcoming = self.depot.next_train()
        if upcoming is None or corporation.cash >= upcoming.price:
            return 0
        president = corporation.president()
        cash = president.cash if president else 0
        return max(0, upcoming.price - corporation.cash - cash)

    def emergency_sales(self: BaseGame, corporation: Corporation, president: Player,
                        prices: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """Sales open to the president for a compulsory train; `prices` fixes what a company's
        shares fetch (see `emergency_sales_at_start_price`)."""
        return sale_choices(self, president, keep_president_of=corporation,
                            stop_at=self.emergency_shortfall(corporation), prices=prices)

    def emergency_sales_at_start_price(self: BaseGame) -> bool:
        """Title hook: forced sales for a train fetch the price a company had when the train
        purchase began, even after earlier sales of the same company dropped it."""
        return False

    def buy_train(self: BaseGame, corporation: Corporation, action: dict[str, Any]) -> None:
        train_id = action.get("train")
        price = action.get("price")
        if not isinstance(price, int):
            raise GameError("a train purchase needs a price")
        if len(corporation.trains) >= self.train_limit(corporation):
            raise GameError(f"{corporation.id} already has {len(corporation.trains)} trains, the limit")
        upcoming = self.depot.next_train()
        if upcoming is not None and upcoming.id == train_id:
            if price != upcoming.price:
                raise GameError(f"a new {upcoming.name}-train costs ${upcoming.price}")
            self._buy_from_depot(corporation, upcoming)
            return
        seller_train = next((t for t in self.all_trains() if t.id == train_id), None)
        if seller_train is None or not isinstance(seller_train.owner, Corporation):
            hint = f"the next new train is {upcoming.id} at ${upcoming.price}" if upcoming else "the depot is empty"
            raise GameError(f"train {train_id!r} cannot be bought now; {hint}")
        seller = seller_train.owner
        if seller is corporation:
            raise GameError(f"{corporation.id} already owns {train_id}")
        if self.emergency_shortfall(corporation) > 0 or (
            self.must_buy_train(corporation) and upcoming is not None and corporation.cash < upcoming.price
        ):
            raise GameError("in a compulsory purchase the train must come from the bank")
        problem = self.inter_company_price_ok(corporation, seller, seller_train, price)
        if problem:
            raise GameError(problem)
        self.transfer(corporation, seller, price)
        seller.trains.remove(seller_train)
        corporation.trains.append(seller_train)
        seller_train.owner = corporation
        self.log.append(f"{corporation.id} buys a {seller_train.name}-train from {seller.id} for ${price}")

    def _buy_from_depot(self: BaseGame, corporation: Corporation, train: Train) -> None:
        price = train.price
        if corporation.cash < price:
            if not self.must_buy_train(corporation):
                raise GameError(f"{corporation.id} has ${corporation.cash}; the {train.name}-train costs ${price}")
            president = corporation.president()
            short = price - corporation.cash
            if president is None or president.cash < short:
                have = president.cash if president else 0
                raise GameError(
                    f"the president must add ${short} but has ${have}; sell shares first (or declare bankruptcy)"
                )
            self.transfer(president, corporation, short)
            self.log.append(f"{president.name} adds ${short} for the train")
        self.transfer(corporation, self.bank, price)
        self.depot.take(train)
        corporation.trains.append(train)
        train.owner = corporation
        self.log.append(f"{corporation.id} buys a {train.name}-train for ${price}")
        self.buy_train_effects(train)

    def discard_train(self: BaseGame, train: Train) -> None:
        """Discarded trains go to the open market or leave the game (DISCARDS_TO_MARKET)."""
        self.depot.discard(train, to_market=self.DISCARDS_TO_MARKET)

    # --- privates and rounds -------------------------------------------------------------------
    def pay_private_revenue(self: BaseGame) -> None:
        for company in self.companies.values():
            if company.closed or company.owner is None or not company.revenue:
                continue
            self.transfer(self.bank, company.owner, company.revenue)
            self.log.append(f"{company.owner.name} collects ${company.revenue} from {company.id}")

    def end_of_operating_round(self: BaseGame) -> None:
        """Title hook run when an operating round ends."""

    def process_company_ability(self: BaseGame, rnd: Any, company: Any, action: dict[str, Any]) -> None:
        raise GameError(f"{company.name} has no ability that can be used now")

    def extra_lays_pending(self: BaseGame, rnd: Any) -> bool:
        """Title hook: an ability offering extra tile lays keeps the track step open."""
        return False

    def ability_token_pending(self: BaseGame, rnd: Any) -> bool:
        """Title hook: a private company may still place a station for the operating company, so
        its station step stays open even without a city of its own to offer."""
        return False

    def track_pass_refusal(self: BaseGame, rnd: Any) -> str | None:
        """Title hook: why the track step may not be passed now (an ability's lay is owed)."""
        return None

    def company_ability_moves(self: BaseGame, rnd: Any) -> list[dict[str, Any]]:
        return []

    def process_bankrupt(self: BaseGame, rnd: Any, entity: Any, action: dict[str, Any]) -> None:
        raise GameError("bankruptcy is not possible now")

"""18USA: the game class. Setup (rule 2) from the seed, the round sequence (3), and the rules
where 18USA differs from the shared core: company sizes (7.2), the one-row market and its areas
(5), dividends (12.5), trains, Pullmans and exports (12.6, 12.7, 12.10), phases (8) and the end
of the game (16). Rounds and steps live in the sibling modules.
"""

from __future__ import annotations

from typing import Any, ClassVar

from engine.core.board import HexState
from engine.core.entities import Company, Corporation, Player, Share, Train
from engine.core.game import BaseGame
from engine.core.phases import Phase
from engine.core.round import OperatingSet, RoundSequence, RoundSpec
from engine.core.services.depot import Depot
from engine.titles.g18usa import phases as usa_phases
from engine.titles.g18usa.auction import PrivateAuctionRound, SelectionAuctionStep
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import SETUP_OPTIONS, SEVENTEEN_TRAINS, setup_from_seed
from engine.titles.g18usa.usa_map import MAP_OPTIONS, UsaMap

GAME_OPTIONS = {
    SEVENTEEN_TRAINS: "Rule 17 variant: 1817's train roster and exports.",
}
SIZES = {2: 50, 5: 20, 10: 10}  # shares in a company -> percent of one ordinary share


class G18USA(BaseGame):
    TITLE = "18USA"
    NEGATIVE_HOLDINGS = True
    DISCARDS_TO_MARKET = True
    ROUNDS = RoundSequence(opening=("auction",),
                           cycle=("stock", OperatingSet(("operating", "merger", "acquisition"))))
    RULE_OPTIONS: ClassVar[dict[str, str]] = {**SETUP_OPTIONS, **MAP_OPTIONS, **GAME_OPTIONS}

    def title_data(self) -> dict[str, Any]:
        return load_data()

    # --- setup (rule 2) --------------------------------------------------------------------------
    def setup(self) -> None:
        seats = [{"id": player.id, "name": player.name} for player in self.players]
        self.usa = setup_from_seed(self.seed, seats, self.options)
        self.umap = UsaMap(self.usa, self.options)
        self.board = self.umap.board
        self.rng.state = self.usa.rand_state_after_setup
        self.depot = Depot.from_data(usa_phases.depot_trains(self.usa), len(self.players))
        self.pullmans_made = 0
        self.loans.value = int(self.data["entities"]["constants"]["loans"]["value"])
        self.loans.total = int(self.data["entities"]["bank_of_new_york"]["loans"])
        self.loans.interest_rate = self.usa.bank_of_new_york.interest_rate
        entities = self.data["entities"]
        for raw in entities["corporations"]:
            corp = Corporation(id=raw["id"], name=raw["name"], color=raw["color"],
                               text_color=str(raw.get("text_color", "white")).lower(), token_count=1,
                               float_percent=0)
            self.ledger.create(corp, shares=2, president_shares=2)
            self.corporations[corp.id] = corp
        in_game = set(self.usa.privates_in_game)
        for raw in entities["privates"]["companies"]:
            if raw["id"] in in_game:
                ability = dict(raw.get("ability", {}))
                if "min_auction_bid" in raw:
                    ability["min_bid"] = raw["min_auction_bid"]
                self.companies[raw["id"]] = Company(id=raw["id"], name=raw.get("rulebook_name") or raw["name"],
                                                    value=raw["value"], revenue=raw["revenue"], ability=ability)
        for deal in self.usa.subsidies:
            raw = next(r for r in entities["subsidies"]["tiles"] if r["id"] == deal.subsidy)
            self.companies[deal.subsidy] = Company(id=deal.subsidy, name=deal.name, value=0, revenue=0,
                                                   ability=dict(raw))
        # How many operating rounds have ended in the game (exports go by it, 12.10).
        self.operating_rounds_done = 0
        self.final_turn: int | None = None
        self.final_operating_rounds = 0
        self.home_hexes: dict[str, str] = {}
        self.obsolete_trains: set[str] = set()
        self.unfunded: set[str] = set()
        self.merger_involved: set[str] = set()  # companies converted or merged in this M&A round  # 10-share companies that could not buy their tokens

    def round_specs(self) -> dict[str, RoundSpec]:
        from engine.titles.g18usa.merger import acquisition_round_spec, merger_round_spec
        from engine.titles.g18usa.operating import operating_round_spec
        from engine.titles.g18usa.stock import stock_round_spec

        return {
            "auction": RoundSpec(PrivateAuctionRound, (SelectionAuctionStep(),)),
            "stock": stock_round_spec(),
            "operating": operating_round_spec(),
            "merger": merger_round_spec(),
            "acquisition": acquisition_round_spec(),
        }

    # --- facts -----------------------------------------------------------------------------------
    def share_count(self, corporation: Corporation) -> int:
        return 100 // corporation.share_percent

    def owns(self, corporation: Corporation, company_id: str) -> bool:
        company = self.companies.get(company_id)
        return company is not None and company.owner is corporation and not company.closed

    def companies_of(self, holder: Any) -> list[Company]:
        return [company for company in self.companies.values() if company.owner is holder and not company.closed]

    def market_area(self, corporation: Corporation) -> str | None:
        if corporation.id not in self.market.position:
            return None
        types = self.market.cell_of(corporation.id).types
        for area in ("liquidation", "acquisition"):
            if area in types:
                return area
        return None

    def phase_at_least(self, name: str) -> bool:
        order = [phase.name for phase in self.phases]
        return self.phase_index >= order.index(name)

    def corporation_sizes(self) -> list[int]:
        raw = self.data["entities"]["phases"][self.phase_index]
        return [int(size) for size in raw["corporation_sizes"]]

    # --- stock -----------------------------------------------------------------------------------
    def certificate_count(self, player: Player) -> int:
        """Rule 11.4: certificates count once each, privates and short shares not at all."""
        return sum(1 for corp in self.corporations.values() for share in corp.shares
                   if share.owner is player and share.percent > 0)

    def counts_toward_limit(self, share: Share) -> bool:
        return share.percent > 0

    def max_player_percent(self) -> int:
        return 60

    def player_percent_limit(self, corporation: Corporation) -> int:
        return 100 if self.share_count(corporation) == 2 else 60

    def sell_blocked_reason(self, player: Player, corporation: Corporation) -> str | None:
        if self.share_count(corporation) == 2:
            return f"shares of a 2-share company such as {corporation.id} may not be sold (11.1)"
        if self.market_area(corporation):
            return f"{corporation.id} is in {self.market_area(corporation)}; its shares may not be sold (11.1)"
        return None

    def after_sale(self, corporation: Corporation, percent: int) -> None:
        """Rule 11.1: stock sales do not change the share price."""

    def move_price_left(self, corporation: Corporation, steps: int) -> None:
        self.market.move(corporation.id, "left", steps)

    def player_value(self, player: Player) -> int:
        shares = sum(self.share_price(corp) * corp.units(share.percent)
                     for corp in self.corporations.values() if corp.id in self.market.position
                     for share in corp.shares if share.owner is player)
        companies = sum(company.value for company in self.companies_of(player))
        return player.cash + shares + companies

    # --- operating order and dividends -----------------------------------------------------------
    def operating_order(self) -> list[Corporation]:
        """Rule 12: companies operate by share price; those in liquidation do not."""
        floated = [corp for corp in self.corporations.values()
                   if corp.floated and not corp.closed and self.market_area(corp) != "liquidation"]
        return sorted(floated, key=lambda corp: self.market.operating_key(corp.id))

    def dividend_kinds(self) -> list[str]:
        return ["payout", "half", "withhold"]

    def dividend_price_move(self, corporation: Corporation, paid: int) -> None:
        """Withholding moves one step back; a payout moves 1-4 steps ahead at 50/100/150/200%."""
        if paid <= 0:
            self.market.move(corporation.id, "left")
            return
        price = self.share_price(corporation) or 40
        steps = sum(1 for factor in (0.5, 1, 1.5, 2) if paid >= int(price * factor))
        if steps:
            self.market.move(corporation.id, "right", steps)

    # --- trains ----------------------------------------------------------------------------------
    def train_limit(self, corporation: Corporation) -> int:
        return self.phase.train_limit

    def counted_trains(self, corporation: Corporation) -> int:
        """Rule 6.3: Pullmans count toward the limit; obsolete trains do not."""
        return sum(1 for train in corporation.trains if not usa_phases.is_obsolete(self, train))

    def on_phase_change(self, phase: Phase) -> None:
        usa_phases.phase_started(self, phase)

    def end_of_operating_round(self) -> None:
        usa_phases.end_of_operating_round(self)

    def end_after_operating_set(self) -> str | None:
        if self.final_turn is not None and self.turn >= self.final_turn:
            return "final_phase"
        return None

    # --- map hooks -------------------------------------------------------------------------------
    def upgrade_targets(self, state: HexState) -> tuple[str, ...]:
        return self.board.upgrade_targets(state)

    def next_round(self) -> Any:
        """The last set of operating rounds is as long as rule 16 makes it."""
        following = super().next_round()
        if (following is not None and self.final_turn == self.turn and self.round_num == 1
                and self.cursor.set_index == 0 and self.final_operating_rounds):
            self.operating_rounds = self.final_operating_rounds
        return following

    def after_lay(self, corporation: Corporation, entity: str, lay: Any) -> None:
        """A lay by a private or subsidy uses it up as its card says."""
        from engine.titles.g18usa.privates import after_lay

        after_lay(self, corporation, entity, lay)

    def after_company_loan(self, corporation: Corporation) -> None:
        """A 10-share company that could not buy its stations does so with its first loan (11.6)."""
        from engine.titles.g18usa.ipo import EXTRA_TOKENS, TOKEN_COST

        if corporation.id in self.unfunded:
            cost = TOKEN_COST * EXTRA_TOKENS[self.share_count(corporation)]
            if corporation.cash >= cost:
                self.transfer(corporation, self.bank, cost)
                self.unfunded.discard(corporation.id)

    def end_of_company_turn(self, corporation: Corporation) -> None:
        """Rule 12.6: a company that ends its turn without a train goes into liquidation."""
        from engine.titles.g18usa.finance import liquidate

        if not [train for train in corporation.trains if train.name != "P"]:
            liquidate(self, corporation, "it ended its turn without a train")

    def end_of_stock_round_usa(self, rnd: Any) -> None:
        """Rule 11.8 price moves; unclaimed subsidies leave after the first stock round (11.6.1);
        a 10-share company still without its stations goes into liquidation (11.6)."""
        from engine.titles.g18usa.finance import liquidate

        self.umap.drop_unclaimed_subsidies()
        for company in list(self.companies.values()):
            if company.id.startswith("S") and company.owner is None:
                company.closed = True
        for corp in self.operating_order_all():
            if corp.id in self.unfunded:
                liquidate(self, corp, "it could not buy its station tokens")
                self.unfunded.discard(corp.id)
                continue
            if self.market_area(corp):
                continue
            size = self.share_count(corp)
            if size > 2 and corp.percent_held_by_players() >= 100:
                self.market.move(corp.id, "right")
            in_market = sum(1 for share in corp.shares if share.owner is self.pool and share.percent > 0)
            if in_market:
                self.market.move(corp.id, "left", 2 * in_market)

    def interest_default(self, corporation: Corporation, owed: int) -> None:
        from engine.titles.g18usa.finance import interest_default

        interest_default(self, corporation, owed)

    def train_of(self, train_id: str) -> Train | None:
        return next((train for train in self.all_trains() if train.id == train_id), None)

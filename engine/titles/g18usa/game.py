"""18USA: the game class. Setup (rule 2) from the seed, the round sequence (3), and the rules
where 18USA differs from the shared core: company sizes (7.2), the one-row market and its areas
(5), dividends (12.5), trains, Pullmans and exports (12.6, 12.7, 12.10), phases (8) and the end
of the game (16). Rounds and steps live in the sibling modules.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from engine.core.board import Board, HexState
from engine.core.entities import Company, Corporation, Player, Train
from engine.core.family1817.game import FAMILY_OPTIONS, Family1817Game
from engine.core.family1817.market import LIQUIDATION, area
from engine.core.graph import Node
from engine.core.phases import Phase
from engine.core.round import OperatingSet, RoundSequence, RoundSpec
from engine.core.route_hooks import Attachment, EndLimit
from engine.core.rules import OtherTrains
from engine.core.services.depot import Depot
from engine.core.step import Step
from engine.titles.g18usa import ipo as ipos
from engine.titles.g18usa import phases as usa_phases
from engine.titles.g18usa import revenue as usa_revenue
from engine.titles.g18usa.auction import PrivateAuctionRound, SelectionAuctionStep
from engine.titles.g18usa.commands import COMMANDS
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.programs import UsaProgramRules
from engine.titles.g18usa.setup import (
    MAX_START_300,
    PRESIDENT_ABOVE_60,
    SETUP_OPTIONS,
    SEVENTEEN_TRAINS,
    setup_from_seed,
)
from engine.titles.g18usa.stations import FREIGHT
from engine.titles.g18usa.usa_map import MAP_OPTIONS, UsaMap

SITE_PRIVATE_VALUE = "site_private_value"
SITE_ANY_RUNS = "site_any_runs"
SITE_UNASKED_TRAIN_SALES = "site_unasked_train_sales"
SITE_STICKY_ROUTES = "site_sticky_routes"
SITE_P3_VALUE = "site_p3_value"
SITE_PHASE_8_STARTS = "site_phase_8_starts"
GAME_OPTIONS = {
    SEVENTEEN_TRAINS: "Rule 17 variant: 1817's train roster and exports.",
    PRESIDENT_ABOVE_60: "Rule 17 variant: a president may hold more than 60%; when no other share is for "
                        "sale, other players may buy one from them at the price plus 10% (rounded up).",
    MAX_START_300: "Rule 17 variant: from phase 5 a company may start at up to $300; a company whose "
                   "players hold under 50% at the end of its first stock round goes into liquidation.",
    SITE_P3_VALUE: "P3 (Reece Oil and Gas) has a face value of $30 and a minimum bid of $15, as on the site "
                   "(the rulebook's private list: $40, so a minimum bid of $20 by rule 10).",
    SITE_PHASE_8_STARTS: "10-share companies may be started in phase 8, as on the site and the rulebook's phase "
                         "table (rule 8's phase 8 text: no new companies may be started).",
    SITE_PRIVATE_VALUE: "A player's private companies count at face value in their total, as on the site "
                        "(rule 16: private companies have no value).",
    SITE_ANY_RUNS: "A company may run any legal set of runs, even for less than its trains can earn, as on "
                   "the site (rule 12.4: a company must run for the maximum possible earnings).",
    usa_phases.SITE_DISCARD_AFTER_BUYING: "Companies pushed over the train limit by a train bought in an "
                                          "operating turn discard when the buying company's turn is over, "
                                          "as on the site (rule 6.3: at once).",
    SITE_STICKY_ROUTES: "A company that has once had a route is asked to run its trains (and may run "
                        "none) even when it has no route now, as on the site (a company with no route "
                        "runs nothing and its run step is passed over).",
    usa_phases.SITE_SECOND_PULLMAN_WAIT: "From phase 5 a company's buy-trains step waits for a pass while it "
                                         "could pay for the bank's Pullman, even when it has one and so may "
                                         "not buy it, as on the site (a step with nothing to buy is passed "
                                         "over).",
    usa_phases.SITE_PULLMAN_STEP_WAITS: "From phase 5 a company with room for a Pullman and at least $1 is "
                                        "asked at the Pullman step even when it cannot pay for one, as on "
                                        "the site (rule 12.7: with nothing to decide it is not asked).",
    usa_phases.SITE_P25_FULL_PRICE: "A company owning P25 (American Locomotive Co.) may also pay the full price "
                                    "for a train from the bank, as on the site (P25's card: it pays 10% less).",
    SITE_UNASKED_TRAIN_SALES: "A company buys another company's train or Pullman without asking that company's "
                              "president, as on the site (rules 12.6 and 12.7: from a consenting company).",
}
WESTERN_LAND_GRANT = "P15"
BAILEY_YARD = "P23"
SHORTS_END_PHASE = "8"
PULLMAN_SCRAP_VALUE = 50
EXPRESS_FREIGHT = "P8"  # its red-area marker counts as one of the owner's tokens (14.3)
REMOVE_FREIGHT = "Remove"  # the site's word for taking P8's marker off instead of a station


class G18USA(Family1817Game):
    TITLE = "18USA"
    ROUNDS = RoundSequence(opening=("auction",),
                           cycle=("stock", OperatingSet(("operating", "merger", "acquisition"))))
    RULE_OPTIONS: ClassVar[dict[str, str]] = {**SETUP_OPTIONS, **MAP_OPTIONS, **GAME_OPTIONS, **FAMILY_OPTIONS}
    COMMANDS = COMMANDS
    PROGRAM_RULES = UsaProgramRules()

    def title_data(self) -> dict[str, Any]:
        return load_data()

    def run_site_figures(self, corporation: Corporation) -> dict[str, int]:
        """18xx.games writes 18USA's ``subsidy`` beside a run too; no run pays one (a subsidy is
        paid when a company starts, 11.6.1, and its bonuses are in the runs' revenue)."""
        return {**super().run_site_figures(corporation), "subsidy": 0}

    # --- setup (rule 2) --------------------------------------------------------------------------
    def make_board(self) -> Board:
        """The map with the dealt metropolises and red-area values (2.3-2.5): the deal comes first."""
        seats = [{"id": player.id, "name": player.name} for player in self.players]
        self.usa = setup_from_seed(self.seed, seats, self.options)
        self.umap = UsaMap(self.usa, self.options)
        return self.umap.board

    def face_value(self, raw: dict[str, Any]) -> tuple[int, int | None]:
        """A private's face value and its minimum opening bid (None: half the face value, rule 10).
        Where the rulebook's private list prints another value than the site (P3: $40, the site
        $30), the printed one is the default and its minimum bid half of it; `site_p3_value`
        gives the site's value and minimum bid."""
        if "rulebook_value" in raw and not self.option(SITE_P3_VALUE):
            return int(raw["rulebook_value"]), None
        return int(raw["value"]), raw.get("min_auction_bid")

    def setup(self) -> None:
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
                # Copies of the title data all through: a company's ability is part of the
                # position, and must not share lists with the map's read-only data (a refused
                # move's restored copy would otherwise share one and not the other).
                ability = copy.deepcopy(raw.get("ability", {}))
                value, min_bid = self.face_value(raw)
                if min_bid is not None:
                    ability["min_bid"] = min_bid
                self.companies[raw["id"]] = Company(id=raw["id"], name=raw.get("rulebook_name") or raw["name"],
                                                    value=value, revenue=raw["revenue"], ability=ability,
                                                    text=raw["text"])
        for deal in self.usa.subsidies:
            raw = next(r for r in entities["subsidies"]["tiles"] if r["id"] == deal.subsidy)
            self.companies[deal.subsidy] = Company(id=deal.subsidy, name=deal.name, value=0, revenue=0,
                                                   ability=copy.deepcopy(raw), text=raw["text"])
        # How many operating rounds have ended in the game (exports go by it, 12.10).
        self.operating_rounds_done = 0
        self.final_turn: int | None = None
        self.final_operating_rounds = 0
        self.home_hexes: dict[str, str] = {}
        self.obsolete_trains: set[str] = set()
        # The train kinds whose rusting waits for P13's company to keep one (boneyard.py).
        self.boneyard_rusts: tuple[str, ...] = ()

    def round_specs(self) -> dict[str, RoundSpec]:
        from engine.core.family1817.acquisition_round import AcquisitionRound, AcquisitionStep
        from engine.core.family1817.merger_round import (
            ConversionStep,
            MergerRound,
            PostConversionLoansStep,
            PostConversionStep,
        )
        from engine.titles.g18usa.operating import operating_round_spec
        from engine.titles.g18usa.stock import stock_round_spec

        return {
            "auction": RoundSpec(PrivateAuctionRound, (SelectionAuctionStep(),)),
            "stock": stock_round_spec(),
            "operating": operating_round_spec(),
            "merger": RoundSpec(MergerRound, (PostConversionStep(), PostConversionLoansStep(), ConversionStep())),
            "acquisition": RoundSpec(AcquisitionRound, (AcquisitionStep(),)),
        }

    # --- runs (12.4): the core route hooks, which the route optimizer reads (revenue.py) ----------
    def route_stop_revenue(self, corporation: Corporation, train: Train, stop: Node, revenue: int) -> int:
        owned = [company.id for company in self.companies_of(corporation)]
        return usa_revenue.hook_stop_value(self.umap, corporation.id, owned, self.phase.name, stop, revenue)

    def route_track_bonuses(self, corporation: Corporation, train: Train) -> dict[str, int]:
        owned = [company.id for company in self.companies_of(corporation)]
        return usa_revenue.hook_track_bonuses(self.umap, owned, self.phase.name)

    def route_end_limits(self, corporation: Corporation) -> tuple[EndLimit, ...]:
        return usa_revenue.hook_end_limits(self.umap)

    def must_run_for_the_most(self) -> bool:
        """Rule 12.4: "Companies must run for the maximum possible earnings"; on the site a
        president declares any legal runs (`site_any_runs`)."""
        return not self.option(SITE_ANY_RUNS)

    def route_attachments(self, corporation: Corporation) -> tuple[Attachment, ...]:
        from engine.titles.g18usa.operating import UsaOperatingRound

        rnd = self.round
        chosen = rnd.attachments if isinstance(rnd, UsaOperatingRound) and rnd.turn is not None \
            and rnd.corporation is corporation else {}
        trains = [(train.id, train.name) for train in corporation.trains if not usa_phases.is_pullman(train)]
        pullman = any(usa_phases.is_pullman(train) for train in corporation.trains)
        owned = [company.id for company in self.companies_of(corporation)]
        return usa_revenue.hook_attachments(self.umap, owned, trains, pullman, chosen)

    # --- the family's hooks (rules 9, 11, 12) ----------------------------------------------------
    def interest_tiers(self) -> tuple[tuple[int, int], ...]:
        """The Bank of New York's side for the player count (2.2)."""
        return tuple((tier.rate, tier.loans) for tier in self.usa.bank_of_new_york.tiers)

    def max_loans(self, corporation: Corporation) -> int:
        """One loan per share; P15 Western Land Grant allows one more."""
        return super().max_loans(corporation) + (1 if self.owns(corporation, WESTERN_LAND_GRANT) else 0)

    def interest_due(self, corporation: Corporation) -> int:
        """P15: one of the company's loans always costs $5 interest."""
        owed = super().interest_due(corporation)
        if owed and self.owns(corporation, WESTERN_LAND_GRANT):
            owed -= self.loans.current_rate() - 5
        return owed

    def buying_power_bonus(self, target: Corporation) -> int:
        """P15: a company holding it, put up for sale, lets bidders go $100 over their limit (the
        extra loan it brings; s8504 at 803: DRG is offered for sale with it)."""
        return self.loans.value if self.owns(target, WESTERN_LAND_GRANT) else 0

    def has_a_train(self, corporation: Corporation) -> bool:
        """A Pullman car is not a train (12.7)."""
        return any(not usa_phases.is_pullman(train) for train in corporation.trains)

    def scrappable_trains(self, corporation: Corporation) -> dict[str, int]:
        """A Pullman car may be scrapped for $50 whenever the company may act (12.7)."""
        return {train.id: PULLMAN_SCRAP_VALUE for train in corporation.trains if usa_phases.is_pullman(train)}

    def train_scrapped(self, corporation: Corporation, train: Train) -> None:
        """A Pullman attached for this run and then scrapped earns nothing on its train (12.7)."""
        from engine.titles.g18usa.operating import UsaOperatingRound
        from engine.titles.g18usa.operating_trains import PULLMAN

        rnd = self.round
        if usa_phases.is_pullman(train) and isinstance(rnd, UsaOperatingRound) and rnd.turn is not None \
                and rnd.turn.corporation is corporation:
            rnd.attachments.pop(PULLMAN, None)

    def company_start(self) -> tuple[str, str]:
        """A company starts when a player bids for its president's certificate in a stock
        round: an auction (11.6)."""
        return "bid", "a bid for its president's certificate in a stock round, which opens an auction"

    def shorts_forbidden(self) -> str | None:
        return "short sales are forbidden from phase 8" if self.phase_at_least(SHORTS_END_PHASE) else None

    def end_of_stock_round(self) -> None:
        """Unclaimed subsidies leave after the first stock round (11.6.1); then the family's moves
        (11.8) and liquidations of companies still owing stations (11.6)."""
        self.umap.drop_unclaimed_subsidies()
        for company in list(self.companies.values()):
            if company.id.startswith("S") and company.owner is None:
                company.closed = True
        super().end_of_stock_round()
        if self.option(MAX_START_300):
            ipos.liquidate_underfunded(self, getattr(self.round, "started", set()))

    def liquidates_for_unpaid_stations(self, corporation: Corporation) -> bool:
        """Only a 10-share company is liquidated for stations it could not pay for (11.6)."""
        return self.company_size(corporation) == 10

    # --- facts -----------------------------------------------------------------------------------
    def tokens_off_the_map(self, corporation: Corporation) -> int:
        """P8's marker in a red area is one of its owner's tokens: with 7 stations and the
        marker, a company buying one more station must remove one (s8600 at 555)."""
        placed = any(state.markers_of(FREIGHT) for state in self.board.hexes.values())
        return 1 if placed and self.owns(corporation, EXPRESS_FREIGHT) else 0

    def off_map_token_choices(self, corporation: Corporation) -> list[str]:
        """P8's card: over the most tokens after a merger or acquisition, the company may remove
        its red-area marker instead of a station (P8 then closes); the site asks "Remove"."""
        return [REMOVE_FREIGHT] if self.tokens_off_the_map(corporation) else []

    def remove_off_map_token(self, corporation: Corporation, choice: str) -> None:
        for state in self.board.hexes.values():
            state.markers[:] = [m for m in state.markers if m.kind != FREIGHT]
        self.companies[EXPRESS_FREIGHT].closed = True
        self.log.append(f"{corporation.id} removes P8's marker from its red area; P8 closes")

    def owns(self, corporation: Corporation, company_id: str) -> bool:
        company = self.companies.get(company_id)
        return company is not None and company.owner is corporation and not company.closed

    def companies_of(self, holder: Any) -> list[Company]:
        return [company for company in self.companies.values() if company.owner is holder and not company.closed]

    def market_area(self, corporation: Corporation) -> str | None:
        """"liquidation", "acquisition" or None: where the company's price token is (5)."""
        return area(self, corporation)

    def phase_at_least(self, name: str) -> bool:
        order = [phase.name for phase in self.phases]
        return self.phase_index >= order.index(name)

    def corporation_sizes(self) -> list[int]:
        """The sizes a company may start with in this phase (rule 8). Phase 8's text says no new
        company may be started, its table and the site say 10-share: the text is the default,
        `site_phase_8_starts` the table's and the site's."""
        raw = self.data["entities"]["phases"][self.phase_index]
        sizes = raw["corporation_sizes"]
        if "rulebook_corporation_sizes" in raw and not self.option(SITE_PHASE_8_STARTS):
            sizes = raw["rulebook_corporation_sizes"]
        return [int(size) for size in sizes]

    # --- stock -----------------------------------------------------------------------------------
    def certificate_count(self, player: Player) -> int:
        """Rule 11.4: certificates count once each, privates and short shares not at all."""
        return sum(1 for corp in self.corporations.values() for share in corp.shares
                   if share.owner is player and share.percent > 0)

    def player_value(self, player: Player) -> int:
        """Rule 16: cash plus shares at market price, less shorts; with `site_private_value` the
        player's private companies count at face value too, as on the site."""
        value = super().player_value(player)
        if self.option(SITE_PRIVATE_VALUE):
            value += sum(company.value for company in self.companies_of(player))
        return value

    def max_player_percent(self) -> int:
        """Rule 17's variant lets a president go above 60%; `max_player_percent_of` keeps the
        others to it."""
        return 100 if self.option(PRESIDENT_ABOVE_60) else super().max_player_percent()

    def max_player_percent_of(self, corporation: Corporation, player: Player | None = None) -> int:
        if self.option(PRESIDENT_ABOVE_60) and player is not None and corporation.president() is player:
            return 100
        return super().max_player_percent_of(corporation, player)

    # --- operating order and dividends -----------------------------------------------------------
    def operating_order(self) -> list[Corporation]:
        """Rule 12: companies operate by share price; those in liquidation do not."""
        floated = [corp for corp in self.corporations.values()
                   if corp.floated and not corp.closed and area(self, corp) != LIQUIDATION]
        return sorted(floated, key=lambda corp: self.market.operating_key(corp.id))

    # --- trains ----------------------------------------------------------------------------------
    def train_limit(self, corporation: Corporation) -> int:
        return self.phase.train_limit

    def sticky_routes(self) -> bool:
        return self.option(SITE_STICKY_ROUTES)

    def discards_wait(self, rnd: Any) -> bool:
        return bool(getattr(rnd, "discards_held", False))

    def crowded_order(self, crowded: list[Corporation]) -> list[Corporation]:
        """Rule 6.3 names no order among companies over the limit at once; as on the site they
        discard in the companies' fixed order (s8504 at 832: B&O before DRG, which runs first)."""
        order = list(self.corporations)
        return sorted(crowded, key=lambda corp: order.index(corp.id))

    def counted_trains(self, corporation: Corporation) -> int:
        """Rule 6.3: Pullmans count toward the limit; obsolete trains do not."""
        return sum(1 for train in corporation.trains if not usa_phases.is_obsolete(self, train))

    def must_discard(self, corporation: Corporation) -> bool:
        """Rule 12.7: a company owns one Pullman at most; one that gets a second (buying another
        company) discards trains, any of them, until it is within both limits (as on the site)."""
        # Asked for every company before every move: counted trains are some of its trains, so a
        # company with no more trains than the limit is over it only by a second Pullman, and one
        # train is within every limit (the lowest is 2, 6.3).
        trains = corporation.trains
        if len(trains) < 2:
            return False
        if len(trains) > self.train_limit(corporation) and super().must_discard(corporation):
            return True
        return [train.name for train in trains].count(usa_phases.PULLMAN) > 1

    def defer_rusting(self, rusts: tuple[str, ...]) -> bool:
        """P13 Pennsy Boneyard: the rusting waits for its company's choice."""
        from engine.titles.g18usa.boneyard import defer_rusting

        return defer_rusting(self, rusts)

    def interrupt_steps(self) -> tuple[Step, ...]:
        from engine.titles.g18usa.boneyard import BoneyardStep

        return (BoneyardStep(), *super().interrupt_steps())

    def after_dividend(self, corporation: Corporation) -> None:
        """Obsolete trains leave once the company's earnings are paid (8), as on the site."""
        usa_phases.obsolete_runs_done(self, corporation)

    def on_phase_change(self, phase: Phase) -> None:
        usa_phases.phase_started(self, phase)

    def end_of_operating_round(self) -> None:
        usa_phases.end_of_operating_round(self)

    def end_after_operating_set(self) -> str | None:
        if self.final_turn is not None and self.turn >= self.final_turn:
            return "final_phase"
        return None

    def train_sale_consent(self, buyer: Corporation, train_id: str) -> Player | None:
        """Rules 12.6 and 12.7: a train or Pullman comes from another company only with the
        consent of its president, when that is another player; on the site nobody is asked
        (`site_unasked_train_sales`)."""
        return None if self.option(SITE_UNASKED_TRAIN_SALES) else self.other_president_selling(buyer, train_id)

    def trains_beside_the_depot(self) -> tuple[OtherTrains, ...]:
        """Pullman cars: any number, from phase 5 (12.7)."""
        from engine.titles.g18usa.operating_trains import PULLMAN_PHASE, PULLMAN_PRICE

        waiting = None if self.phase_at_least(PULLMAN_PHASE) else PULLMAN_PHASE
        return (OtherTrains(usa_phases.PULLMAN, None, PULLMAN_PRICE, waiting),)

    # --- map hooks -------------------------------------------------------------------------------
    def status_notes(self) -> list[tuple[str, set[str]]]:
        from engine.titles.g18usa.status import status_notes

        return status_notes(self)

    def map_marks(self) -> dict[str, tuple[Any, ...]]:
        """What the map shows besides tiles and stations (subsidies, resources, markers, ...)."""
        from engine.titles.g18usa.map_facts import map_marks, private_owners

        return map_marks(self.umap, self.phase.name, private_owners(self.companies))

    def upgrade_targets(self, state: HexState) -> tuple[str, ...]:
        return self.board.upgrade_targets(state)

    def next_round(self) -> Any:
        """The last set of operating rounds is as long as rule 16 makes it."""
        following = super().next_round()
        if (following is not None and self.final_turn == self.turn and self.round_num == 1
                and self.cursor.set_index == 0 and self.final_operating_rounds):
            self.operating_rounds = self.final_operating_rounds
        return following

    def after_lay(self, corporation: Corporation, entity: str, lay: Any) -> dict[str, str]:
        """A lay by a private or subsidy uses it up as its card says; returns whose resource
        token each resource on the tile was."""
        from engine.titles.g18usa.privates import after_lay

        return after_lay(self, corporation, entity, lay)

    def train_of(self, train_id: str) -> Train | None:
        return next((train for train in self.all_trains() if train.id == train_id), None)

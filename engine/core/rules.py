"""The rules a title may change, with the defaults of the 1829 family.

`BaseGame` inherits these; a title overrides the ones where its rulebook differs. Each hook
answers one question from the state it is given; the mechanics that use the answers live in the
steps (`engine/core/steps/`) and services (`engine/core/services/`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.board import Board, HexState
from engine.core.entities import Company, Corporation, Player, Pool, Share, Train
from engine.core.graph import can_run_a_route
from engine.core.map_marks import MapMark
from engine.core.phases import Phase
from engine.core.services.bank import Bank
from engine.core.services.depot import Depot
from engine.core.services.market import StockMarket


@dataclass(frozen=True)
class OtherTrains:
    """A kind of train sold beside the depot: its name, how many are left (None: any number), its
    price and the phase it goes on sale in while that phase is still to come (else None)."""

    name: str
    left: int | None
    price: int
    on_sale_from: str | None = None


class TitleRules:
    """Hooks a title overrides; `BaseGame` provides the state named below."""

    board: Board
    bank: Bank
    pool: Pool
    market: StockMarket
    depot: Depot
    data: dict[str, Any]
    corporations: dict[str, Corporation]
    companies: dict[str, Company]
    importing: bool

    @property
    def phase(self) -> Phase:
        raise NotImplementedError

    def transfer(self, source: Any, target: Any, amount: int) -> None:
        raise NotImplementedError

    # --- stock -------------------------------------------------------------------------------
    def company_start(self) -> tuple[str, str]:
        """How a player starts a company, for refusals about one not started: the action type
        (players hear the title's word for it) and what it does, if more needs saying."""
        return "par", ""

    def counts_toward_limit(self, share: Share) -> bool:
        return True

    def pool_limit_percent(self) -> int:
        return int(self.data["entities"]["constants"].get("bank_pool_limit_percent", 50))

    def max_player_percent(self) -> int:
        return int(self.data["entities"]["constants"].get("max_player_percent", 60))

    def max_player_percent_of(self, corporation: Corporation, player: Player | None = None) -> int:
        """The most of `corporation` a player may hold (a title's limit may depend on its size)."""
        return self.max_player_percent()

    def sell_blocked_reason(self, player: Player, corporation: Corporation) -> str | None:
        if corporation.times_operated == 0:
            return f"{corporation.id} has not yet operated, so its shares cannot be sold"
        return None

    def turn_sales_at_first_price(self) -> bool:
        """Whether all the shares of a company a player sells in one stock-round turn fetch the
        price before the turn's first sale of it (a second sale is not paid at the dropped price)."""
        return False

    def after_sale(self, corporation: Corporation, percent: int) -> None:
        """Share price moves down one row per share sold."""
        self.market.move(corporation.id, "down", corporation.units(percent))

    def par_cost(self, corporation: Corporation, price: int) -> int:
        """What starting a company at `price` costs its president: the president's certificate."""
        return price * corporation.units(corporation.president_share().percent)

    def on_float(self, corporation: Corporation) -> None:
        """What floating does (capital, home token, price)."""

    # --- track and stations ------------------------------------------------------------------
    def may_lay_tile(self, lays: list[bool]) -> bool:
        """Two tile actions are offered; which lays they allow is `lay_restriction`'s job."""
        return len(lays) < 2

    def lay_restriction(self, lays: list[bool]) -> str | None:
        """Two yellow lays, or one upgrade as the first and only lay (1829-family default)."""
        if lays and lays[0]:
            return "after an upgrade no further tile may be laid this turn"
        return None

    def may_upgrade(self, lays: list[bool]) -> bool:
        return not lays

    def upgrade_targets(self, state: HexState) -> tuple[str, ...]:
        return self.board.upgrade_targets(state)

    def home_first_problem(self, corporation: Corporation, reach: Any) -> bool:
        """Whether the company must still lay its first tile in its home hex (12.2: "while there
        is no track in the company's home hex")."""
        home = corporation.home_hex
        return home is not None and home in self.board.hexes and not self.board.hexes[home].paths()

    def terrain_cost(self, state: HexState) -> int:
        return 0 if state.tile_laid else state.hexdef.terrain_cost

    def no_token_hexes(self) -> set[str]:
        return set()

    def tokens_left(self, corporation: Corporation) -> int:
        placed = len(self.board.token_hexes(corporation.id))
        return corporation.token_count - placed

    def token_cost(self, corporation: Corporation) -> int:
        return 0

    def ruin_warnings(self) -> list[tuple[str, set[str]]]:
        """Moves that would put a company out of the game or into liquidation, named before they
        are made: (the words, with the move and the figures; the ids they are about). None by
        default; a family's rules name its own."""
        return []

    def status_notes(self) -> list[tuple[str, set[str]]]:
        """A title's own lines for players to keep in view (engine/status.py adds the shared
        ones), each with the ids of the entities it is about. None by default."""
        return []

    def trains_beside_the_depot(self) -> tuple[OtherTrains, ...]:
        """Trains the bank sells that the depot does not hold (18USA's Pullman cars, sold in any
        number). None by default."""
        return ()

    def map_marks(self) -> dict[str, tuple[MapMark, ...]]:
        """Hex -> what the map picture shows there besides tiles and stations (none by default)."""
        return {}

    # --- runs and dividends ------------------------------------------------------------------
    def trust_logged_revenue(self) -> bool:
        """While an imported log replays, its stored run revenues stand, as on the reference site
        (maps there have been corrected since some games were played); live moves are checked."""
        return self.importing

    def run_site_figures(self, corporation: Corporation) -> dict[str, int]:
        """The figures 18xx.games writes beside a run_routes action's routes, as this engine works
        them out for ``corporation``'s run now: what it earns besides its runs (``extra_revenue``;
        nothing, under these titles' rules). A front end takes a pasted run that gives the same."""
        return {"extra_revenue": 0}

    def must_run_for_the_most(self) -> bool:
        """Whether a company must run for the highest earnings its trains can make (checked with
        the route optimizer), or may declare any legal runs."""
        return False

    def sticky_routes(self) -> bool:
        """Once a company has had a route, it counts as having one for good."""
        return False

    def route_available(self, corporation: Corporation) -> bool:
        current = can_run_a_route(self.board, corporation.id)
        if current:
            corporation.route_seen = True
        return current or (self.sticky_routes() and corporation.route_seen)

    def dividend_kinds(self) -> list[str]:
        return ["payout", "withhold"]

    def total_shares(self, corporation: Corporation) -> int:
        return corporation.units(100)

    def half_withheld(self, revenue: int) -> int:
        return revenue // 2

    def dividend_price_move(self, corporation: Corporation, paid: int) -> None:
        if paid <= 0:
            self.market.move(corporation.id, "left")
        elif paid >= self.market.cell_of(corporation.id).price:
            self.market.move(corporation.id, "right")

    # --- trains ------------------------------------------------------------------------------
    def train_limit(self, corporation: Corporation) -> int:
        return self.phase.train_limit

    def counted_trains(self, corporation: Corporation) -> int:
        """The company's trains that count toward its limit (a title may leave some out)."""
        return len(corporation.trains)

    def may_buy_president_certificate(self, share: Share) -> bool:
        """Whether a president's certificate may be bought like a share (a title's reading where
        one can lie in the market); by default it comes only by starting the company."""
        return False

    def president_certificate_bought(self, corporation: Corporation, player: Player, source: Any) -> None:
        """A player bought a president's certificate like a share (`may_buy_president_certificate`)."""

    def discards_wait(self, rnd: Any) -> bool:
        """Whether companies over the train limit wait before discarding (a title's reading of
        when "immediately" is); by default they discard at once."""
        return False

    def must_discard(self, corporation: Corporation) -> bool:
        """Whether the company holds more trains than it may and must discard one."""
        return self.counted_trains(corporation) > self.train_limit(corporation)

    def anyone_must_discard(self) -> bool:
        """Whether some company must discard a train (`must_discard`). Asked before every move, so
        it makes no list; a title that overrides `must_discard` may answer this faster too."""
        cls = type(self)
        if cls.train_limit is TitleRules.train_limit and cls.counted_trains is TitleRules.counted_trains \
                and cls.must_discard is TitleRules.must_discard:  # one limit, every train counts
            most = self.phase.train_limit
            return any(len(corp.trains) > most for corp in self.corporations.values())
        must_discard = self.must_discard
        return any(must_discard(corp) for corp in self.corporations.values() if corp.trains)

    def must_buy_train(self, corporation: Corporation) -> bool:
        return (not corporation.trains and self.depot.next_train() is not None
                and self.route_available(corporation))

    def train_sellers(self, corporation: Corporation) -> list[Corporation]:
        return [other for other in self.corporations.values() if other is not corporation and other.trains]

    def inter_company_price_ok(self, buyer: Corporation, seller: Corporation,
                               train: Train, price: int) -> str | None:
        if price < 1:
            return "a train costs at least $1"
        if price > buyer.cash:
            return f"{buyer.id} has only ${buyer.cash}"
        return None

    def inter_company_price_limits(self, buyer: Corporation, seller: Corporation,
                                   train: Train) -> tuple[int, int] | None:
        """Lowest and highest price `buyer` may pay for `seller`'s train, or None if it cannot.

        Titles that fix some prices narrow this; it must agree with `inter_company_price_ok`.
        """
        return (1, buyer.cash) if buyer.cash >= 1 else None

    def train_sale_consent(self, buyer: Corporation, train_id: str) -> Player | None:
        """The player whose consent a purchase of another company's train needs, or None.

        A front end asks this before it commits a `buy_train`; the engine itself does not
        check consent (it cannot know it), so a logged purchase replays as it was made.
        """
        return None

    def emergency_company_trains(self, corporation: Corporation, sold: bool) -> bool:
        """Whether a company that must buy a train and cannot pay the cheapest bank train from its
        treasury may buy another company's train instead (`sold`: its president has already sold
        shares for this purchase). By default it may not: it has not the resources."""
        return False

    def emergency_sales_at_start_price(self) -> bool:
        """Forced sales for a train fetch the price a company had when the train purchase began,
        even after earlier sales of the same company dropped it."""
        return False

    def defer_rusting(self, rusts: tuple[str, ...]) -> bool:
        """Whether the rusting of these train kinds waits for a decision (a title's step then
        rusts them with `phases.rust_trains`)."""
        return False

    def crowded_order(self, crowded: list[Corporation]) -> list[Corporation]:
        """The order in which companies over the train limit discard (by share price)."""
        return sorted(crowded, key=lambda corp: self.market.operating_key(corp.id))

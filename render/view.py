"""The read-only view that render/ draws from.

Everything here is plain, frozen data. The adapter from the engine fills it in; render/ only
draws it. Nothing in render/ computes a rule or a value: revenues, the phase value in force,
which slot is reserved, route segments and their revenue all arrive already decided.

Sequences are tuples so a view cannot be changed while it is drawn (lists work too at run
time, but the types say tuple).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# An endpoint of a piece of track inside one hex: ("edge", 0..5) for the middle of a map
# edge (0=SW, 1=W, 2=NW, 3=NE, 4=E, 5=SE, ALREADY ROTATED to the map), ("city", i),
# ("town", i), ("offboard", i) or ("junction", 0) for the centre of a plain track tile.
Endpoint = tuple[str, int]
PathView = tuple[Endpoint, Endpoint]
# (phase label, value), e.g. ("2", 20) then ("5", 40) for a red area worth 20 from phase 2.
PhaseValue = tuple[str, int]


@dataclass(frozen=True)
class TokenView:
    corporation: str  # short id drawn on the token, e.g. "T&P"
    fill_color: str  # any SVG colour
    text_color: str = "white"
    label: str | None = None  # drawn instead of the id when given ("" for a neutral token)

    @property
    def text(self) -> str:
        return self.corporation if self.label is None else self.label


@dataclass(frozen=True)
class CityView:
    revenue: int  # value in force now; 0 draws no revenue circle (empty printed city)
    slots: int
    # One entry per slot (missing = empty); entries past `slots` are stations in extra slots
    # beyond the printed ones (18USA's Free Station and P20).
    tokens: tuple[TokenView | None, ...] = ()
    reserved: tuple[str | None, ...] = ()  # home reservation per slot (corporation id)
    # Printed phase-dependent values; when given they are drawn instead of `revenue`.
    values: tuple[PhaseValue, ...] = ()
    current_index: int = 0
    value_colors: tuple[str, ...] = ()  # the tile colour each value goes with, if known


@dataclass(frozen=True)
class TownView:
    revenue: int
    values: tuple[PhaseValue, ...] = ()  # phase-dependent printed values (gray towns)
    current_index: int = 0
    value_colors: tuple[str, ...] = ()


@dataclass(frozen=True)
class OffboardView:
    values: tuple[PhaseValue, ...]
    current_index: int  # index into values of the value in force
    value_colors: tuple[str, ...] = ()


@dataclass(frozen=True)
class MarkerView:
    """A mark on a hex that is neither tile nor station: a subsidy, a resource or bridge token,
    a city-value marker, a company's marker in a red area. Drawn as a small labelled plate."""

    kind: str  # what it is, e.g. "subsidy", "resource", "bridge" (a CSS class for tests)
    text: str  # printed on the plate: "$30 Subsidy", "coal +10", "+10"
    fill: str = "#ffffff"
    text_color: str = "#000000"
    # Bonuses that change with the phase, drawn as "+10" "+20" boxes after the text; the one in
    # force is inverted. Labels may be empty.
    values: tuple[PhaseValue, ...] = ()
    current_index: int = 0
    hollow: bool = False  # a place where a token may still go, not a token: drawn outlined
    owner: str | None = None
    source: str | None = None


@dataclass(frozen=True)
class HexView:
    coord: str  # "J13"
    x: int  # column number - 1 (doubled columns)
    y: int  # row index, A = 0
    color: str  # white, yellow, green, brown, gray, red, blue (current tile colour)
    location_name: str | None = None
    label: str | None = None  # "Y", "NY", ...
    terrain_cost: int = 0  # still to pay; 0 draws no terrain mark
    terrain_types: tuple[str, ...] = ()  # water, desert, mountain, lake
    tile_name: str | None = None  # laid tile number; None for printed/empty hexes
    paths: tuple[PathView, ...] = ()
    cities: tuple[CityView, ...] = ()
    towns: tuple[TownView, ...] = ()
    offboard: OffboardView | None = None
    blocked_by: str | None = None  # private company id that blocks tile lays here
    markers: tuple[MarkerView, ...] = ()
    metropolis: bool = False  # 18USA: drawn with a heavy ring around its city


@dataclass(frozen=True)
class RouteSegment:
    coord: str
    path: PathView  # one of the hex's paths (same endpoints, either order)


@dataclass(frozen=True)
class RouteView:
    train: str  # "3", "2+2", ...
    revenue: int
    segments: tuple[RouteSegment, ...]
    color: str | None = None  # None: render picks from its palette by route index
    corporation: str = ""


@dataclass(frozen=True)
class MapView:
    title: str
    hexes: tuple[HexView, ...]
    highlight_hexes: frozenset[str] = frozenset()
    routes: tuple[RouteView, ...] = ()
    caption: str = ""  # e.g. "Phase 3 - OR 2.1 - SP operating"


@dataclass(frozen=True)
class MarketCellView:
    row: int
    col: int
    price: int
    is_par: bool = False
    on_ledge: bool = False  # no cell below: drawn as a thick ledge line
    up_arrow: bool = False  # moving right from here goes up
    down_arrow: bool = False  # moving left from here goes down
    tokens: tuple[TokenView, ...] = ()  # stacking order, top of the stack first
    # Optional colour zone: a colour name ("yellow") or a kind of space ("liquidation",
    # "acquisition") that has its own colour.
    zone: str | None = None
    label: str | None = None  # a word under the price: "liquidation", "safe par"
    # Dividends per share that move the price 1, 2, 3, 4 steps right (18USA prints them).
    thresholds: tuple[int, ...] = ()


@dataclass(frozen=True)
class MarketView:
    title: str
    cells: tuple[MarketCellView, ...]
    kind: str = "2d"  # "2d" grid or "1d" single row (18USA)


@dataclass(frozen=True)
class PlayerRow:
    name: str
    cash: int
    certs: tuple[str, ...] = ()  # e.g. ("SP 30%", "MKT 20%P")
    cert_count: int = 0
    cert_limit: int = 0
    value: int = 0
    has_priority: bool = False
    companies: tuple[str, ...] = ()  # private company ids
    is_active: bool = False  # the player who must act now
    shorts: tuple[str, ...] | None = None  # e.g. ("TP 2 shares",); None: the title has no shorts
    bankrupt: bool = False
    standing_order: str | None = None  # e.g. "pass", "buy SAA": moves the game makes for them


@dataclass(frozen=True)
class CorpRow:
    id: str
    name: str
    color: str
    text_color: str
    president: str | None
    cash: int
    share_price: int | None
    trains: tuple[str, ...] = ()
    tokens_left: int = 0
    treasury_pct: int = 0
    pool_pct: int = 0
    floated: bool = False
    operated: bool = False
    companies: tuple[str, ...] = ()
    loans: int | None = None  # 18USA; None: the title has no loans (no column)
    size: int | None = None  # shares in the company (2, 5, 10) where a title has several sizes
    area: str | None = None  # a market area the price is in: "acquisition", "liquidation"
    interest_due: int = 0  # what its loans cost it when it next operates
    # Its place in this operating round's order (1 = first), None outside an operating round
    # or for a company that does not operate in it; `turn` says "done", "now" or "" (waiting).
    order: int | None = None
    turn: str = ""
    # Trains as shown: "5", with a Pullman "5+P", a private's attachment "2+1"; the adapter
    # formats them from the engine.


@dataclass(frozen=True)
class DepotRow:
    train: str
    count: int | None  # None = unlimited
    price: int
    rusts_on: str | None = None
    # What buying the first one of this kind does, as short phrases ("phase 5", "rusts 3").
    first_brings: tuple[str, ...] = ()


@dataclass(frozen=True)
class PrivateRow:
    """A private company still open."""

    id: str
    name: str
    holder: str  # a player's name, a company id, or "bank" before it is sold
    value: int = 0
    revenue: int = 0


@dataclass(frozen=True)
class LoanBank:
    """Where loans come from (18USA's Bank of New York)."""

    name: str
    loans_left: int | None  # None: no limit
    interest_rate: int  # dollars per loan


@dataclass(frozen=True)
class TableView:
    title: str
    round_name: str
    phase: str
    players: tuple[PlayerRow, ...]
    corporations: tuple[CorpRow, ...]
    bank_cash: int | None  # None: an unlimited bank
    depot: tuple[DepotRow, ...] = ()
    pool_trains: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)  # free lines, e.g. "Train limit 4"
    privates: tuple[PrivateRow, ...] = ()
    loan_bank: LoanBank | None = None

"""Players, companies, certificates, trains and the bank: who holds what."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PlayerId = int | str


class Holder:
    """Anything that can hold cash or certificates."""

    cash: int = 0
    name: str = ""

    @property
    def key(self) -> str:
        return self.name


@dataclass(eq=False)
class Pool(Holder):
    """The bank pool (open market) where sold shares lie."""

    name: str = "Market"
    cash: int = 0


@dataclass(eq=False)
class Player(Holder):
    """A player: their cash, and whether they have gone bankrupt (their certificates are in the ledger)."""

    id: PlayerId = 0
    name: str = ""
    cash: int = 0
    bankrupt: bool = False

    @property
    def key(self) -> str:
        return str(self.id)


@dataclass(eq=False)
class Share:
    """A share certificate; the president's certificate is index 0."""

    id: str
    corporation: Corporation
    percent: int
    president: bool
    owner: Holder
    received: int = 0


@dataclass(eq=False)
class Train:
    """One train card: its kind (`name`), distance, price and the phase that rusts it."""

    id: str
    name: str
    distance: int
    price: int
    rusts_on: str | None
    events: tuple[str, ...] = ()
    owner: Holder | None = None
    obsolete_on: str | None = None


@dataclass(eq=False)
class Company(Holder):
    """A private company."""

    id: str = ""
    name: str = ""
    value: int = 0
    revenue: int = 0
    ability: dict[str, Any] = field(default_factory=dict)
    owner: Holder | None = None
    closed: bool = False
    abilities_used: int = 0
    # Uses counted by kind, for a company whose card gives several kinds (18USA's P21: a bridge
    # token and a resource token).
    uses: dict[str, int] = field(default_factory=dict)
    text: str = ""  # what it does, in words for players (the title's data)

    @property
    def key(self) -> str:
        return self.id


@dataclass(eq=False)
class Corporation(Holder):
    """A public company: its charter, treasury, trains and station tokens."""

    id: str = ""
    name: str = ""
    color: str = "black"
    text_color: str = "white"
    token_count: int = 0
    token_fee: int = 0
    home_hex: str | None = None
    home_city: int = 0
    float_percent: int = 50
    share_percent: int = 10  # percent of one ordinary share: 10, 20 or 50 for 10, 5 or 2 shares
    cash: int = 0
    shares: list[Share] = field(default_factory=list)
    trains: list[Train] = field(default_factory=list)
    ipoed: bool = False
    floated: bool = False
    times_operated: int = 0
    has_paid: bool = False  # reached the dividend step at least once
    route_seen: bool = False  # had a runnable route at some check (see route_available)
    closed: bool = False
    # A president who does not hold the president's certificate (the site's reading of a
    # certificate sold in 1817's share dealings: it lies in the market, or another player bought
    # it there without becoming president).
    president_without_certificate: Player | None = None
    # The part of that certificate the sale named (percent): what it counts for in the market
    # (11.8, at most the certificate's shares); the shares of it the sale left unsold still count
    # as the seller's while they preside.
    president_certificate_sold: int = 0
    president_certificate_kept: int = 0
    president_certificate_kept_by: Player | None = None
    # What the site's count of this company's percent in the open market differs from the
    # certificates there by, after such a certificate was bought back (counted there for the part
    # sold, taken out whole); the company's new certificates (a conversion, a merger) end it.
    market_percent_offset: int = 0
    # Likewise the players' percent: the site's count keeps the unsold part of such a certificate
    # with its seller and, when a buyer of it from the market hands shares worth it back there,
    # records neither side of the hand-over (so the market's count drops by them too).
    players_percent_offset: int = 0

    @property
    def key(self) -> str:
        return self.id

    def units(self, percent: int) -> int:
        """How many ordinary shares `percent` makes: prices are per ordinary share."""
        return percent // self.share_percent

    def share_by_id(self, share_id: str) -> Share | None:
        for share in self.shares:
            if share.id == share_id:
                return share
        return None

    def percent_owned_by(self, holder: Holder) -> int:
        return sum(share.percent for share in self.shares if share.owner is holder)

    def shares_of(self, holder: Holder) -> list[Share]:
        return [share for share in self.shares if share.owner is holder]

    def president_share(self) -> Share:
        return next(share for share in self.shares if share.president)

    def president(self) -> Player | None:
        if self.president_without_certificate is not None:
            return self.president_without_certificate
        owner = self.president_share().owner
        return owner if isinstance(owner, Player) else None

    def treasury_percent(self) -> int:
        return self.percent_owned_by(self)

    def percent_held_by_players(self) -> int:
        return sum(share.percent for share in self.shares if isinstance(share.owner, Player))

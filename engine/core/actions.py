"""Actions as small typed values, parsed from and written to 18xx.games' dicts at the edge.

Every action type the engine knows is a frozen dataclass listed in `ACTION_TYPES` under its
18xx.games name; a title that adds actions registers its own classes (`register`). Logs keep
the original dicts: `Action.raw` is the dict an action came from, and `to_dict` gives it back
with the typed fields written over it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeVar

from engine.errors import GameError

EntityId = str | int


def _text(raw: Mapping[str, Any], key: str, what: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value:
        raise GameError(f"{what}: give {key} as text")
    return value


def _optional_text(raw: Mapping[str, Any], key: str) -> str | None:
    value = raw.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise GameError(f"{key} is text, not {value!r}")
    return value


def _optional_int(raw: Mapping[str, Any], key: str, what: str) -> int | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"{what} is a whole number, not {value!r}")
    return value


def _share_ids(raw: Mapping[str, Any]) -> tuple[str, ...]:
    shares = raw.get("shares")
    if not isinstance(shares, list) or not shares or not all(isinstance(s, str) for s in shares):
        raise GameError("name the certificates as a list of share ids, e.g. [\"SP_3\"]")
    return tuple(shares)


@dataclass(frozen=True)
class Action:
    """One action: who acts (`entity`, of `entity_type` player, corporation or company)."""

    type: ClassVar[str] = ""
    entity: EntityId | None = None
    entity_type: str = "player"
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Action:
        return cls(**cls.common(raw))

    @staticmethod
    def common(raw: Mapping[str, Any]) -> dict[str, Any]:
        entity = raw.get("entity")
        if entity is not None and (isinstance(entity, bool) or not isinstance(entity, str | int)):
            raise GameError(f"an action's entity is a name or an id, not {entity!r}")
        kind = raw.get("entity_type", "player")
        if kind not in ("player", "corporation", "company", "minor"):
            raise GameError(f"unknown entity type {kind!r}; entity types: player, corporation, company")
        return {"entity": entity, "entity_type": kind, "raw": raw}

    def to_dict(self) -> dict[str, Any]:
        out = dict(self.raw)
        out["type"] = self.raw.get("type") or self.type
        for item in fields(self):
            if item.name == "raw":
                continue
            value = getattr(self, item.name)
            if value is None and item.name not in self.raw:
                continue
            out[item.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class Meta(Action):
    """Actions that change nothing in the position (chat)."""

    type: ClassVar[str] = "message"


@dataclass(frozen=True)
class Pass(Action):
    """Pass: end the turn, or decline what is offered."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True)
class Bid(Action):
    """A bid on a private company (`company`) or, in titles that auction them, a corporation."""

    type: ClassVar[str] = "bid"
    company: str | None = None
    corporation: str | None = None
    price: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Bid:
        return cls(**cls.common(raw), company=_optional_text(raw, "company"),
                   corporation=_optional_text(raw, "corporation"),
                   price=_optional_int(raw, "price", "a bid"))


@dataclass(frozen=True)
class Par(Action):
    """Start a company at a par price (in 18xx.games' words, the price's market cell)."""

    type: ClassVar[str] = "par"
    corporation: str = ""
    share_price: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Par:
        return cls(**cls.common(raw), corporation=str(raw.get("corporation") or ""),
                   share_price=str(raw.get("share_price") or ""))


@dataclass(frozen=True)
class BuyShares(Action):
    """Buy certificates: the shares named (ids), or a percentage of a company."""

    type: ClassVar[str] = "buy_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BuyShares:
        return cls(**cls.common(raw), shares=_share_ids(raw),
                   percent=_optional_int(raw, "percent", "a percent"))


@dataclass(frozen=True)
class SellShares(Action):
    """Sell certificates back to the market: the shares named (ids), or a percentage."""

    type: ClassVar[str] = "sell_shares"
    shares: tuple[str, ...] = ()
    percent: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> SellShares:
        return cls(**cls.common(raw), shares=_share_ids(raw),
                   percent=_optional_int(raw, "percent", "a percent"))


@dataclass(frozen=True)
class LayTile(Action):
    """Lay or upgrade a tile on a hex, turned by `rotation` sixths."""

    type: ClassVar[str] = "lay_tile"
    hex: str = ""
    tile: str = ""
    rotation: int = 0

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> LayTile:
        rotation = raw.get("rotation")
        return cls(**cls.common(raw), hex=str(raw.get("hex")), tile=str(raw.get("tile", "")),
                   # out of range when missing, so the lay check names the rule
                   rotation=rotation if isinstance(rotation, int) and not isinstance(rotation, bool) else -1)


@dataclass(frozen=True)
class PlaceToken(Action):
    """Place a station token in a city (and its slot where the city has several)."""

    type: ClassVar[str] = "place_token"
    city: str = ""
    slot: int | None = None
    tokener: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PlaceToken:
        slot = raw.get("slot")
        return cls(**cls.common(raw), city=str(raw.get("city")),
                   slot=slot if isinstance(slot, int) and not isinstance(slot, bool) else None,
                   tokener=_optional_text(raw, "tokener"))


@dataclass(frozen=True)
class RunRoutes(Action):
    """Run the company's trains: one route per train, and revenue outside the runs."""

    type: ClassVar[str] = "run_routes"
    routes: tuple[Mapping[str, Any], ...] = ()
    extra_revenue: int = 0

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RunRoutes:
        routes = raw.get("routes")
        if not isinstance(routes, list):
            raise GameError("run_routes needs a list of routes")
        if not all(isinstance(route, dict) for route in routes):
            raise GameError("each route is an object with its train and connections")
        extra = raw.get("extra_revenue") or 0
        if isinstance(extra, bool) or not isinstance(extra, int):
            raise GameError(f"extra_revenue is a whole number, not {extra!r}")
        return cls(**cls.common(raw), routes=tuple(routes), extra_revenue=extra)


@dataclass(frozen=True)
class Dividend(Action):
    """Pay out, withhold or half-pay the revenue just earned."""

    type: ClassVar[str] = "dividend"
    kind: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Dividend:
        return cls(**cls.common(raw), kind=str(raw.get("kind")))


@dataclass(frozen=True)
class BuyTrain(Action):
    """Buy a train from the bank, the open market or another company."""

    type: ClassVar[str] = "buy_train"
    train: str = ""
    price: int | None = None
    variant: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> BuyTrain:
        price = raw.get("price")
        return cls(**cls.common(raw), train=str(raw.get("train")),
                   price=price if isinstance(price, int) and not isinstance(price, bool) else None,
                   variant=_optional_text(raw, "variant"))


@dataclass(frozen=True)
class DiscardTrain(Action):
    """A company over its train limit gives one back."""

    type: ClassVar[str] = "discard_train"
    train: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> DiscardTrain:
        return cls(**cls.common(raw), train=str(raw.get("train")))


@dataclass(frozen=True)
class Bankrupt(Action):
    """A player who cannot raise the cash they owe declares bankruptcy."""

    type: ClassVar[str] = "bankrupt"


@dataclass(frozen=True)
class EndGame(Action):
    """End the game now (18xx.games' action, used by a log's last move)."""

    type: ClassVar[str] = "end_game"


A = TypeVar("A", bound=Action)

# The 18xx.games type of each action the shared core knows. Titles add theirs with `register`.
ACTION_TYPES: dict[str, type[Action]] = {
    "pass": Pass, "bid": Bid, "par": Par, "buy_shares": BuyShares, "sell_shares": SellShares,
    "lay_tile": LayTile, "place_token": PlaceToken, "run_routes": RunRoutes, "dividend": Dividend,
    "buy_train": BuyTrain, "discard_train": DiscardTrain, "bankrupt": Bankrupt, "end_game": EndGame,
}
# Types that change nothing in the position (the players' standing orders are engine/core/programs.py's).
META_TYPES = frozenset({"message"})
LOG_TYPES = frozenset({"undo", "redo"})  # resolved by the game log, never by the position


def register(cls: type[A]) -> type[A]:
    """Add a title's action type (usable as a class decorator)."""
    known = ACTION_TYPES.get(cls.type)
    if known is not None and known is not cls:
        raise ValueError(f"action type {cls.type!r} is already {known.__name__}")
    ACTION_TYPES[cls.type] = cls
    return cls


def parse_action(raw: Mapping[str, Any]) -> Action:
    """The typed action for an 18xx.games action dict; a clear GameError for anything else."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("type"), str):
        raise GameError("an action is a JSON object with a 'type'")
    kind = raw["type"]
    if kind in META_TYPES:
        return Meta(**Action.common(raw))
    cls = ACTION_TYPES.get(kind)
    if cls is None:
        if kind in LOG_TYPES:
            raise GameError("undo and redo are handled by the game log, not the position")
        raise GameError(f"unknown action type {kind!r}; known: {', '.join(sorted(ACTION_TYPES))}")
    return cls.from_dict(raw)

"""The 1817 family's action types, in the 18xx.games form (see the actions reference)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.actions import Action, _optional_int, _optional_text, register
from engine.errors import GameError


@register
@dataclass(frozen=True)
class TakeLoan(Action):
    """A company takes a loan from the bank; `loan` is the site's informational loan id."""

    type: ClassVar[str] = "take_loan"
    loan: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TakeLoan:
        return cls(**cls.common(raw), loan=_optional_int(raw, "loan", "a loan id"))


@register
@dataclass(frozen=True)
class PayoffLoan(Action):
    """A company repays one loan."""

    type: ClassVar[str] = "payoff_loan"
    loan: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PayoffLoan:
        return cls(**cls.common(raw), loan=_optional_int(raw, "loan", "a loan id"))


@register
@dataclass(frozen=True)
class ScrapTrain(Action):
    """A company scraps one of its trains (a title says which and for how much)."""

    type: ClassVar[str] = "scrap_train"
    train: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ScrapTrain:
        return cls(**cls.common(raw), train=str(raw.get("train") or ""))


@register
@dataclass(frozen=True)
class Short(Action):
    """A player sells one share of `corporation` short."""

    type: ClassVar[str] = "short"
    corporation: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Short:
        return cls(**cls.common(raw), corporation=str(raw.get("corporation") or ""))


@register
@dataclass(frozen=True)
class Convert(Action):
    """A company converts to the next size (2 to 5 shares, 5 to 10)."""

    type: ClassVar[str] = "convert"


@register
@dataclass(frozen=True)
class Merge(Action):
    """In a merger round the acting company merges with `corporation` and survives; in an
    acquisition round the winning player names their company that buys (`corporation`)."""

    type: ClassVar[str] = "merge"
    corporation: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Merge:
        corporation = raw.get("corporation")
        if not isinstance(corporation, str) or not corporation:
            raise GameError("merge: name the company with corporation")
        return cls(**cls.common(raw), corporation=corporation)


@register
@dataclass(frozen=True)
class RemoveToken(Action):
    """A company takes one of its station tokens off the map (the token reduction)."""

    type: ClassVar[str] = "remove_token"
    city: str = ""
    slot: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RemoveToken:
        return cls(**cls.common(raw), city=str(raw.get("city") or ""),
                   slot=_optional_int(raw, "slot", "a slot"))


@register
@dataclass(frozen=True)
class Assign(Action):
    """Assign `target` (a company, hex or corporation, by `target_type`): a private given to a
    new company, a private's marker put on a hex, or a company offered for a friendly sale."""

    type: ClassVar[str] = "assign"
    target: str = ""
    target_type: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Assign:
        target = raw.get("target")
        if not isinstance(target, str) or not target:
            raise GameError("assign: name the target")
        return cls(**cls.common(raw), target=target, target_type=_optional_text(raw, "target_type"))

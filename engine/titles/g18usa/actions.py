"""The 18USA action types beyond the shared core's, typed at the edge like the core's.

The 1817-family ones (loans, shorts, conversions, mergers, token removal, company assignment)
are written to the same shape as the family modules' so that those can replace them; `choose`
is 18USA's own (a company's size at its start, a train's attachment for a run).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.actions import ACTION_TYPES, Action, register
from engine.errors import GameError


def _loan_id(raw: Mapping[str, Any]) -> int | None:
    value = raw.get("loan")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@dataclass(frozen=True)
class TakeLoan(Action):
    type: ClassVar[str] = "take_loan"
    loan: int | None = None  # informational: the bank gives the next loan whatever is named

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> TakeLoan:
        return cls(**cls.common(raw), loan=_loan_id(raw))


@dataclass(frozen=True)
class PayoffLoan(Action):
    type: ClassVar[str] = "payoff_loan"
    loan: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> PayoffLoan:
        return cls(**cls.common(raw), loan=_loan_id(raw))


@dataclass(frozen=True)
class ScrapTrain(Action):
    type: ClassVar[str] = "scrap_train"
    train: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> ScrapTrain:
        return cls(**cls.common(raw), train=str(raw.get("train") or ""))


@dataclass(frozen=True)
class Short(Action):
    type: ClassVar[str] = "short"
    corporation: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Short:
        return cls(**cls.common(raw), corporation=str(raw.get("corporation") or ""))


@dataclass(frozen=True)
class Convert(Action):
    type: ClassVar[str] = "convert"


@dataclass(frozen=True)
class Merge(Action):
    type: ClassVar[str] = "merge"
    corporation: str = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Merge:
        return cls(**cls.common(raw), corporation=str(raw.get("corporation") or ""))


@dataclass(frozen=True)
class RemoveToken(Action):
    type: ClassVar[str] = "remove_token"
    city: str = ""
    slot: int | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> RemoveToken:
        slot = raw.get("slot")
        return cls(**cls.common(raw), city=str(raw.get("city") or ""),
                   slot=slot if isinstance(slot, int) and not isinstance(slot, bool) else None)


@dataclass(frozen=True)
class Assign(Action):
    type: ClassVar[str] = "assign"
    target: str = ""
    target_type: str | None = None

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Assign:
        target = raw.get("target")
        if not isinstance(target, str) or not target:
            raise GameError("assign needs a target (a company, hex or corporation id)")
        kind = raw.get("target_type")
        return cls(**cls.common(raw), target=target, target_type=str(kind) if kind is not None else None)


@dataclass(frozen=True)
class Choose(Action):
    """A choice the step offers: a company's size at its start, a train for an attachment."""

    type: ClassVar[str] = "choose"
    choice: str | int = ""

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Choose:
        choice = raw.get("choice")
        if isinstance(choice, bool) or not isinstance(choice, str | int):
            raise GameError(f"choose needs a choice (text or a number), not {choice!r}")
        return cls(**cls.common(raw), choice=choice)


for _cls in (TakeLoan, PayoffLoan, ScrapTrain, Short, Convert, Merge, RemoveToken, Assign, Choose):
    if _cls.type not in ACTION_TYPES:
        register(_cls)

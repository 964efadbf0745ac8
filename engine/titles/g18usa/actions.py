"""The 18USA action types beyond the shared core's, typed at the edge like the core's.

The 1817-family ones (loans, shorts, conversions, mergers, token removal, company assignment)
are the family modules' classes, re-exported here; `choose` is 18USA's own (a company's size at its start, a train's attachment for a run).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.actions import Action, register

# The 1817 family's action classes, shared with the family modules (one class per action type).
from engine.core.family1817.actions import Assign as Assign
from engine.core.family1817.actions import Convert as Convert
from engine.core.family1817.actions import Merge as Merge
from engine.core.family1817.actions import PayoffLoan as PayoffLoan
from engine.core.family1817.actions import RemoveToken as RemoveToken
from engine.core.family1817.actions import ScrapTrain as ScrapTrain
from engine.core.family1817.actions import Short as Short
from engine.core.family1817.actions import TakeLoan as TakeLoan
from engine.errors import GameError


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


register(Choose)

"""Loans from the bank: how many each company holds, how many are left, and the interest rate.

Only the bookkeeping: when a company may borrow or must repay, and how interest moves its share
price, are a title's rules (18USA, the 1817 family)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError


@dataclass
class Loans:
    value: int = 0  # what one loan brings and what repaying it costs
    total: int | None = 0  # loans in the game; None for no limit; 0 for a title without loans
    interest_rate: int = 0  # dollars per loan per operating turn, as last fixed
    held: dict[str, int] = field(default_factory=dict)  # company id -> loans it holds

    @classmethod
    def from_constants(cls, constants: dict[str, Any]) -> Loans:
        raw = constants.get("loans")
        if not isinstance(raw, dict):
            return cls()
        total = raw.get("total_loans")
        return cls(value=int(raw.get("value", 0)), total=None if total is None else int(total))

    @property
    def enabled(self) -> bool:
        return self.total is None or self.total > 0

    def count(self, holder: str) -> int:
        return self.held.get(holder, 0)

    def outstanding(self) -> int:
        return sum(self.held.values())

    def available(self) -> int | None:
        """Loans the bank can still give; None for no limit."""
        return None if self.total is None else self.total - self.outstanding()

    def take(self, holder: str) -> None:
        left = self.available()
        if not self.enabled or (left is not None and left <= 0):
            raise GameError("the bank has no loans left to give")
        self.held[holder] = self.count(holder) + 1

    def repay(self, holder: str) -> None:
        if self.count(holder) <= 0:
            raise GameError(f"{holder} has no loan to repay")
        self.held[holder] -= 1
        if not self.held[holder]:
            del self.held[holder]

    def interest_due(self, holder: str) -> int:
        return self.count(holder) * self.interest_rate

"""Loans from the bank: how many each company holds, how many are left, and the interest rate.

Only the bookkeeping: when a company may borrow or must repay, and how loans move its share
price, are a title's rules (the 1817 family's are in `engine/core/family1817/`).

The interest rate comes from tiers: `(rate, loans)` pairs, cheapest first, as on 1817's Bank
of New York: the rate is that of the lowest tier still needed to hold the loans taken (the
first tier's when none are). Titles fix it at moments of their choosing (`fix_rate`); between
those it follows the loans taken (`current_rate`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import GameError


@dataclass
class Loans:
    """The bank's loans: their value, how many there are, who holds them and the interest."""

    value: int = 0  # what one loan brings and what repaying it costs
    total: int | None = 0  # loans in the game; None for no limit; 0 for a title without loans
    interest_rate: int = 0  # dollars per loan per operating turn, as last fixed
    held: dict[str, int] = field(default_factory=dict)  # company id -> loans it holds
    tiers: tuple[tuple[int, int], ...] = ()  # (rate, loans in the tier), cheapest first
    rate_fixed: bool = False

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

    def move(self, source: str, target: str) -> None:
        """All of `source`'s loans become `target`'s (a merger or an acquisition)."""
        moved = self.held.pop(source, 0)
        if moved:
            self.held[target] = self.count(target) + moved

    def forgive(self, holder: str) -> int:
        """The bank takes back every loan of `holder` unpaid; returns how many."""
        return self.held.pop(holder, 0)

    # --- the interest rate ---------------------------------------------------------------------
    def rate_for(self, taken: int) -> int:
        """The rate of the lowest tier that holds `taken` loans (the first tier's for none)."""
        if not self.tiers:
            return self.interest_rate
        room = 0
        for rate, loans in self.tiers:
            room += loans
            if taken <= room:
                return rate
        return self.tiers[-1][0]

    def current_rate(self) -> int:
        """The rate in force: as fixed, or else as the loans taken now would set it."""
        return self.interest_rate if self.rate_fixed or not self.tiers else self.rate_for(self.outstanding())

    def fix_rate(self) -> None:
        self.interest_rate = self.rate_for(self.outstanding())
        self.rate_fixed = True

    def release_rate(self) -> None:
        self.rate_fixed = False

    def interest_due(self, holder: str) -> int:
        return self.count(holder) * self.current_rate()

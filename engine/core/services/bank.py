"""The bank: finite (it can break, which ends the game in many titles) or unlimited."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.entities import Holder


def parse_bank_cash(raw: Any) -> int | None:
    """The title's `bank_cash` constant: a number, or "unlimited" (None)."""
    if raw is None or raw == "unlimited":
        return None
    return int(raw)


@dataclass(eq=False)
class Bank(Holder):
    """The bank's treasury. An unlimited bank pays anything and never breaks; its `cash` still
    counts what went in and out, so that totals add up in tests and pictures."""

    cash: int = 0
    name: str = "Bank"
    unlimited: bool = False
    broken: bool = False

    @classmethod
    def from_constant(cls, raw: Any) -> Bank:
        cash = parse_bank_cash(raw)
        return cls(cash=cash or 0, unlimited=cash is None)

    def can_pay(self, amount: int) -> bool:
        """Whether a finite bank still has `amount` without breaking."""
        return self.unlimited or self.cash >= amount

    def paid_out(self) -> bool:
        """Record a payment; True the first time a finite bank runs out of money."""
        if self.unlimited or self.broken or self.cash >= 0:
            return False
        self.broken = True
        return True

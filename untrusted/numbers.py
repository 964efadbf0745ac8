"""Whole numbers typed on a command line (a game id, a seed, a size in bytes): the digits 0-9
only, as Discord's integer options take them (``int`` would also take '٣', '３' and '1_000'),
within a range a store can hold."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from untrusted.quote import cut, quoted

INT64_MAX = 2**63 - 1  # the largest whole number SQLite and PostgreSQL store


def whole_number(low: int, high: int, unit: str = "") -> Callable[[str], int]:
    """An argparse ``type`` taking a whole number from ``low`` to ``high`` (``unit`` names what
    it counts, as in 'bytes'); a minus sign only where ``low`` is below 0."""
    counted = f" of {unit}" if unit else ""
    after = f" {unit}" if unit else ""

    def parse(text: str) -> int:
        written = text.strip()
        digits = written[1:] if written.startswith("-") and low < 0 else written
        if not (digits.isascii() and digits.isdigit()):
            raise argparse.ArgumentTypeError(f"must be a whole number{counted}, not {quoted(text, 40)}")
        if len(digits) > len(str(max(abs(low), abs(high)))):  # out of range, and too long for int() to take
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}{after}, not {cut(written, 40)}")
        value = int(written)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}{after}, not {value}")
        return value

    return parse

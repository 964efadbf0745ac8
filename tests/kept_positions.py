"""Kept random-play positions (tests/data/positions/) whose tests wait for a new position."""

from __future__ import annotations

from typing import Any

import pytest

# Kept positions that stopped replaying when 18USA's rules were corrected (issue 29) and that
# random play has not reached again yet: their tests are expected to fail, strictly, until a new
# position is found (`python bench/keep_positions.py NAME --policy rare --write`) and the tests'
# specifics follow it.
# None now: the three the corrections of 2026-12-03 left behind were found again.
STALE_POSITIONS: dict[str, str] = {}


def stale_reason(name: str) -> str:
    return (f"kept position {name} ({STALE_POSITIONS[name]}) no longer replays after the 18USA rule "
            "corrections; regenerate it with bench/keep_positions.py")


def stale_mark(name: str) -> list[Any]:
    """The strict expected failure of a test on a stale kept position (none for a live one)."""
    return [pytest.mark.xfail(strict=True, reason=stale_reason(name))] if name in STALE_POSITIONS else []

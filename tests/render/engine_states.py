"""Real engine positions of the 18Texas fixture, replayed once per test session."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from engine import load_game
from engine.core.game import BaseGame
from render.cli import truncate_log

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
# 18xx.games action ids: an early stock round (6 tiles), phase 4 mid-game with a run, the end.
GOLDEN_STATES: dict[str, int | None] = {"a40": 40, "a200": 200, "end": None}


@cache
def fixture_log() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text())


@cache
def state_after(upto: int | None) -> BaseGame:
    """The position after action id `upto` (None: the whole log). Shared: do not change it."""
    return load_game(truncate_log(fixture_log(), upto)).state

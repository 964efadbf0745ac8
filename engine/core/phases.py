"""The phases of a game, which train purchases start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Phase:
    name: str
    on_train: str | None
    train_limit: int
    tiles: tuple[str, ...]
    operating_rounds: int

    def __deepcopy__(self, memo: dict[int, Any]) -> Phase:
        return self


def parse_phases(raw: list[dict[str, Any]]) -> list[Phase]:
    return [
        Phase(p["name"], p.get("on_train"), int(p["train_limit"]), tuple(p["tiles"]),
              int(p["operating_rounds"]))
        for p in raw
    ]

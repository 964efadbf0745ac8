"""The train depot and the phases that train purchases start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.entities import Train


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


class Depot:
    """New trains not yet sold, in the order they come out."""

    def __init__(self, raw_trains: list[dict[str, Any]]) -> None:
        self.trains: list[Train] = []
        for raw in raw_trains:
            for index in range(int(raw["count"])):
                self.trains.append(
                    Train(
                        id=f"{raw['name']}-{index}",
                        name=raw["name"],
                        distance=int(raw["distance"]),
                        price=int(raw["price"]),
                        rusts_on=raw.get("rusts_on"),
                        events=tuple(raw.get("events") or ()),
                    )
                )
        self.sold_names: set[str] = set()

    def next_train(self) -> Train | None:
        return self.trains[0] if self.trains else None

    def take(self, train: Train) -> None:
        self.trains.remove(train)

    def first_of_kind(self, train: Train) -> bool:
        return train.name not in self.sold_names

    def run_length(self) -> list[list[Any]]:
        encoded: list[list[Any]] = []
        for train in self.trains:
            if encoded and encoded[-1][0] == train.name:
                encoded[-1][1] += 1
            else:
                encoded.append([train.name, 1])
        return encoded

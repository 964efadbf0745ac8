"""The train depot: new trains in the order they come out, and the open market of trains
that companies discarded (bought back from the bank like new ones, where a title allows)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.entities import Train

UNLIMITED = "unlimited"


def train_count(raw: dict[str, Any], players: int) -> int | None:
    """How many trains of one kind a game of `players` players has; None for unlimited.

    `count` is a number, "unlimited", or a table by player count whose keys are one count
    ("4") or a range ("2-4")."""
    count = raw.get("count")
    if isinstance(count, dict):
        count = _by_players(count, players)
    if count is None:
        # The reference data writes per-player counts as count_<low>_to_<high>_players.
        table = {key[len("count_"):-len("_players")].replace("_to_", "-"): value
                 for key, value in raw.items() if key.startswith("count_") and key.endswith("_players")}
        count = _by_players(table, players) if table else None
    if count == UNLIMITED:
        return None
    if count is None:
        raise ValueError(f"train {raw.get('name')!r} has no count for {players} players")
    return int(count)


def _by_players(table: dict[str, Any], players: int) -> Any:
    for key, value in table.items():
        low, _, high = str(key).partition("-")
        if int(low) <= players <= int(high or low):
            return value
    return None


@dataclass(frozen=True)
class TrainKind:
    """One kind of train as the title's data describes it."""

    name: str
    distance: int
    price: int
    count: int | None  # None: unlimited
    rusts_on: str | None = None
    obsolete_on: str | None = None
    available_on: str | None = None
    events: tuple[str, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> TrainKind:
        return self  # immutable: the safety copy of a game shares it

    @classmethod
    def parse(cls, raw: dict[str, Any], players: int) -> TrainKind:
        return cls(name=raw["name"], distance=int(raw["distance"]), price=int(raw["price"]),
                   count=train_count(raw, players), rusts_on=raw.get("rusts_on"),
                   obsolete_on=raw.get("obsolete_on"), available_on=raw.get("available_on"),
                   events=tuple(raw.get("events") or ()))

    def make(self, index: int) -> Train:
        return Train(id=f"{self.name}-{index}", name=self.name, distance=self.distance,
                     price=self.price, rusts_on=self.rusts_on, events=self.events,
                     obsolete_on=self.obsolete_on)


@dataclass
class Depot:
    """New trains not yet sold, in order. An unlimited kind keeps one train in its place in the
    stack, made anew when it is taken, until the kind is retired (18USA exports its unlimited
    2-trains after the first operating round); the kinds after it are reached only then."""

    kinds: tuple[TrainKind, ...]
    trains: list[Train] = field(default_factory=list)
    discarded: list[Train] = field(default_factory=list)
    sold_names: set[str] = field(default_factory=set)
    made: dict[str, int] = field(default_factory=dict)  # trains made so far of each kind
    retired: set[str] = field(default_factory=set)  # unlimited kinds no longer made
    # Trains that left play with a company nobody bought (the bank took it), until they would
    # have rusted: no one may buy them, but on the site they keep companies' buy steps open.
    left_play: list[Train] = field(default_factory=list)

    @classmethod
    def from_data(cls, raw_trains: list[dict[str, Any]], players: int) -> Depot:
        depot = cls(tuple(TrainKind.parse(raw, players) for raw in raw_trains))
        for kind in depot.kinds:
            for _ in range(1 if kind.count is None else kind.count):
                depot.trains.append(depot._make(kind))
        return depot

    def _make(self, kind: TrainKind) -> Train:
        index = self.made.get(kind.name, 0)
        self.made[kind.name] = index + 1
        return kind.make(index)

    def next_train(self) -> Train | None:
        return self.trains[0] if self.trains else None

    def unlimited(self, name: str) -> bool:
        kind = self.kind(name)
        return kind is not None and kind.count is None and name not in self.retired

    def take(self, train: Train) -> None:
        if train in self.discarded:
            self.discarded.remove(train)
            return
        place = self.trains.index(train)
        kind = self.kind(train.name)
        if kind is not None and self.unlimited(train.name):
            self.trains[place] = self._make(kind)
        else:
            del self.trains[place]

    def retire(self, name: str) -> list[Train]:
        """Stop making an unlimited kind and take its trains out of the stack; returns them."""
        self.retired.add(name)
        gone = [train for train in self.trains if train.name == name]
        self.trains = [train for train in self.trains if train.name != name]
        return gone

    def discard(self, train: Train, to_market: bool) -> None:
        """A train given back to the bank: into the open market, or out of the game."""
        train.owner = None
        if to_market:
            self.discarded.append(train)

    def first_of_kind(self, train: Train) -> bool:
        return train.name not in self.sold_names

    def kind(self, name: str) -> TrainKind | None:
        return next((kind for kind in self.kinds if kind.name == name), None)

    def run_length(self) -> list[list[Any]]:
        """The new trains left as [name, count] runs (the reference traces' form)."""
        encoded: list[list[Any]] = []
        for train in self.trains:
            if encoded and encoded[-1][0] == train.name:
                encoded[-1][1] += 1
            else:
                encoded.append([train.name, 1])
        return encoded

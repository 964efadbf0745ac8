"""The phases of a game, which train purchases start."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.entities import Train

if TYPE_CHECKING:
    from engine.core.game import BaseGame

@dataclass(frozen=True)
class Phase:
    """One phase of the game: what starts it, the train limit, the tile colours and the rounds."""

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


@dataclass(frozen=True)
class FirstTrainEffects:
    """What buying the first train of a kind does."""

    phase: str | None
    rusts: tuple[str, ...]
    events: tuple[str, ...]


def first_train_effects(game: BaseGame, name: str) -> FirstTrainEffects:
    """What the first train of a kind would set off if it were bought now."""
    phase = next((p.name for index, p in enumerate(game.phases)
                  if p.on_train == name and index > game.phase_index), None)
    rusts = []
    for raw in game.data["entities"]["trains"]:
        if raw.get("rusts_on") == name and raw["name"] not in rusts:
            rusts.append(raw["name"])
    events = next((tuple(raw.get("events") or ()) for raw in game.data["entities"]["trains"]
                   if raw["name"] == name), ())
    return FirstTrainEffects(phase, tuple(rusts), events)


def apply_first_train(game: BaseGame, train: Train) -> None:
    """A first train of its kind may start a phase, rust older trains and fire events."""
    if not game.depot.first_of_kind(train):
        return
    game.depot.sold_names.add(train.name)
    effects = first_train_effects(game, train.name)
    for index, phase in enumerate(game.phases):
        if phase.name == effects.phase and index > game.phase_index:
            game.phase_index = index
            game.log.append(f"Phase {phase.name} begins")
            game.on_phase_change(phase)
    if effects.rusts and not game.defer_rusting(effects.rusts):
        rust_trains(game, effects.rusts)
    for event in train.events:
        game.on_train_event(event)


def rust_trains(game: BaseGame, names: tuple[str, ...], spared: frozenset[str] = frozenset()) -> None:
    """Every company's trains of the named kinds rust, except the train ids `spared`."""
    for corp in game.corporations.values():
        rusted = [t for t in corp.trains if t.name in names and t.id not in spared]
        for old in rusted:
            corp.trains.remove(old)
            old.owner = None
        if rusted:
            game.log.append(f"{corp.id}'s {', '.join(t.name for t in rusted)}-train(s) rust")
    game.depot.left_play = [t for t in game.depot.left_play if t.name not in names]

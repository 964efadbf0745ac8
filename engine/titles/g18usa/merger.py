"""18USA merger and acquisition rounds (rule 14): conversions and mergers in operating order,
then company sales in reverse operating order."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engine.core.actions import Action, Pass
from engine.core.entities import Corporation, Holder
from engine.core.round import Round, RoundSpec
from engine.core.step import Handler, Move, Step

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA


def _usa(game: BaseGame) -> G18USA:
    from engine.titles.g18usa.game import G18USA

    assert isinstance(game, G18USA)
    return game


@dataclass
class MergerRound(Round):
    """Each company in operating order may convert, merge or pass (14.1)."""

    name: ClassVar[str] = "Merger and Conversion Round"
    order: list[str] = field(default_factory=list)
    index: int = 0

    def start(self, game: BaseGame) -> None:
        usa = _usa(game)
        self.order = [corp.id for corp in usa.operating_order() if usa.market_area(corp) is None]
        self.index = 0
        game.log.append(f"{self.title(game)}")
        if not self.order:
            self.finished = True

    def current_entity(self, game: BaseGame) -> Holder | None:
        if self.index >= len(self.order):
            return None
        return game.corporations[self.order[self.index]]

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def next_company(self) -> None:
        self.index += 1
        if self.index >= len(self.order):
            self.finished = True


class ConversionStep(Step):
    key = "conversion"
    label = "convert or merge"

    def handlers(self) -> Mapping[str, Handler]:
        return {"pass": self.process_pass}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["pass"] if entity is rnd.current_entity(game) else []

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        assert isinstance(rnd, MergerRound)
        rnd.next_company()

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        current = rnd.current_entity(game)
        if isinstance(current, Corporation) and entity is not current:
            return f"it is {current.id}'s turn in the merger round"
        return None


@dataclass
class AcquisitionRound(Round):
    """Liquidations, acquisitions and friendly sales in reverse operating order (14.2)."""

    name: ClassVar[str] = "Acquisition Round"

    def start(self, game: BaseGame) -> None:
        self.finished = True

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"


def merger_round_spec() -> RoundSpec:
    return RoundSpec(MergerRound, (ConversionStep(),))


def acquisition_round_spec() -> RoundSpec:
    return RoundSpec(AcquisitionRound, ())


def _moves(entity: Corporation) -> list[Move]:
    return [{"type": "pass", "entity": entity.id}]

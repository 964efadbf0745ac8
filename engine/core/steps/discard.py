"""An interrupting step: a company over its train limit discards down to it, in any round."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Action, DiscardTrain
from engine.core.entities import Corporation, Holder
from engine.core.round import Round
from engine.core.step import Handler, Move, Step, command_word
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def crowded(game: BaseGame) -> list[Corporation]:
    over = [corp for corp in game.corporations.values()
            if corp.trains and game.must_discard(corp)]
    return game.crowded_order(over)


class DiscardTrainStep(Step):
    label = "discard a train"
    key = "discard_train"

    def handlers(self) -> Mapping[str, Handler]:
        return {"discard_train": self.process_discard}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return not game.discards_wait(rnd) and game.anyone_must_discard()

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        waiting = crowded(game)
        return waiting[0] if waiting else None

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["discard_train"] if entity is self.acting_entity(game, rnd) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        corp = self.acting_entity(game, rnd)
        if corp is None:
            return None
        return (f"{corp.key} is over its train limit and must first discard a train with "
                f"{command_word(game, 'discard_train', corp)}")

    def process_discard(self, game: BaseGame, rnd: Round, entity: Holder, action: DiscardTrain) -> None:
        assert isinstance(entity, Corporation)
        train = next((t for t in entity.trains if t.id == action.train), None)
        if train is None:
            names = ", ".join(t.id for t in entity.trains)
            raise GameError(f"{entity.id} has no train {action.train!r}; it has {names}")
        entity.trains.remove(train)
        game.depot.discard(train, to_market=game.DISCARDS_TO_MARKET)
        game.log.append(f"{entity.id} discards a {train.name}-train")

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        corp = self.acting_entity(game, rnd)
        if not isinstance(corp, Corporation):
            return []
        return [{"type": "discard_train", "entity": corp.id,
                 "choices": [{"train": t.id} for t in corp.trains]}]

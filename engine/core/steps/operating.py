"""What the operating company's steps share: each step is done once per turn, either by a
decision or by being passed over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.actions import Action
from engine.core.entities import Corporation, Holder
from engine.core.operating_round import CorporateTurn, OperatingRound
from engine.core.round import Round
from engine.core.step import Step
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def operating(rnd: Round) -> OperatingRound:
    assert isinstance(rnd, OperatingRound), f"{type(rnd).__name__} is not an operating round"
    return rnd


class OperatingStep(Step):
    """A step of the operating company's turn."""

    def active(self, game: BaseGame, rnd: Round) -> bool:
        # Asked for every step before every move: plain attribute access (an operating step
        # is only ever in an operating round).
        turn: CorporateTurn | None = getattr(rnd, "turn", None)
        return turn is not None and self.key not in turn.done_steps

    def turn(self, rnd: Round) -> CorporateTurn:
        turn: CorporateTurn | None = getattr(rnd, "turn", None)
        if turn is None:
            raise GameError("no company is operating")
        return turn

    def done(self, rnd: Round) -> None:
        self.turn(rnd).done_steps.add(self.key)

    def skip(self, game: BaseGame, rnd: Round) -> None:
        self.done(rnd)

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        """What the operating company may do at this step now."""
        return []

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        turn: CorporateTurn | None = getattr(rnd, "turn", None)
        return self.own_actions(game, rnd) if turn is not None and entity is turn.corporation else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        corp = operating(rnd).corporation
        if isinstance(entity, Corporation) and entity is not corp:
            return f"it is {corp.id}'s turn to operate"
        return None

    @staticmethod
    def operator(rnd: Round, entity: Holder) -> Corporation:
        corp = operating(rnd).corporation
        if entity is not corp:
            raise GameError(f"it is {corp.id}'s turn to operate")
        return corp

"""An interrupting step: a station a company must (or may) place now, chosen by the entity the
rule names, in any round: a home station chosen when a company starts, or the station that comes
with a private company's tile.

A rule opens it by appending a `PendingToken` to `game.pending_tokens`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.actions import Action, Pass, PlaceToken
from engine.core.entities import Holder
from engine.core.round import Round
from engine.core.step import Handler, Move, Step
from engine.core.track import check_token, city_id, find_city, place_token
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass(frozen=True)
class PendingToken:
    """`corporation`'s station, placed by `entity` (of `entity_type`) in one of `hexes`."""

    entity: str
    entity_type: str
    corporation: str
    hexes: tuple[str, ...]
    optional: bool = False  # may be declined with a pass
    cost: int = 0
    # The entity is asked even when no city can take the station (it may only pass).
    ask_always: bool = False
    # The operating company's step that placing this station uses up (its own station step).
    uses_step: str | None = None


class PendingTokenStep(Step):
    key = "pending_token"
    label = "place a station"

    def handlers(self) -> Mapping[str, Handler]:
        return {"place_token": self.process_place, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return bool(game.pending_tokens)

    def pending(self, game: BaseGame) -> PendingToken:
        return game.pending_tokens[0]

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        if not game.pending_tokens:
            return None
        pending = self.pending(game)
        return game.lookup(pending.entity_type, pending.entity)

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        if entity is not self.acting_entity(game, rnd):
            return []
        return ["place_token", "pass"] if self.pending(game).optional else ["place_token"]

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        if not game.pending_tokens:
            return None
        pending = self.pending(game)
        optional = " or pass" if pending.optional else ""
        return (f"{pending.entity} must first place {pending.corporation}'s station in "
                f"{', '.join(pending.hexes)}{optional}")

    def cities(self, game: BaseGame) -> list[tuple[str, int]]:
        pending = self.pending(game)
        corporation = game.corporation(pending.corporation)
        found = []
        for coord in pending.hexes:
            for index in range(len(game.board.hexes[coord].tokens)):
                try:
                    check_token(game, corporation, coord, index, None, None)
                except GameError:
                    continue
                found.append((coord, index))
        return found

    def process_place(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        pending = self.pending(game)
        corporation = game.corporation(pending.corporation)
        coord, index = find_city(game, action.city)
        if coord not in pending.hexes:
            raise GameError(f"{corporation.id}'s station goes in {', '.join(pending.hexes)}, not {coord}")
        slot = check_token(game, corporation, coord, index, action.slot, None)
        if pending.cost:
            game.transfer(corporation, game.bank, pending.cost)
        place_token(game, corporation, coord, index, slot)
        game.pending_tokens.pop(0)
        turn = getattr(rnd, "turn", None)
        if pending.uses_step is not None and turn is not None:
            turn.done_steps.add(pending.uses_step)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        game.log.append(f"{game.describe(entity)} places no station for {self.pending(game).corporation}")
        game.pending_tokens.pop(0)

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        pending = self.pending(game)
        return pending.ask_always or not pending.optional or bool(self.cities(game))

    def skip(self, game: BaseGame, rnd: Round) -> None:
        """An optional station with nowhere to go lapses."""
        game.pending_tokens.pop(0)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        entity = self.acting_entity(game, rnd)
        if entity is None:
            return []
        pending = self.pending(game)
        choices = [{"city": city_id(game.board.hexes[coord], index), "hex": coord}
                   for coord, index in self.cities(game)]
        moves: list[Move] = []
        if choices:
            moves.append({"type": "place_token", "entity": pending.entity, "entity_type": pending.entity_type,
                          "choices": choices})
        if pending.optional:
            moves.append({"type": "pass", "entity": pending.entity, "entity_type": pending.entity_type})
        return moves

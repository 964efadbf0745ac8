"""Laying track: the operating company's tile lays (12.2)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, LayTile, Pass
from engine.core.entities import Holder
from engine.core.graph import reach_of
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep, operating
from engine.core.track import apply_tile_lay, check_tile_lay, legal_tile_lays
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def tile_lay_matches(choice: Mapping[str, Any], action: LayTile) -> bool:
    """The offered hex, a tile of the offered name (any copy) and an offered rotation."""
    if choice["hex"] != action.hex:
        return False
    return any(tile["tile"].rsplit("-", 1)[0] == action.tile.rsplit("-", 1)[0]
               and action.rotation in tile["rotations"] for tile in choice["tiles"])


class TrackStep(OperatingStep):
    label = "lay track"
    key = "track"

    def handlers(self) -> Mapping[str, Handler]:
        return {"lay_tile": self.process_lay_tile, "pass": self.process_pass}

    def lays_left(self, game: BaseGame, rnd: Round) -> bool:
        lays = self.turn(rnd).lays
        return game.may_lay_tile(lays) and game.lay_restriction(lays) is None

    def pass_refusal(self, game: BaseGame, rnd: Round) -> str | None:
        """Why the step may not be passed now (a title's owed lay)."""
        return None

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        return ["lay_tile", "pass"] if self.lays_left(game, rnd) else []

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        refusal = self.pass_refusal(game, rnd)
        if refusal:
            raise GameError(refusal)
        self.done(rnd)

    def process_lay_tile(self, game: BaseGame, rnd: Round, entity: Holder, action: LayTile) -> None:
        corp = self.operator(rnd, entity)
        turn = self.turn(rnd)
        restriction = game.lay_restriction(turn.lays)
        if restriction:
            raise GameError(restriction)
        yellow_only = not game.may_upgrade(turn.lays)
        lay = check_tile_lay(game, corp, action, reach_of(game.board, corp.id), yellow_only=yellow_only)
        apply_tile_lay(game, corp, lay)
        turn.lays.append(lay.upgrade)

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return isinstance(action, LayTile) and tile_lay_matches(choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        if not self.own_actions(game, rnd):
            return []
        corp = operating(rnd).corporation
        turn = self.turn(rnd)
        yellow_only = not game.may_upgrade(turn.lays)
        restricted = game.lay_restriction(turn.lays) is not None
        lays = [] if restricted else legal_tile_lays(game, corp, reach_of(game.board, corp.id),
                                                     yellow_only=yellow_only)
        moves: list[Move] = []
        if lays:
            moves.append({"type": "lay_tile", "entity": corp.id, "choices": lays})
        if self.pass_refusal(game, rnd) is None:
            moves.append({"type": "pass", "entity": corp.id})
        return moves

"""18USA private powers used by `assign` in the operating round: bridges (P2, P21, P22, rule 13.4),
P6's red-area value token and P8's freight marker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Action
from engine.core.entities import Company, Holder
from engine.core.graph import Reach, reach_of
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep
from engine.errors import GameError
from engine.titles.g18usa import powers
from engine.titles.g18usa.actions import Assign
from engine.titles.g18usa.operating import _round
from engine.titles.g18usa.stations import (
    BRIDGE_PRIVATES,
    check_bridge,
    check_red_area,
    place_bridge,
    place_freight_marker,
    revalue_red_area,
)
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA


class AssignStep(OperatingStep):
    key = "assign"
    label = "use a private company"
    blocking = False

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return getattr(rnd, "turn", None) is not None

    def handlers(self) -> Mapping[str, Handler]:
        return {"assign": self.process_assign}

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        turn = getattr(rnd, "turn", None)
        if turn is None or not isinstance(entity, Company) or entity.owner is not turn.corporation:
            return []
        if entity.id in BRIDGE_PRIVATES and powers.uses_left(entity, powers.BRIDGE):
            return ["assign"]
        if entity.id in ("P6", "P8") and not entity.abilities_used:
            return ["assign"]
        return []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        """Why one of the operating company's privates may not be assigned now: its card's uses
        are spent, or its card has nothing to assign."""
        turn = getattr(rnd, "turn", None)
        if action.type != "assign" or turn is None or not isinstance(entity, Company) \
                or entity.owner is not turn.corporation:
            return None
        if entity.id in BRIDGE_PRIVATES:
            given = powers.allowance(entity, powers.BRIDGE)
            return f"{entity.id} has no bridge token left (its card gives {given}, one a hex)"
        if entity.id in ("P6", "P8"):
            return f"{entity.id} ({entity.name}) is used once; it has been used"
        return f"{entity.id} ({entity.name}) is not assigned to anything; its card: {entity.text}"

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        """For each of the operating company's privates with a power left, the hexes it may go on."""
        usa = _usa(game)
        corporation = _round(rnd).corporation
        moves: list[Move] = []
        reach: Reach | None = None
        for company in usa.companies_of(corporation):
            if not self.actions(game, rnd, company):
                continue
            reach = reach or reach_of(usa.board, corporation.id)
            reached = sorted({node[0] for node in reach.nodes})
            if company.id in ("P6", "P8"):
                targets = sorted({coord for hex_id in reached for coord in usa.umap.red_area_hexes(hex_id)})
            else:
                targets = [coord for coord in reached if _bridge_fits(usa, corporation.id, company.id, coord, reach)]
            if targets:
                moves.append({"type": "assign", "entity": company.id, "entity_type": "company",
                              "choices": [{"target": coord, "target_type": "hex"} for coord in targets]})
        return moves

    def process_assign(self, game: BaseGame, rnd: Round, entity: Holder, action: Assign) -> None:
        usa = _usa(game)
        corporation = _round(rnd).corporation
        assert isinstance(entity, Company)
        coord = action.target
        if coord not in usa.board.hexes:
            raise GameError(f"{entity.id} is assigned to a hex; {coord!r} is not one")
        reach = reach_of(usa.board, corporation.id)
        if entity.id == "P6":
            check_red_area(usa.umap, corporation.id, coord, reach)
            revalue_red_area(usa.umap, coord)
            entity.closed = True
            entity.abilities_used += 1
        elif entity.id == "P8":
            check_red_area(usa.umap, corporation.id, coord, reach)
            place_freight_marker(usa.umap, corporation.id, coord)
            entity.abilities_used += 1
        else:
            check_bridge(usa.umap, corporation.id, entity.id, coord, reach)
            place_bridge(usa.umap, entity.id, coord)
            powers.use(entity, powers.BRIDGE)
        game.log.append(f"{corporation.id} uses {entity.id} in {coord}")


def _bridge_fits(game: G18USA, corporation: str, source: str, coord: str, reach: Reach) -> bool:
    try:
        check_bridge(game.umap, corporation, source, coord, reach)
    except GameError:
        return False
    return True

"""Placing a station: the operating company's station step (12.3)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Pass, PlaceToken
from engine.core.entities import Holder
from engine.core.graph import reach_of
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep, operating
from engine.core.track import check_token, city_id, find_city, place_token, tokenable_cities

if TYPE_CHECKING:
    from engine.core.game import BaseGame


class TokenStep(OperatingStep):
    label = "place a station"
    key = "token"

    def handlers(self) -> Mapping[str, Handler]:
        return {"place_token": self.process_place_token, "pass": self.process_pass}

    def held_open(self, game: BaseGame, rnd: Round) -> bool:
        """Whether the step stays open without a city of the company's own to offer (a title's
        private company may still place a station here)."""
        return False

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        if game.tokens_left(corp) <= 0 or corp.cash < game.token_cost(corp):
            return []
        if not tokenable_cities(game, corp, reach_of(game.board, corp.id)) and not self.held_open(game, rnd):
            return []
        return ["place_token", "pass"]

    def closed(self, game: BaseGame, rnd: Round) -> None:
        """The step is over: passed or a station placed."""
        self.done(rnd)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.closed(game, rnd)

    def process_place_token(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        corp = self.operator(rnd, entity)
        coord, city_index = find_city(game, action.city)
        slot = check_token(game, corp, coord, city_index, action.slot, reach_of(game.board, corp.id))
        cost = game.token_cost(corp)
        if cost:
            game.transfer(corp, game.bank, cost)
        place_token(game, corp, coord, city_index, slot)
        self.closed(game, rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        if not self.own_actions(game, rnd):
            return []
        corp = operating(rnd).corporation
        cities = tokenable_cities(game, corp, reach_of(game.board, corp.id))
        choices = [{"city": city_id(game.board.hexes[coord], index), "hex": coord} for coord, index in cities]
        moves: list[Move] = []
        if choices:
            moves.append({"type": "place_token", "entity": corp.id, "choices": choices})
        return moves + [{"type": "pass", "entity": corp.id}]

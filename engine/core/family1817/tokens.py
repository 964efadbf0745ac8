"""Rule 14.3's token reduction: a company with two stations in one hex, or more stations on the
map than it may have, removes the station it chooses (`remove_token`). An interrupting step,
so it holds whichever round made the merger or the purchase. In a company sale the target's
stations wait beside the buyer's (`Family1817Game.joining_stations`) until the removals are done."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.actions import Action
from engine.core.board import NEUTRAL_TOKEN
from engine.core.entities import Corporation, Holder
from engine.core.family1817.actions import RemoveToken
from engine.core.family1817.sizes import (
    crowded_candidates,
    finish_joining,
    joined_stations,
    stations_to_remove,
)
from engine.core.round import Round
from engine.core.step import Handler, Move, Step, command_word
from engine.core.track import city_id, find_city
from engine.errors import GameError


def crowded_stations(game: Any) -> list[Corporation]:
    candidates = crowded_candidates(game)
    if not candidates:  # as after almost every action: no company's list to read
        return []
    return [corp for corp in game.corporations.values()
            if corp.id in candidates and corp.ipoed and stations_to_remove(game, corp) > 0]


def removable(game: Any, corporation: Corporation) -> list[tuple[str, int, int]]:
    """(hex, city, slot) of the stations the company may remove now: those in a hex where it has
    two, or any of them when it simply has too many (a company it is taking over counts with it).
    As the site plays a company sale or merger, any other station in a hex where one of the two
    has one may be taken off too (it goes back to its owner's charter and counts for nothing)."""
    placed = joined_stations(game, corporation)
    coords = [coord for coord, _, _ in placed]
    doubled = {coord for coord in coords if coords.count(coord) > 1}
    own = [(coord, city_index, slot) for coord, city_index, slot in placed if not doubled or coord in doubled]
    if not (game.site_sale_stations() and corporation.id in game.joining_stations):
        return own
    hexes = sorted({coord for coord, _, _ in placed})
    others = [(coord, city_index, slot) for coord in hexes
              for city_index, tokens in enumerate(game.board.hexes[coord].tokens)
              for slot, token in enumerate(tokens)
              if token is not None and (coord, city_index, slot) not in placed]
    return own + others


class TokenReductionStep(Step):
    key = "reduce_tokens"
    label = "remove a station"

    def handlers(self) -> Mapping[str, Handler]:
        return {"remove_token": self.process_remove, "choose": self.process_choose}

    def active(self, game: Any, rnd: Round) -> bool:
        return bool(crowded_stations(game))

    def acting_entity(self, game: Any, rnd: Round) -> Holder | None:
        waiting = crowded_stations(game)
        return waiting[0] if waiting else None

    def actions(self, game: Any, rnd: Round, entity: Holder) -> list[str]:
        if entity is not self.acting_entity(game, rnd):
            return []
        assert isinstance(entity, Corporation)
        # A title's token off the map (18USA's P8 marker) may go instead of a station.
        return ["remove_token", "choose"] if game.off_map_token_choices(entity) else ["remove_token"]

    def process_choose(self, game: Any, rnd: Round, entity: Holder, action: Any) -> None:
        assert isinstance(entity, Corporation)
        if str(action.choice) not in game.off_map_token_choices(entity):
            raise GameError(f"{entity.id} may choose {', '.join(game.off_map_token_choices(entity)) or 'nothing'} here")
        game.remove_off_map_token(entity, str(action.choice))
        if not stations_to_remove(game, entity):
            finish_joining(game, entity)

    def refusal(self, game: Any, rnd: Round, entity: Holder, action: Action) -> str | None:
        corp = self.acting_entity(game, rnd)
        if corp is None:
            return None
        return (f"{corp.key} has too many stations on the map and must first remove one with "
                f"{command_word(game, 'remove_token', corp)} (14.3)")

    def process_remove(self, game: Any, rnd: Round, entity: Holder, action: RemoveToken) -> None:
        assert isinstance(entity, Corporation)
        coord, city_index = find_city(game, action.city)
        allowed = [(c, i, s) for c, i, s in removable(game, entity) if (c, i) == (coord, city_index)
                   and (action.slot is None or s == action.slot)]
        if not allowed:
            raise GameError(f"{entity.id} may remove one of its stations at "
                            f"{', '.join(sorted({c for c, _, _ in removable(game, entity)}))}")
        removed = game.board.remove_token(coord, city_index, allowed[0][2])
        game.log.append(f"{entity.id} removes {removed}'s station at {coord}")
        if not stations_to_remove(game, entity):
            finish_joining(game, entity)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        corp = self.acting_entity(game, rnd)
        if not isinstance(corp, Corporation):
            return []
        own = set(joined_stations(game, corp))
        moves: list[Move] = [{"type": "remove_token", "entity": corp.id, "entity_type": "corporation",
                              "choices": [_choice(game, corp, place, place in own) for place in removable(game, corp)]}]
        off_map = game.off_map_token_choices(corp)
        if off_map:
            moves.append({"type": "choose", "entity": corp.id, "entity_type": "corporation",
                          "choices": [{"choice": choice} for choice in off_map]})
        return moves

    def matches(self, game: Any, choice: Mapping[str, Any], action: Action) -> bool:
        if action.type == "choose":
            return str(choice.get("choice")) == str(getattr(action, "choice", None))
        return super().matches(game, choice, action)


def _choice(game: Any, corporation: Corporation, place: tuple[str, int, int], counts: bool) -> dict[str, Any]:
    """A station the company may remove, with whose it is: a city may hold two that may be removed
    (the company's own and, in a company sale as the site plays it, another's that counts for nothing)."""
    coord, city_index, slot = place
    owner = str(game.board.hexes[coord].tokens[city_index][slot])
    choice: dict[str, Any] = {"city": city_id(game.board.hexes[coord], city_index), "slot": slot, "hex": coord,
                              "owner": owner}
    if not counts:
        back = "" if owner == NEUTRAL_TOKEN else f"goes back to {owner}; "
        choice["label"] = f"{back}does not count as one of {corporation.id}'s"
    return choice

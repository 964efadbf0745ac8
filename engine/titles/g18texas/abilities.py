"""18Texas rule 5: the special powers of the G&RRRC, I&GN and NOPR private companies.

A private acts for the operating company whose president owns it. Its powers are a
non-blocking step before the track step (`PrivatePowersStep`), and the track and station steps
stay open while a power is owed or usable (`TexasTrackStep`, `TexasTokenStep`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, LayTile, PlaceToken
from engine.core.board import opposite
from engine.core.entities import Company, Corporation, Holder
from engine.core.round import Round
from engine.core.step import Handler, Move, Step, command_word
from engine.core.steps.operating import operating
from engine.core.steps.pending_token import PendingToken
from engine.core.steps.token import TokenStep
from engine.core.steps.track import TrackStep, tile_lay_matches
from engine.core.track import (
    apply_tile_lay,
    check_tile_lay,
    check_token,
    city_id,
    find_city,
    legal_tile_lays,
    place_token,
)
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def ability_context(game: BaseGame, rnd: Round, company: Company) -> Corporation:
    """The operating company the private acts for, or why it cannot act now."""
    corp = operating(rnd).corporation
    if company.closed:
        raise GameError(f"{company.name} has closed")
    if company.owner is not corp.president():
        raise GameError(f"{company.name} can act only for a company its owner presides; "
                        f"{corp.id} is operating")
    phases = power_phases(game, company)
    if phases and game.phase.name not in phases:
        raise GameError(f"{company.name}'s power works in phases {', '.join(phases)}")
    return corp


def power_phases(game: BaseGame, company: Company) -> list[str]:
    """The phases a private's power works in: the printed card's (`rulebook_phases`, where it
    differs from the site's), or the site's card (`phases`) with `site_private_cards`."""
    ability = company.ability
    if "rulebook_phases" in ability and not game.option("site_private_cards"):
        return list(ability["rulebook_phases"])
    return list(ability.get("phases") or [])


def ign_tiles(game: BaseGame, company: Company) -> tuple[str, ...]:
    """Rule 5 (P4): "place two tiles", any plain yellow track; the site's card allows #8 and #9."""
    if game.option("site_private_cards"):
        return tuple(company.ability["tiles"])
    return tuple(name for name, tile in game.board.tiles.items()
                 if tile.color == "yellow" and not tile.stops)


def in_step(game: BaseGame, rnd: Round, kind: type[Step]) -> bool:
    return isinstance(rnd.blocking_step(game), kind)


def teleport_hex_problem(game: BaseGame, company: Company) -> str | None:
    """Rule 5: the #511 goes on Houston's printed city (G&RRRC), or on San Antonio while it is
    empty or yellow (NOPR): not on a hex already green or beyond."""
    state = game.board.hexes[company.ability["hex"]]
    if state.tile.color not in ("white", "yellow"):
        return f"{state.coord} already has a {state.tile.color} tile; {company.name}'s #511 can no longer be laid"
    return None


def ign_connection_problem(game: BaseGame, company: Company, coord: str, exits: set[int]) -> str | None:
    """Rule 5: the two I&GN tiles connect, so each must have track facing the other hex."""
    if game.option("site_ign_unconnected"):
        return None
    other = next(h for h in company.ability["hexes"] if h != coord)
    here = game.board.hexes[coord]
    facing = next(e for e, n in here.hexdef.neighbors.items() if n == other)
    if facing not in exits:
        return (f"the two {company.name} tiles must connect to each other (rule 5): the tile in "
                f"{coord} needs track on the side facing {other}")
    if company.abilities_used == 1 and opposite(facing) not in game.board.hexes[other].exits():
        return f"the two {company.name} tiles must connect to each other (rule 5)"
    return None


def ign_lays(game: BaseGame, rnd: Round, company: Company) -> list[dict[str, Any]]:
    """The I&GN lays open now, each rotation checked against rule 5's connection."""
    try:
        corp = ability_context(game, rnd, company)
    except GameError:
        return []
    ability = company.ability
    if company.abilities_used >= int(ability.get("count", 2)) or not in_step(game, rnd, TrackStep):
        return []
    lays = legal_tile_lays(game, corp, None, hexes=tuple(ability["hexes"]),
                           tiles=ign_tiles(game, company), ignore_block_by=company.id)
    kept = []
    for choice in lays:
        tiles = []
        for entry in choice["tiles"]:
            tile = game.board.tiles[entry["tile"].rsplit("-", 1)[0]]
            rotations = [r for r in entry["rotations"]
                         if ign_connection_problem(game, company, choice["hex"], tile.exits(r)) is None]
            if rotations:
                tiles.append({"tile": entry["tile"], "rotations": rotations})
        if tiles:
            kept.append({"hex": choice["hex"], "tiles": tiles})
    return kept


def token_cities(game: BaseGame, corp: Corporation, coord: str) -> list[str]:
    state = game.board.hexes[coord]
    cities = []
    for index in range(len(state.tokens)):
        try:
            check_token(game, corp, coord, index, None, None)
        except GameError:
            continue
        cities.append(city_id(state, index))
    return cities


class TexasTrackStep(TrackStep):
    """The I&GN's two extra lays keep the track step open until the president passes, and once
    one is down the second must follow before passing (rule 5)."""

    def lays_left(self, game: BaseGame, rnd: Round) -> bool:
        if super().lays_left(game, rnd):
            return True
        for company in game.companies.values():
            if company.ability.get("type") != "extra_tile_lays":
                continue
            try:
                ability_context(game, rnd, company)
            except GameError:
                continue
            if company.abilities_used < int(company.ability.get("count", 2)):
                return True
        return False

    def pass_refusal(self, game: BaseGame, rnd: Round) -> str | None:
        if game.option("site_ign_unconnected"):
            return None
        for company in game.companies.values():
            if company.ability.get("type") != "extra_tile_lays" or company.abilities_used != 1:
                continue
            if ign_lays(game, rnd, company):
                return f"both {company.name} tiles must be laid (rule 5); lay the second one before passing"
        return None


class TexasTokenStep(TokenStep):
    """After a private's #511 the station step stays open for the private's station there; a
    private's station, too, is placed in this step or never (12.3: one station per round)."""

    def held_open(self, game: BaseGame, rnd: Round) -> bool:
        turn = operating(rnd).turn
        if turn is None or turn.ability_token_hex is None:
            return False
        return bool(token_cities(game, operating(rnd).corporation, turn.ability_token_hex))

    def closed(self, game: BaseGame, rnd: Round) -> None:
        super().closed(game, rnd)
        self.turn(rnd).ability_token_hex = None


class PrivatePowersStep(Step):
    """Lays and stations a private company makes for the operating company (rule 5)."""

    key = "private_powers"
    label = "use a private company's power"
    blocking = False

    def handlers(self) -> Mapping[str, Handler]:
        return {"lay_tile": self.process_lay_tile, "place_token": self.process_place_token}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return operating(rnd).turn is not None

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        # Any private may try; the handlers say why a power cannot be used now.
        return ["lay_tile", "place_token"] if isinstance(entity, Company) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        if isinstance(entity, Company):
            ability_context(game, rnd, entity)
            return f"{entity.name} cannot {command_word(game, action.type, entity)} now"
        return None

    def process_lay_tile(self, game: BaseGame, rnd: Round, entity: Holder, action: LayTile) -> None:
        assert isinstance(entity, Company)
        corp = ability_context(game, rnd, entity)
        kind = entity.ability.get("type")
        if kind == "teleport":
            self._teleport_lay(game, rnd, entity, corp, action)
        elif kind == "extra_tile_lays":
            self._extra_lay(game, rnd, entity, corp, action)
        else:
            raise GameError(f"{entity.name} cannot {command_word(game, action.type, entity)} now")

    def process_place_token(self, game: BaseGame, rnd: Round, entity: Holder, action: PlaceToken) -> None:
        assert isinstance(entity, Company)
        corp = ability_context(game, rnd, entity)
        if entity.ability.get("type") != "teleport":
            raise GameError(f"{entity.name} cannot {command_word(game, action.type, entity)} now")
        turn = operating(rnd).operating_turn
        if turn.ability_token_hex is None or not in_step(game, rnd, TokenStep):
            raise GameError(f"{entity.name} places a station only in {corp.id}'s station step right after "
                            f"its tile")
        if (action.tokener or corp.id) != corp.id:
            raise GameError(f"the station placed is {corp.id}'s")
        coord, city_index = find_city(game, action.city)
        if coord != turn.ability_token_hex:
            raise GameError(f"{entity.name}'s station goes in {turn.ability_token_hex}")
        slot = check_token(game, corp, coord, city_index, action.slot, None)
        place_token(game, corp, coord, city_index, slot)
        turn.ability_token_hex = None
        turn.done_steps.add("token")

    def _teleport_lay(self, game: BaseGame, rnd: Round, company: Company, corp: Corporation,
                      action: LayTile) -> None:
        turn = operating(rnd).operating_turn
        if company.abilities_used:
            raise GameError(f"{company.name}'s power has been used")
        if not in_step(game, rnd, TrackStep) or turn.lays:
            raise GameError(f"{company.name}'s tile replaces {corp.id}'s track step; lay it before other tiles")
        hex_id = company.ability["hex"]
        problem = teleport_hex_problem(game, company)
        if problem:
            raise GameError(problem)
        lay = check_tile_lay(game, corp, action, None, allowed_tiles=(company.ability["tile"],),
                             allowed_hexes=(hex_id,))
        if company.id == "GRRRC" and not game.option("site_y_city_terrain"):
            lay = replace(lay, cost=0)
        apply_tile_lay(game, corp, lay, by=company.name)
        company.abilities_used += 1
        turn.lays.append(True)
        turn.done_steps.add("track")
        if not game.option("site_private_station"):
            turn.ability_token_hex = hex_id
        elif game.tokens_left(corp) > 0:
            # The site: the private alone answers at once, placing the station or passing, even
            # where the company cannot place one; a pass leaves the company's own station step.
            game.pending_tokens.append(PendingToken(
                company.id, "company", corp.id, (hex_id,), optional=True, ask_always=True, uses_step="token"))

    def _extra_lay(self, game: BaseGame, rnd: Round, company: Company, corp: Corporation,
                   action: LayTile) -> None:
        count = int(company.ability.get("count", 2))
        if company.abilities_used >= count:
            raise GameError(f"{company.name}'s {count} tiles have been laid")
        if not in_step(game, rnd, TrackStep):
            raise GameError(f"{company.name}'s tiles are laid in the track step")
        hexes = tuple(company.ability["hexes"])
        lay = check_tile_lay(game, corp, action, None, allowed_tiles=ign_tiles(game, company),
                             allowed_hexes=hexes, ignore_block_by=company.id)
        problem = ign_connection_problem(game, company, lay.coord, lay.tile.exits(lay.rotation))
        if problem:
            raise GameError(problem)
        apply_tile_lay(game, corp, lay, by=company.name)
        company.abilities_used += 1

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, LayTile):
            return tile_lay_matches(choice, action)
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        moves: list[Move] = []
        turn = operating(rnd).turn
        if turn is None:
            return moves
        for company in game.companies.values():
            try:
                corp = ability_context(game, rnd, company)
            except GameError:
                continue
            ability = company.ability
            if ability.get("type") == "teleport":
                if turn.ability_token_hex and company.abilities_used and in_step(game, rnd, TokenStep):
                    cities = token_cities(game, corp, turn.ability_token_hex)
                    if cities:
                        moves.append({"type": "place_token", "entity": company.id, "entity_type": "company",
                                      "tokener": corp.id,
                                      "choices": [{"city": c, "hex": turn.ability_token_hex} for c in cities]})
                elif not company.abilities_used and in_step(game, rnd, TrackStep) and not turn.lays \
                        and teleport_hex_problem(game, company) is None:
                    lays = legal_tile_lays(game, corp, None, hexes=(ability["hex"],), tiles=(ability["tile"],))
                    if lays:
                        moves.append({"type": "lay_tile", "entity": company.id, "entity_type": "company",
                                      "choices": lays})
            elif ability.get("type") == "extra_tile_lays":
                lays = ign_lays(game, rnd, company)
                if lays:
                    moves.append({"type": "lay_tile", "entity": company.id, "entity_type": "company",
                                  "choices": lays})
        return moves

"""18Texas rule 5: the special powers of the G&RRRC, I&GN and NOPR private companies."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.board import opposite
from engine.core.entities import Company, Corporation
from engine.core.or_steps import TokenStep, TrackStep
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
    from engine.core.operating_round import OperatingRound
    from engine.titles.g18texas.game import G18Texas


class AbilitiesMixin:
    """Company actions taken for the operating company whose president owns the private."""

    def _ability_context(self: G18Texas, rnd: OperatingRound, company: Company) -> Corporation:
        corp = rnd.corporation
        if company.closed:
            raise GameError(f"{company.name} has closed")
        if company.owner is not corp.president():
            raise GameError(f"{company.name} can act only for a company its owner presides; "
                            f"{corp.id} is operating")
        phases = company.ability.get("phases")
        if phases and self.phase.name not in phases:
            raise GameError(f"{company.name}'s power works in phases {', '.join(phases)}")
        return corp

    def _in_track_step(self: G18Texas, rnd: OperatingRound) -> bool:
        return isinstance(rnd.current_step(self), TrackStep)

    def process_company_ability(self: G18Texas, rnd: OperatingRound, company: Company,
                                action: dict[str, Any]) -> None:
        corp = self._ability_context(rnd, company)
        kind = company.ability.get("type")
        assert rnd.turn is not None
        if kind == "teleport":
            if action["type"] == "lay_tile":
                self._teleport_lay(rnd, company, corp, action)
                return
            if action["type"] == "place_token":
                self._teleport_token(rnd, company, corp, action)
                return
        if kind == "extra_tile_lays" and action["type"] == "lay_tile":
            self._extra_lay(rnd, company, corp, action)
            return
        raise GameError(f"{company.name} cannot {action['type']} now")

    def _teleport_lay(self: G18Texas, rnd: OperatingRound, company: Company, corp: Corporation,
                      action: dict[str, Any]) -> None:
        assert rnd.turn is not None
        if company.abilities_used:
            raise GameError(f"{company.name}'s power has been used")
        if not self._in_track_step(rnd) or rnd.turn.lays:
            raise GameError(f"{company.name}'s tile replaces {corp.id}'s track step; lay it before other tiles")
        hex_id = company.ability["hex"]
        problem = self._teleport_hex_problem(company)
        if problem:
            raise GameError(problem)
        lay = check_tile_lay(self, corp, action, None, allowed_tiles=(company.ability["tile"],),
                             allowed_hexes=(hex_id,))
        if company.id == "GRRRC" and not self.option("site_y_city_terrain"):
            lay = type(lay)(lay.coord, lay.tile, lay.tile_id, lay.rotation, 0, lay.upgrade)
        apply_tile_lay(self, corp, lay)
        company.abilities_used += 1
        rnd.turn.lays.append(True)
        rnd.turn_done.add("track")
        rnd.turn.ability_token_hex = hex_id

    def _teleport_hex_problem(self: G18Texas, company: Company) -> str | None:
        """Rule 5: the #511 goes on Houston's printed city (G&RRRC), or on San Antonio while it is
        empty or yellow (NOPR): not on a hex already green or beyond."""
        state = self.board.hexes[company.ability["hex"]]
        if state.tile.color not in ("white", "yellow"):
            return f"{state.coord} already has a {state.tile.color} tile; {company.name}'s #511 can no longer be laid"
        return None

    def _teleport_token(self: G18Texas, rnd: OperatingRound, company: Company, corp: Corporation,
                        action: dict[str, Any]) -> None:
        assert rnd.turn is not None
        if rnd.turn.ability_token_hex is None or not isinstance(rnd.current_step(self), TokenStep):
            raise GameError(f"{company.name} places a station only in {corp.id}'s station step right after "
                            f"its tile")
        if action.get("tokener", corp.id) != corp.id:
            raise GameError(f"the station placed is {corp.id}'s")
        coord, city_index = find_city(self, str(action.get("city")))
        if coord != rnd.turn.ability_token_hex:
            raise GameError(f"{company.name}'s station goes in {rnd.turn.ability_token_hex}")
        slot = action.get("slot")
        slot = check_token(self, corp, coord, city_index, slot if isinstance(slot, int) else None, None)
        place_token(self, corp, coord, city_index, slot)
        rnd.turn.ability_token_hex = None
        rnd.turn_done.add("token")

    def _extra_lay(self: G18Texas, rnd: OperatingRound, company: Company, corp: Corporation,
                   action: dict[str, Any]) -> None:
        assert rnd.turn is not None
        count = int(company.ability.get("count", 2))
        if company.abilities_used >= count:
            raise GameError(f"{company.name}'s {count} tiles have been laid")
        if not self._in_track_step(rnd):
            raise GameError(f"{company.name}'s tiles are laid in the track step")
        hexes = tuple(company.ability["hexes"])
        lay = check_tile_lay(self, corp, action, None, allowed_tiles=tuple(company.ability["tiles"]),
                             allowed_hexes=hexes, ignore_block_by=company.id)
        problem = self._ign_connection_problem(company, lay.coord, lay.tile.exits(lay.rotation))
        if problem:
            raise GameError(problem)
        apply_tile_lay(self, corp, lay)
        company.abilities_used += 1

    def _ign_connection_problem(self: G18Texas, company: Company, coord: str, exits: set[int]) -> str | None:
        """Rule 5: the two I&GN tiles connect, so each must have track facing the other hex."""
        if self.option("site_ign_unconnected"):
            return None
        other = next(h for h in company.ability["hexes"] if h != coord)
        here = self.board.hexes[coord]
        facing = next(e for e, n in here.hexdef.neighbors.items() if n == other)
        if facing not in exits:
            return (f"the two {company.name} tiles must connect to each other (rule 5): the tile in "
                    f"{coord} needs track on the side facing {other}")
        if company.abilities_used == 1 and opposite(facing) not in self.board.hexes[other].exits():
            return f"the two {company.name} tiles must connect to each other (rule 5)"
        return None

    def track_pass_refusal(self: G18Texas, rnd: OperatingRound) -> str | None:
        """Rule 5: once one I&GN tile is down, the second must be laid in the same track step."""
        if self.option("site_ign_unconnected"):
            return None
        for company in self.companies.values():
            if company.ability.get("type") != "extra_tile_lays" or company.abilities_used != 1:
                continue
            if self._ign_lays(rnd, company):
                return f"both {company.name} tiles must be laid (rule 5); lay the second one before passing"
        return None

    def _ign_lays(self: G18Texas, rnd: OperatingRound, company: Company) -> list[dict[str, Any]]:
        """The I&GN lays open now, each rotation checked against rule 5's connection."""
        try:
            corp = self._ability_context(rnd, company)
        except GameError:
            return []
        ability = company.ability
        if company.abilities_used >= int(ability.get("count", 2)) or not self._in_track_step(rnd):
            return []
        lays = legal_tile_lays(self, corp, None, hexes=tuple(ability["hexes"]),
                               tiles=tuple(ability["tiles"]), ignore_block_by=company.id)
        kept = []
        for choice in lays:
            tiles = []
            for entry in choice["tiles"]:
                tile = self.board.tiles[entry["tile"].rsplit("-", 1)[0]]
                rotations = [r for r in entry["rotations"]
                             if self._ign_connection_problem(company, choice["hex"], tile.exits(r)) is None]
                if rotations:
                    tiles.append({"tile": entry["tile"], "rotations": rotations})
            if tiles:
                kept.append({"hex": choice["hex"], "tiles": tiles})
        return kept

    def extra_lays_pending(self: G18Texas, rnd: OperatingRound) -> bool:
        for company in self.companies.values():
            if company.ability.get("type") != "extra_tile_lays":
                continue
            try:
                self._ability_context(rnd, company)
            except GameError:
                continue
            if company.abilities_used < int(company.ability.get("count", 2)):
                return True
        return False

    def ability_token_pending(self: G18Texas, rnd: OperatingRound) -> bool:
        """The G&RRRC or NOPR laid its #511 this turn and its station can still go there."""
        if rnd.turn is None or rnd.turn.ability_token_hex is None:
            return False
        corp = rnd.corporation
        state = self.board.hexes[rnd.turn.ability_token_hex]
        for index in range(len(state.tokens)):
            try:
                check_token(self, corp, state.coord, index, None, None)
            except GameError:
                continue
            return True
        return False

    def company_ability_moves(self: G18Texas, rnd: OperatingRound) -> list[dict[str, Any]]:
        moves: list[dict[str, Any]] = []
        if rnd.turn is None:
            return moves
        for company in self.companies.values():
            try:
                corp = self._ability_context(rnd, company)
            except GameError:
                continue
            ability = company.ability
            if ability.get("type") == "teleport":
                if rnd.turn.ability_token_hex and company.abilities_used \
                        and isinstance(rnd.current_step(self), TokenStep):
                    coord = rnd.turn.ability_token_hex
                    state = self.board.hexes[coord]
                    cities = []
                    for index in range(len(state.tokens)):
                        try:
                            check_token(self, corp, coord, index, None, None)
                        except GameError:
                            continue
                        cities.append(city_id(state, index))
                    if cities:
                        moves.append({"type": "place_token", "entity": company.id, "entity_type": "company",
                                      "tokener": corp.id, "choices": [{"city": c} for c in cities]})
                elif not company.abilities_used and self._in_track_step(rnd) and not rnd.turn.lays \
                        and self._teleport_hex_problem(company) is None:
                    lays = legal_tile_lays(self, corp, None, hexes=(ability["hex"],), tiles=(ability["tile"],))
                    if lays:
                        moves.append({"type": "lay_tile", "entity": company.id, "entity_type": "company",
                                      "choices": lays})
            elif ability.get("type") == "extra_tile_lays":
                lays = self._ign_lays(rnd, company)
                if lays:
                    moves.append({"type": "lay_tile", "entity": company.id, "entity_type": "company",
                                  "choices": lays})
        return moves

"""What the 18USA map shows besides tiles and stations, as `MapMark`s for render/ to draw.

Every value here is the rules' own answer for the current phase (a resource token's bonus, a
city-value marker's side in force, the Company Town's charge to other companies), so a picture
never works one out. Kinds:

- `metropolis`: a metropolis hex (New York and the three drawn, or Carnegie Steel's);
- `subsidy`: a subsidy still on its city (11.6.1); `label` its name, `value` its cash if any;
- `resource_site`: a printed resource with no token yet, where one may still go (13);
- `resource`: a resource token on the map; `value` what a run earns for it now;
- `bridge`: a bridge token (13.4); `value` the bonus per stop;
- `city_bonus`: a city-value marker (S10, S11) with its sides and the one in force;
- `freight`: P8's marker in a red area, `owner` the company whose runs earn its bonus;
- `value_token`: P6's replacement value token on a red area (the values are on the stops);
- `company_town`: the Company Town; `value` what trains of companies without a station there
  earn less (12.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.board import HexState
from engine.core.entities import Company, Corporation
from engine.core.map_marks import MapMark
from engine.titles.g18usa.resources import resource_bonus, resource_sides
from engine.titles.g18usa.stations import (
    BRIDGE,
    CITY_BONUS,
    FREIGHT,
    VALUE_TOKEN,
    city_bonus_sides,
    side_in_force,
)
from engine.titles.g18usa.usa_map import UsaMap

METROPOLIS = "metropolis"
SUBSIDY = "subsidy"
RESOURCE_SITE = "resource_site"
RESOURCE = "resource"
COMPANY_TOWN = "company_town"
FREIGHT_PRIVATE = "P8"


def map_marks(umap: UsaMap, phase: str,
              private_owners: Mapping[str, str] | None = None) -> dict[str, tuple[MapMark, ...]]:
    """Hex -> its marks in `phase`. `private_owners` (private id -> company id) says who holds
    P8 now: its marker's bonus follows the private through mergers and acquisitions; without it
    the company that placed the marker is shown."""
    subsidies = _subsidy_tiles(umap)
    phase_5 = umap.phase(phase).at_least("5", umap.phase_order)
    marks: dict[str, tuple[MapMark, ...]] = {}
    for coord, state in umap.board.hexes.items():
        found: list[MapMark] = []
        if umap.is_metropolis(coord):
            found.append(MapMark(METROPOLIS))
        subsidy = umap.open_subsidies.get(coord)
        if subsidy is not None:
            raw = subsidies[subsidy]
            found.append(MapMark(SUBSIDY, value=int(raw.get("cash") or 0), source=subsidy,
                                 label=str(raw["name"])))
        found += _resources(umap, state, phase, phase_5)
        found += _markers(umap, state, phase, private_owners or {})
        if state.tile.kind == COMPANY_TOWN:
            penalty = int(umap.raw_tiles[state.tile.name].get("other_corporations_revenue_penalty") or 0)
            found.append(MapMark(COMPANY_TOWN, value=penalty, label=state.tile.name))
        if found:
            marks[coord] = tuple(found)
    return marks


def private_owners(companies: Mapping[str, Company]) -> dict[str, str]:
    """Private id -> the company holding it now, for `map_marks`."""
    return {cid: company.owner.id for cid, company in companies.items()
            if isinstance(company.owner, Corporation) and not company.closed}


def _subsidy_tiles(umap: UsaMap) -> dict[str, dict[str, Any]]:
    return {str(raw["id"]): raw for raw in umap.setup_subsidy_tiles()}


def _resources(umap: UsaMap, state: HexState, phase: str, phase_5: bool) -> list[MapMark]:
    if not state.tile_laid:
        # Resource tokens come only with a yellow tile on an empty hex (13): once any tile is
        # down, the printed resource can no longer be used.
        return [MapMark(RESOURCE_SITE, label=resource) for resource in umap.resources_printed(state.coord)]
    found = []
    for resource in umap.tile_resources(state.tile):
        sides = resource_sides(umap, state.tile, resource)
        side = side_in_force(umap, sides, phase) if sides else None
        found.append(MapMark(RESOURCE, value=resource_bonus(umap, state.tile, resource, phase_5),
                             sides=sides, side=side or 0, label=resource))
    return found


def _markers(umap: UsaMap, state: HexState, phase: str, owners: Mapping[str, str]) -> list[MapMark]:
    found = []
    for marker in state.markers:
        if marker.kind == BRIDGE:
            found.append(MapMark(BRIDGE, value=marker.value, source=marker.source, label="bridge"))
        elif marker.kind == CITY_BONUS:
            sides = city_bonus_sides(umap, marker)
            side = side_in_force(umap, sides, phase)
            value = sides[side][1] if side is not None else 0
            found.append(MapMark(CITY_BONUS, value=value, sides=sides if len(sides) > 1 else (),
                                 side=side or 0, source=marker.source))
        elif marker.kind == FREIGHT:
            owner = owners.get(marker.source or FREIGHT_PRIVATE, marker.owner)
            found.append(MapMark(FREIGHT, value=marker.value, owner=owner, source=marker.source))
        elif marker.kind == VALUE_TOKEN:
            found.append(MapMark(VALUE_TOKEN, source=marker.source))
    return found


def terrain_to_pay(state: HexState) -> int:
    """The printed terrain cost a first tile on the hex still pays (12.2), before the waivers
    that depend on who lays it (coal and ore tokens, P5, the resource subsidy)."""
    return 0 if state.tile_laid else state.hexdef.terrain_cost

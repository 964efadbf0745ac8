"""18USA tokens on the map other than track: stations (12.3, Free Station, P20), bridges (13.4),
red-area markers (P6, P8), city-value markers (subsidies S10/S11) and the Company Town's tokens.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.board import NEUTRAL_TOKEN, Marker
from engine.core.graph import Reach, reach_of
from engine.core.position_cache import cached
from engine.errors import GameError
from engine.titles.g18usa.usa_map import (
    SITE_COMPANY_TOWN_STATIONS,
    SITE_JUNCTION_BRIDGES,
    SITE_P20_OPEN_CITY,
    UsaMap,
)

BRIDGE = "bridge"
CITY_BONUS = "city_bonus"
FREIGHT = "freight"  # P8's marker in a red area
VALUE_TOKEN = "value_token"  # P6's replacement value token
BRIDGE_BONUS = 10
BRIDGE_PRIVATES = ("P2", "P21", "P22")
EXTRA_SLOT_SOURCES = ("S9", "P20")
NEW_ORLEANS = "I19"


@dataclass(frozen=True)
class StationPlace:
    """Where a station may go: hex, city and slot, or an extra slot in a full city."""

    coord: str
    city: int
    slot: int
    extra: bool  # into an extra slot of a full city


def city_of(umap: UsaMap, city_id: str) -> tuple[str, int]:
    """Resolve a logged city id (`<tile id>-<part index>`) to (hex, city index)."""
    tile_id, _, part = str(city_id).rpartition("-")
    if not part.isdigit():
        raise GameError(f"{city_id!r} is not a city id")
    for coord, state in umap.board.hexes.items():
        if state.tile_id == tile_id:
            stop = state.tile.stop_by_part(int(part))
            if stop is None or stop.kind != "city":
                raise GameError(f"{city_id!r} is not a city; no station may be placed there (12.3)")
            return coord, stop.index
    raise GameError(f"there is no city {city_id!r} on the map")


def check_station(umap: UsaMap, corporation: str, coord: str, city: int, reach: Reach | None,
                  source: str | None = None) -> StationPlace:
    """Rule 12.3; `reach` None for a home station (placed at the start, no route needed);
    `source` S9 or P20 may put the station in a full city's extra slot."""
    state = umap.board.hexes[coord]
    if not state.tile.cities:
        raise GameError(f"{coord} has no station slots: small cities and rural junctions take no "
                        f"stations (12.3)")
    if corporation in state.corporations_here():
        raise GameError(f"{corporation} already has a station in {coord}; one per hex (12.3)")
    if reach is not None and (coord, "city", city) not in reach.nodes:
        raise GameError(f"{corporation} has no route to the city in {coord} (12.3)")
    if state.tile.kind == "company_town" and not umap.option(SITE_COMPANY_TOWN_STATIONS):
        raise GameError(f"no station may be placed on the Company Town in {coord}: its slots are for the "
                        f"neutral token and the bonus station of the company that laid it (P27)")
    slots = state.tokens[city]
    if None in slots:
        if source == "P20" and not umap.option(SITE_P20_OPEN_CITY):
            raise GameError(f"P20 places a station only in a city with no open slot; {coord} has one")
        return StationPlace(coord, city, slots.index(None), False)
    if source in EXTRA_SLOT_SOURCES:
        if state.tile.kind == "company_town":
            raise GameError(f"{source} may not add a station to the Company Town in {coord}")
        return StationPlace(coord, city, len(slots), True)
    raise GameError(f"the city in {coord} has no open slot (12.3)")


def legal_stations(umap: UsaMap, corporation: str, source: str | None = None) -> list[tuple[str, int]]:
    """Every (hex, city index) where the company may put a station now (12.3), by hex; `source`
    S9 or P20 for the station such a company places (see `check_station`)."""
    return list(cached(umap.board, ("usa stations", corporation, source),
                       lambda: _legal_stations(umap, corporation, source)))


def _legal_stations(umap: UsaMap, corporation: str, source: str | None) -> list[tuple[str, int]]:
    reach = reach_of(umap.board, corporation)
    found = []
    for coord, kind, index in sorted(reach.nodes):
        if kind != "city":
            continue
        try:
            check_station(umap, corporation, coord, index, reach, source)
        except GameError:
            continue
        found.append((coord, index))
    return found


def place_station(umap: UsaMap, corporation: str, place: StationPlace) -> None:
    if place.extra:
        umap.board.add_extra_slot(place.coord, place.city, corporation)
    else:
        umap.board.hexes[place.coord].tokens[place.city][place.slot] = corporation


def company_town_token(umap: UsaMap, corporation: str, coord: str) -> bool:
    """P27: the laying company's bonus station on its Company Town, if it has a slot free."""
    state = umap.board.hexes[coord]
    slots = state.tokens[0]
    if None not in slots:
        return False
    slots[slots.index(None)] = corporation
    return True


def neutral_tokens(umap: UsaMap, coord: str) -> int:
    return sum(slot == NEUTRAL_TOKEN for slots in umap.board.hexes[coord].tokens for slot in slots)


# --- bridges and markers -------------------------------------------------------------------
def check_bridge(umap: UsaMap, corporation: str, source: str, coord: str, reach: Reach | None) -> None:
    """Rule 13.4 and P2/P21/P22: a bridge on a river city the company reaches, or on a Company
    Town on a river hex; on a rural junction only in the site's reading."""
    if source not in BRIDGE_PRIVATES:
        raise GameError(f"{source} has no bridge token")
    if coord not in umap.board.hexes or not umap.is_river_hex(coord):
        raise GameError(f"{coord} is not a river hex with a bridge site (13.4)")
    state = umap.board.hexes[coord]
    if not state.tile.stops:
        raise GameError(f"a bridge goes on a city, not on plain track in {coord} (13.4)")
    if state.tile.kind == "rural_junction" and not umap.option(SITE_JUNCTION_BRIDGES):
        raise GameError(f"a bridge goes on a city; the rural junction in {coord} is not one (13.4)")
    if state.markers_of(BRIDGE):
        raise GameError(f"{coord} already has a bridge")
    if coord == NEW_ORLEANS and umap.is_metropolis(coord):
        raise GameError("no bridge may go in New Orleans while it is a metropolis (13.4)")
    if reach is not None and not any(node[0] == coord for node in reach.nodes):
        raise GameError(f"{corporation} has no route to {coord} (13.4)")


def place_bridge(umap: UsaMap, source: str, coord: str) -> None:
    umap.board.hexes[coord].markers.append(Marker(BRIDGE, None, BRIDGE_BONUS, source))


def check_red_area(umap: UsaMap, corporation: str, coord: str, reach: Reach | None) -> tuple[str, ...]:
    area = umap.red_area_hexes(coord) if coord in umap.board.hexes else ()
    if not area:
        raise GameError(f"{coord} is not in a red area")
    if reach is not None and not any(node[0] in area for node in reach.nodes):
        raise GameError(f"{corporation} has no route to the red area of {coord} (7.1)")
    return area


def revalue_red_area(umap: UsaMap, coord: str) -> None:
    """P6: the area's value token becomes the 30/40/50/80 token (all Mexico hexes together)."""
    colors = umap.map_data["randomized_setup"]["red_area_value_tokens"]["value_colors"]
    values = umap.map_data["randomized_setup"]["red_area_value_tokens"]["p6_token"]
    revenue = tuple(zip(colors, values, strict=True))
    for hex_id in umap.red_area_hexes(coord):
        state = umap.board.hexes[hex_id]
        for stop in state.tile.stops:
            umap.board.revalue_stop(hex_id, stop.kind, stop.index, revenue)
        state.markers.append(Marker(VALUE_TOKEN, None, 0, "P6"))


def place_freight_marker(umap: UsaMap, corporation: str, coord: str) -> None:
    """P8: the company's marker in a red area (Mexico's goes on I9)."""
    area = umap.red_area_hexes(coord)
    target = "I9" if "I9" in area else coord
    umap.board.hexes[target].markers.append(Marker(FREIGHT, corporation, 10, "P8"))


def freight_area(umap: UsaMap) -> tuple[str, ...]:
    """The red area of P8's marker; the marker passes with P8 to a merger's or acquisition's
    survivor (P8's text), so the bonus goes to whoever owns P8."""
    for coord, state in umap.board.hexes.items():
        if state.markers_of(FREIGHT):
            return umap.red_area_hexes(coord)
    return ()


# --- subsidies on the map ------------------------------------------------------------------
def claim_subsidy(umap: UsaMap, home: str) -> str | None:
    """A company starting in a subsidy city takes its subsidy (11.6.1); a city-value subsidy
    becomes a marker on the city. Returns the subsidy id, if the city still had one."""
    subsidy = umap.open_subsidies.pop(home, None)
    if subsidy is None:
        return None
    for raw in umap.setup_subsidy_tiles():
        if raw["id"] == subsidy and raw["kind"] == CITY_BONUS:
            umap.board.hexes[home].markers.append(Marker(CITY_BONUS, None, 0, subsidy))
    return subsidy


def city_bonus(umap: UsaMap, coord: str, phase: str) -> int:
    """What the S10/S11 marker on a city adds to each train's stop there."""
    total = 0
    for marker in umap.board.hexes[coord].markers_of(CITY_BONUS):
        sides = city_bonus_sides(umap, marker)
        side = side_in_force(umap, sides, phase)
        total += sides[side][1] if side is not None else 0
    return total


def city_bonus_sides(umap: UsaMap, marker: Marker) -> tuple[tuple[str, int], ...]:
    """A city-value marker's sides: (first phase, bonus), e.g. S11's +10 from 2 and +20 from 5."""
    raw = next(r for r in umap.setup_subsidy_tiles() if r["id"] == marker.source)
    return tuple((str(from_phase), int(value)) for from_phase, value in raw["city_bonus"])


def side_in_force(umap: UsaMap, sides: tuple[tuple[str, int], ...], phase: str) -> int | None:
    """Index of the latest side whose phase has come (S11 flips from +10 to +20 at phase 5)."""
    now = umap.phase(phase)
    reached = [k for k, (from_phase, _) in enumerate(sides) if now.at_least(from_phase, umap.phase_order)]
    return reached[-1] if reached else None

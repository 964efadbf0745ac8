"""The 18USA board in play: the core Board with the dealt setup on it and the title's map facts.

`UsaMap` is what the 18USA game class holds for its map. It knows which hexes are metropolises,
which subsidy each city still offers, the resources and rivers printed on the board, the phase
table's tile colours, and the map rule options. The rules themselves live in the sibling modules
`track.py` (tile lays), `stations.py` (station, bridge and marker tokens) and `revenue.py` (runs).
"""

from __future__ import annotations

import copy
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core.board import Board, HexState
from engine.core.tiles import COLOR_ORDER, TileDef
from engine.titles.g18usa.board_setup import map_with_red_area_values
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.setup import UsaSetup

# Where the printed rulebook and the site differ on the map, the rulebook is the default and
# these options give the site's reading (on for imported and replayed site logs).
SITE_MAX_EXITS = "site_max_exits"
SITE_HOME_BROWN = "site_home_brown"
SITE_RURAL_JUNCTION_ENDS = "site_rural_junction_ends"
SITE_RESOURCE_NEIGHBOURS = "site_resource_neighbours"
SITE_JUNCTION_BRIDGES = "site_junction_bridges"
SITE_P20_OPEN_CITY = "site_p20_open_city"
SITE_COMPANY_TOWN_STATIONS = "site_company_town_stations"
SITE_TILE_COUNTS = "site_tile_counts"
MAP_OPTIONS = {
    SITE_COMPANY_TOWN_STATIONS: "A company may place an ordinary station in a Company Town's open slot, as on "
                                "the site (P27's card: other companies cannot station there; its slots "
                                "hold the neutral token and the laying company's bonus station).",
    SITE_P20_OPEN_CITY: "P20 may place its station in a connected city with an open slot too, as on the "
                        "site (its card: only in a city with no open slot).",
    SITE_MAX_EXITS: "Every city and plain-track upgrade must use a tile with the most exits that "
                    "fit, as the site offers them (rule 12.2.2: only normal cities going brown).",
    SITE_HOME_BROWN: "From phase 5 a company that has not run may put a brown city as its free extra "
                     "action only on an empty or green home hex; a yellow home is upgraded to green "
                     "as usual (rule 12.2.4: place or upgrade the home city to brown, a free extra "
                     "action).",
    SITE_RURAL_JUNCTION_ENDS: "A run may not start or end at a rural junction, as P26's card and "
                              "the site say (rule 12.4: a route may end at a rural junction).",
    SITE_RESOURCE_NEIGHBOURS: "A resource tile's track may point into a town, a red area or a rural "
                              "junction as well as a city (rules 13.1-13.3: into a city hex).",
    SITE_JUNCTION_BRIDGES: "A bridge token may go on a rural junction laid on a river city hex, as "
                           "the site's P26 allows (rule 13.4: bridges go only on cities, and on a "
                           "Company Town on a river hex).",
    SITE_TILE_COUNTS: "The B metropolis tiles 592, 593 and 597 and New York's gray X30 are unlimited, as on "
                      "the site (the rulebook's manifest: four of each B tile and one X30).",
}
RESOURCES = ("coal", "oil", "ore")
METROPOLIS_KINDS = ("metropolis", "metropolis_b", "new_york")
# Tiles only a private company's ability may lay.
PRIVATE_TILES = {"X07": "P26", "X08": "P26", "X09": "P26", "X20": "P27", "X21": "P27",
                 "X22": "P27", "X23": "P16"}


# A hex's printed sides and its tile and rotation decide a new tile's legal rotations, and which
# candidates fit: the same in every 18USA game (the map and the tiles' track never change), so
# they are kept for the process. A game rebuilt after an undo, or loaded by a session, starts
# with them. Emptied when they grow past GEOMETRY_LIMIT entries.
_ROTATIONS: dict[tuple[str, str, int, str], list[int]] = {}
_MOST_EXITS: dict[tuple[str, str, int, tuple[str, ...], str, bool], int] = {}
GEOMETRY_LIMIT = 200_000


def _keep_bounded(memo: dict[Any, Any]) -> None:
    if len(memo) >= GEOMETRY_LIMIT:
        memo.clear()


def forget_geometry() -> None:
    """Empty the process's rotations and fits (a benchmark's cold start)."""
    _ROTATIONS.clear()
    _MOST_EXITS.clear()


# UsaMap's attributes that never change after setup (the rest is the position: the board, the
# metropolises, the subsidies still open and P10's candidates).
_SHARED_BY_COPIES = frozenset({
    "setup", "options", "map_data", "tiles_data", "subsidy_tiles", "raw_tiles", "raw_hexes",
    "phase_order", "phase_colors", "_plain", "_resources", "_ore_values", "_resource_tiles"})


@dataclass(frozen=True)
class PhaseInfo:
    """The current phase as the map's rules read it: its name, its place, its tile colours."""

    name: str
    index: int
    colors: tuple[str, ...]

    def at_least(self, name: str, order: tuple[str, ...]) -> bool:
        return self.index >= order.index(name)


def rural_junction_tiles(tiles_data: dict[str, Any], options: Collection[str]) -> dict[str, Any]:
    """The tile data with rural junctions closed to run ends when the site's reading is on."""
    if SITE_RURAL_JUNCTION_ENDS not in options:
        return tiles_data
    # Only the rural junctions are copied: the other tiles are shared with the data, never changed.
    tiles = []
    for raw in tiles_data["tiles"]:
        if raw.get("kind") == "rural_junction":
            raw = copy.deepcopy(raw)
            for town in raw["towns"]:
                town["route_may_not_end_here"] = True
        tiles.append(raw)
    return {**tiles_data, "tiles": tiles}


def printed_tile_counts(tiles_data: dict[str, Any], options: Collection[str]) -> dict[str, Any]:
    """The tile data with the manifest's counts where the site has more copies (`rulebook_count`:
    the B metropolis tiles and X30), unless the site's reading is on. Rule 12.2 makes only plain
    city and plain track tiles unlimited; a tile with no copy left in the supply is not offered."""
    if SITE_TILE_COUNTS in options:
        return tiles_data
    # Only the counted tiles are copied: the other tiles are shared with the data, never changed.
    tiles = [{**raw, "count": raw["rulebook_count"]} if "rulebook_count" in raw else raw
             for raw in tiles_data["tiles"]]
    return {**tiles_data, "tiles": tiles}


class UsaMap:
    """The 18USA board with its dealt setup and the map facts the track and run rules read."""

    def __init__(self, setup: UsaSetup, options: Collection[str] = ()) -> None:
        data = load_data()
        self.setup = setup
        self.options = frozenset(options)
        self.map_data: dict[str, Any] = data["map"]
        self.tiles_data: dict[str, Any] = data["tiles"]
        self.subsidy_tiles: list[dict[str, Any]] = data["entities"]["subsidies"]["tiles"]
        self.board = Board(map_with_red_area_values(self.map_data, setup),
                           printed_tile_counts(rural_junction_tiles(self.tiles_data, self.options), self.options))
        self.raw_tiles: dict[str, dict[str, Any]] = {raw["name"]: raw for raw in self.tiles_data["tiles"]}
        self.raw_hexes: dict[str, dict[str, Any]] = {raw["coord"]: raw for raw in self.map_data["hexes"]}
        phases = data["entities"]["phases"]
        self.phase_order: tuple[str, ...] = tuple(raw["name"] for raw in phases)
        self.phase_colors = {raw["name"]: tuple(raw["tiles"]) for raw in phases}
        self.metropolises: set[str] = set(setup.metropolis_hexes)
        # Subsidies still waiting on their city; a company starting there claims it (11.6.1).
        self.open_subsidies: dict[str, str] = {deal.hex: deal.subsidy for deal in setup.subsidies}
        self.p10_candidates: dict[str, tuple[str, int]] = {
            tile.hex: (tile.tile, tile.rotation) for tile in setup.p10_metropolises}
        for metropolis in setup.metropolis_tiles:
            self._lay_setup_tile(metropolis.hex, metropolis.tile, metropolis.rotation)
        self._plain: dict[tuple[str, tuple[str, ...]], list[str]] = {}
        # Facts of the tile set, read for every tile on every hex of a legal-moves query.
        self._resources: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._ore_values: dict[str, int] = {
            name: int(raw.get("ore_value") or 0) for name, raw in self.raw_tiles.items()}
        self._resource_tiles: dict[frozenset[str], list[str]] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> UsaMap:
        """A copy whose board and dealt marks are its own; the data, the setup and the memos of
        facts derived from them only (never changed after setup) are shared, since copying
        them was most of the cost of a game's safety copy before each move."""
        clone = UsaMap.__new__(UsaMap)
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            clone.__dict__[name] = value if name in _SHARED_BY_COPIES else copy.deepcopy(value, memo)
        return clone

    def legal_rotations(self, state: HexState, tile: TileDef) -> list[int]:
        key = (state.coord, state.tile_id, state.rotation, tile.name)
        if key not in _ROTATIONS:
            _keep_bounded(_ROTATIONS)
            _ROTATIONS[key] = self.board.legal_rotations(state, tile)
        return _ROTATIONS[key]

    def most_exits(self, state: HexState, candidates: Sequence[str], color: str, city: bool) -> int:
        """The most exits of the candidates of this colour, with a city or without, that have a
        legal rotation on the hex (0 if none)."""
        key = (state.coord, state.tile_id, state.rotation, tuple(candidates), color, city)
        if key not in _MOST_EXITS:
            best = 0
            for name in candidates:
                other = self.board.tiles[name]
                if other.color != color or bool(other.cities) != city:
                    continue
                if self.legal_rotations(state, other):
                    best = max(best, len(other.exits(0)))
            _keep_bounded(_MOST_EXITS)
            _MOST_EXITS[key] = best
        return _MOST_EXITS[key]

    def plain_tiles(self, color: str, resources: tuple[str, ...]) -> list[str]:
        """Plain track tiles of a colour carrying exactly these resources (ore tiles aside)."""
        key = (color, resources)
        if key not in self._plain:
            self._plain[key] = [
                name for name, tile in self.board.tiles.items()
                if tile.color == color and not tile.cities and not tile.towns
                and tile.kind in ("plain", "resource") and self.tile_resources(tile) == resources
                and not self.ore_value(tile)]
        return self._plain[key]

    # --- facts ---------------------------------------------------------------------------
    def option(self, name: str) -> bool:
        return name in self.options

    def phase(self, name: str) -> PhaseInfo:
        if name not in self.phase_colors:
            raise ValueError(f"18USA has no phase {name!r}; phases: {', '.join(self.phase_order)}")
        return PhaseInfo(name, self.phase_order.index(name), self.phase_colors[name])

    def hex(self, coord: str) -> HexState:
        return self.board.hexes[coord]

    def is_city_hex(self, coord: str) -> bool:
        return bool(self.raw_hexes[coord]["cities"])

    def resources_printed(self, coord: str) -> tuple[str, ...]:
        return tuple(self.raw_hexes[coord].get("resources") or ())

    def is_river_hex(self, coord: str) -> bool:
        return bool(self.raw_hexes[coord].get("river_hex"))

    def terrain_types(self, coord: str) -> tuple[str, ...]:
        return self.board.hexes[coord].hexdef.terrain_types

    def tile_kind(self, tile: TileDef) -> str | None:
        return tile.kind

    def tile_resources(self, tile: TileDef) -> tuple[str, ...]:
        found = self._resources.get(tile.labels)
        if found is None:
            found = self._resources[tile.labels] = tuple(
                label for label in tile.labels if label in RESOURCES)
        return found

    def ore_value(self, tile: TileDef) -> int:
        return self._ore_values.get(tile.name, 0)

    def resource_tiles(self, printed: frozenset[str]) -> list[str]:
        """Yellow tiles whose resource tokens a hex printed with `printed` may take (13),
        ore only on its $10 side."""
        if printed not in self._resource_tiles:
            self._resource_tiles[printed] = [
                name for name, tile in self.board.tiles.items()
                if tile.color == "yellow" and self.tile_resources(tile)
                and set(self.tile_resources(tile)) <= printed and self.ore_value(tile) in (0, 10)]
        return self._resource_tiles[printed]

    def base_tile(self, tile: TileDef) -> str:
        return str(self.raw_tiles.get(tile.name, {}).get("base_tile") or tile.name)

    def is_metropolis(self, coord: str) -> bool:
        return coord in self.metropolises

    def red_area_hexes(self, coord: str) -> tuple[str, ...]:
        """Every hex of the red area `coord` belongs to (Mexico's six), or ()."""
        area = self.raw_hexes[coord].get("red_area")
        if not area:
            return ()
        return tuple(raw["coord"] for raw in self.map_data["hexes"] if raw.get("red_area") == area)

    def mexico_limit(self) -> tuple[frozenset[str], int]:
        """At most this many of one company's runs may start or end in Mexico (12.4.1)."""
        mexico = self.map_data["mexico"]
        return frozenset(mexico["hexes"]), int(mexico["max_trains_per_corporation_per_run"])

    def is_plain_track_hex(self, coord: str) -> bool:
        """A hex whose tiles are plain track: no printed city (Company Town aside)."""
        return not self.raw_hexes[coord]["cities"]

    def setup_subsidy_tiles(self) -> list[dict[str, Any]]:
        return self.subsidy_tiles

    # --- changes outside tile lays ----------------------------------------------------------
    def drop_unclaimed_subsidies(self) -> None:
        """Subsidies no company took in the first stock round leave the game (11.6.1)."""
        self.open_subsidies.clear()

    def _lay_setup_tile(self, coord: str, name: str, rotation: int) -> None:
        copy_index = self.board.free_copy(name)
        if copy_index is None:
            raise ValueError(f"no {name} left for {coord}")
        self.board.place_tile(coord, self.board.tiles[name], f"{name}-{copy_index}", rotation)

    def carnegie_metropolis(self, home: str) -> str | None:
        """P10 contributed at formation: the home becomes a metropolis if it is an unselected
        candidate with no tile yet; the other candidates' tiles leave the game either way.
        Returns the tile laid, if any."""
        laid = None
        state = self.board.hexes.get(home)
        if home in self.p10_candidates and state is not None and not state.tile_laid:
            name, rotation = self.p10_candidates[home]
            self._lay_setup_tile(home, name, rotation)
            self.metropolises.add(home)
            laid = name
        self.p10_candidates.clear()
        return laid

    def color_rank(self, color: str) -> int:
        return COLOR_ORDER.index(color)

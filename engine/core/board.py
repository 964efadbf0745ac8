"""The map: printed hexes, the tiles laid on them, station tokens, and the tile supply."""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any, Self, SupportsIndex, TypeVar

from engine.core.tiles import StopDef, TileDef, parse_tile

T = TypeVar("T")

# Fills a station slot for nobody: the city never counts as full for routes (18USA Company Town).
NEUTRAL_TOKEN = "(neutral)"


# Changes of station slots and of hexes' tiles and rotations anywhere, counted. What a board
# keeps (its station index, `Board.kept`) is good while this count stays where it was when it
# was worked out; counting every change of every board is cruder than one board's but needs no
# link from a slot list or a hex to its board, so copies and pickles of a board need no care.
_map_edits = 0
# The same changes counted by the thread that made them: a kept answer's check that working it
# out changed nothing must not see another thread's game move (the bot replays games in
# threads while its event loop plays others).
_edits_here = threading.local()


def _map_edited() -> None:
    global _map_edits
    _map_edits += 1
    _edits_here.count = getattr(_edits_here, "count", 0) + 1


def _edits_in_this_thread() -> int:
    return int(getattr(_edits_here, "count", 0))


class Slots(list[str | None]):
    """One city's station slots: a list that counts its own changes, so that an index of the
    stations is never read stale, however a slot was written (the engine and tests write
    `tokens[city][slot]` directly)."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> Slots:
        # Company ids and None only: a new list is a deep copy (and quicker than the generic
        # copy of a list subclass, in the safety copy before every move).
        clone = memo[id(self)] = Slots(self)
        return clone

    def __setitem__(self, index: Any, value: Any) -> None:
        _map_edited()
        super().__setitem__(index, value)

    def __delitem__(self, index: SupportsIndex | slice) -> None:
        _map_edited()
        super().__delitem__(index)

    def __iadd__(self, values: Iterable[str | None]) -> Self:  # type: ignore[override,misc]
        _map_edited()
        return super().__iadd__(values)

    def __imul__(self, times: SupportsIndex) -> Self:
        _map_edited()
        return super().__imul__(times)

    def append(self, value: str | None) -> None:
        _map_edited()
        super().append(value)

    def extend(self, values: Iterable[str | None]) -> None:
        _map_edited()
        super().extend(values)

    def insert(self, index: SupportsIndex, value: str | None) -> None:
        _map_edited()
        super().insert(index, value)

    def pop(self, index: SupportsIndex = -1) -> str | None:
        _map_edited()
        return super().pop(index)

    def remove(self, value: str | None) -> None:
        _map_edited()
        super().remove(value)

    def clear(self) -> None:
        _map_edited()
        super().clear()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        _map_edited()
        super().sort(*args, **kwargs)

    def reverse(self) -> None:
        _map_edited()
        super().reverse()


def opposite(edge: int) -> int:
    return (edge + 3) % 6


@dataclass(frozen=True)
class Marker:
    """A token on a hex that is not a station in a city slot: a bridge, a city-value marker, a
    company's marker in a red area. `owner` is a company id or None; `value` what the title reads."""

    kind: str
    owner: str | None = None
    value: int = 0
    source: str | None = None  # the private or subsidy it came from


@dataclass(frozen=True)
class HexDef:
    """What is printed on one hex of the board."""

    coord: str
    x: int
    y: int
    color: str
    name: str | None
    terrain_cost: int
    terrain_types: tuple[str, ...]
    label: str | None
    printed: TileDef
    neighbors: dict[int, str]
    connectable: dict[int, str]
    accepts_tiles: bool
    blocked_by: tuple[str, ...]
    reserved: dict[int, tuple[str, ...]]
    stub_edges: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> HexDef:
        return self


@dataclass
class HexState:
    """One hex as it is now: its tile, rotation and the tokens in its cities."""

    hexdef: HexDef
    tile: TileDef
    tile_id: str
    rotation: int = 0
    tokens: list[list[str | None]] = field(default_factory=list)
    tile_laid: bool = False
    markers: list[Marker] = field(default_factory=list)

    def __setattr__(self, name: str, value: Any) -> None:
        # A new tile, rotation or set of slots is a change of the map (see `Board.kept`);
        # whatever lists are given, the hex keeps `Slots`, which count their own changes.
        _map_edited()
        if name == "tokens":
            value = [slots if isinstance(slots, Slots) else Slots(slots) for slots in value]
        object.__setattr__(self, name, value)

    @property
    def coord(self) -> str:
        return self.hexdef.coord

    def paths(self) -> list[tuple[tuple[str, int], tuple[str, int]]]:
        return self.tile.rotated_paths(self.rotation)

    def exits(self) -> set[int]:
        return self.tile.exits(self.rotation)

    def corporations_here(self) -> set[str]:
        return {token for slots in self.tokens for token in slots if token and token != NEUTRAL_TOKEN}

    def markers_of(self, kind: str) -> list[Marker]:
        return [marker for marker in self.markers if marker.kind == kind]


def parse_hex(raw: dict[str, Any]) -> HexDef:
    # A hex's printed resource icons are not tile labels (a tile's `resources` are its symbols).
    printed = parse_tile({**raw, "resources": ()}, name=raw["engine_tile_id"], color=raw["color"])
    terrain = raw.get("terrain") or {}
    reserved = {
        city["index"]: tuple(city["reserved_for"])
        for city in raw.get("cities", [])
        if city.get("reserved_for")
    }
    return HexDef(
        coord=raw["coord"],
        x=raw["x"],
        y=raw["y"],
        color=raw["color"],
        name=raw.get("location_name"),
        terrain_cost=int(terrain.get("cost") or 0),
        terrain_types=tuple(terrain.get("types") or ()),
        label=raw.get("label"),
        printed=printed,
        neighbors={int(k): v for k, v in raw.get("neighbors", {}).items()},
        connectable={int(k): v for k, v in raw.get("connectable_neighbors", {}).items()},
        accepts_tiles=bool(raw.get("accepts_tiles")),
        blocked_by=tuple(raw.get("blocked_by_private") or ()),
        reserved=reserved,
        stub_edges=tuple(raw.get("stub_edges") or ()),
    )


class Board:
    """Hexes, tiles on them, tokens, and which tile copies are still in the supply."""

    def __init__(self, map_data: dict[str, Any], tiles_data: dict[str, Any]) -> None:
        self.tiles: dict[str, TileDef] = {
            raw["name"]: parse_tile(raw) for raw in tiles_data["tiles"]
        }
        self.first_tiles: dict[str, tuple[str, ...]] = {
            coord: tuple(names)
            for coord, names in tiles_data.get("generic_tiles_for_preprinted_hex", {}).items()
        }
        self.hexes: dict[str, HexState] = {}
        for raw in map_data["hexes"]:
            hexdef = parse_hex(raw)
            self.hexes[hexdef.coord] = HexState(
                hexdef=hexdef,
                tile=hexdef.printed,
                tile_id=hexdef.printed.name,
                tokens=[[None] * stop.slots for stop in hexdef.printed.cities],
            )
        # Tile copies on the board, by tile name; the rest are in the supply.
        self.used_copies: dict[str, set[int]] = {name: set() for name in self.tiles}

    def fingerprint(self) -> tuple[Any, ...]:
        """Everything on the board that play changes: each hex's tile (the object, compared by
        value: a red area revalued keeps its tile id), rotation, stations and markers. Two equal
        fingerprints of one board mean the same position; the tile supply follows from the
        tiles laid."""
        return tuple([(state.tile_id, state.tile, state.rotation, *map(tuple, state.tokens),
                       *state.markers) for state in self.hexes.values()])

    # --- tile supply -------------------------------------------------------------------
    def free_copy(self, name: str) -> int | None:
        """The lowest copy index of a tile still in the supply."""
        tile = self.tiles[name]
        used = self.used_copies[name]
        limit = tile.count if tile.count is not None else len(used) + 1
        for index in range(limit):
            if index not in used:
                return index
        return None

    def copy_available(self, tile_id: str) -> bool:
        name, index = split_tile_id(tile_id)
        if name not in self.tiles:
            return False
        tile = self.tiles[name]
        if index in self.used_copies[name]:
            return False
        return tile.count is None or 0 <= index < tile.count

    def upgrade_targets(self, state: HexState) -> tuple[str, ...]:
        """Tiles the generic upgrade chart allows on this hex, before rotation checks."""
        if not state.tile_laid:
            return self.first_tiles.get(state.coord, ())
        return state.tile.upgrades_to

    # --- laying tiles --------------------------------------------------------------------
    def legal_rotations(self, state: HexState, tile: TileDef) -> list[int]:
        """Rotations that keep the old track and point every exit at a connectable hex."""
        old_track = state.tile.shape(state.rotation)
        rotations = []
        for rotation in range(6):
            exits = tile.exits(rotation)
            if any(edge not in state.hexdef.connectable for edge in exits):
                continue
            if any(edge not in exits for edge in state.hexdef.stub_edges):
                continue
            if not old_track.kept_by(tile.shape(rotation)):
                continue
            rotations.append(rotation)
        return rotations

    def place_tile(self, coord: str, tile: TileDef, tile_id: str, rotation: int) -> None:
        """Put a tile on a hex, returning the old tile to the supply and moving tokens over."""
        state = self.hexes[coord]
        if state.tile_laid:
            old_name, old_index = split_tile_id(state.tile_id)
            self.used_copies[old_name].discard(old_index)
        name, index = split_tile_id(tile_id)
        self.used_copies[name].add(index)
        old_tokens = state.tokens
        old_cities = state.tile.cities
        old_paths = state.paths()
        state.tile = tile
        state.tile_id = tile_id
        state.rotation = rotation
        state.tile_laid = True
        state.tokens = [[None] * city.slots for city in tile.cities]
        for slot in tile.neutral_slots:
            if state.tokens and slot < len(state.tokens[0]):
                state.tokens[0][slot] = NEUTRAL_TOKEN
        self._move_tokens(state, old_cities, old_paths, old_tokens)

    def _move_tokens(self, state: HexState, old_cities: list[StopDef],
                     old_paths: list[Any], old_tokens: list[list[str | None]]) -> None:
        new_paths = state.paths()
        for old_city, slots in zip(old_cities, old_tokens, strict=True):
            if not any(slots):
                continue
            target = _matching_city(old_city.index, old_paths, new_paths, len(state.tokens))
            new_slots = state.tokens[target]
            # Tokens keep their slot where they can, so logged slot numbers stay valid.
            for index, token in enumerate(slots):
                if token is None or token == NEUTRAL_TOKEN:
                    continue
                if index < len(new_slots) and new_slots[index] is None:
                    new_slots[index] = token
                elif None in new_slots:
                    new_slots[new_slots.index(None)] = token
                else:
                    # A token in an extra slot (a station allowed into a full city) keeps one.
                    new_slots.append(token)

    # --- tokens --------------------------------------------------------------------------
    def token_hexes(self, corporation: str) -> list[tuple[str, int]]:
        """(hex, city index) of every station of the company, in map order."""
        return list(dict.fromkeys((coord, city) for coord, city, _ in self.station_slots(corporation)))

    def station_slots(self, corporation: str) -> list[tuple[str, int, int]]:
        """(hex, city index, slot) of every station of the company, in map order."""
        return list(self.stations().get(corporation, ()))

    def kept(self, key: Hashable, compute: Callable[[], T]) -> T:
        """`compute()`'s answer, kept until a tile, a rotation or a station slot of any board
        changes: for questions about the track and the stations alone (what a company's track
        connects), never about markers or values. Shared: read it, never change it."""
        memo = _KEPT.get(self)
        if memo is None or memo[0] != _map_edits:
            memo = _KEPT[self] = (_map_edits, {})
        if key in memo[1]:
            found: T = memo[1][key]
            return found
        edits = _edits_in_this_thread()
        value = memo[1][key] = compute()
        assert edits == _edits_in_this_thread(), "a kept answer may not change the map"
        return value

    def stations(self) -> dict[str, tuple[tuple[str, int, int], ...]]:
        """Every company's stations: company id -> (hex, city index, slot) in map order. Shared:
        read it, never change it."""
        # Asked thousands of times in a replay (the 1817 family's stations to remove after every
        # action, reach, routes) and changed rarely, so kept, and built in one pass over the map
        # after any slot anywhere changed.
        index = _STATION_INDEX.get(self)
        if index is not None and index[0] == _map_edits:
            return index[1]
        edits = _map_edits
        found: dict[str, list[tuple[str, int, int]]] = {}
        for coord, state in self.hexes.items():
            for city_index, slots in enumerate(state.tokens):
                for slot, token in enumerate(slots):
                    if token is not None:
                        found.setdefault(token, []).append((coord, city_index, slot))
        stations = {token: tuple(places) for token, places in found.items()}
        _STATION_INDEX[self] = (edits, stations)
        return stations

    def city_is_blocked_for(self, coord: str, city_index: int, corporation: str) -> bool:
        """A city full of other companies' tokens cannot be passed through (a neutral token
        never closes a city)."""
        slots = self.hexes[coord].tokens[city_index]
        if corporation in slots or NEUTRAL_TOKEN in slots:
            return False
        return all(slot is not None for slot in slots) and len(slots) > 0

    def add_extra_slot(self, coord: str, city_index: int, corporation: str) -> int:
        """Put a station in a new slot beyond the city's printed ones; return that slot."""
        slots = self.hexes[coord].tokens[city_index]
        slots.append(corporation)
        return len(slots) - 1

    def remove_token(self, coord: str, city_index: int, slot: int) -> str | None:
        """Take a station off the map; an emptied extra slot disappears with it."""
        state = self.hexes[coord]
        slots = state.tokens[city_index]
        token = slots[slot]
        printed = state.tile.cities[city_index].slots
        if slot >= printed:
            del slots[slot]
        else:
            slots[slot] = None
            # A station waiting in an extra slot moves into the opening (18USA Free Station).
            if len(slots) > printed:
                slots[slot] = slots.pop()
        return token

    # --- values in play -------------------------------------------------------------------
    def revalue_stop(self, coord: str, kind: str, index: int,
                     revenue: int | tuple[tuple[str, int], ...]) -> None:
        """Give a stop on the hex's current tile new values (a red area's value token replaced)."""
        state = self.hexes[coord]
        stops = tuple(replace(stop, revenue=revenue) if (stop.kind, stop.index) == (kind, index) else stop
                      for stop in state.tile.stops)
        state.tile = replace(state.tile, stops=stops)


# Kept beside the boards, not in them: copies and pickles of a board carry none.
_KEPT: weakref.WeakKeyDictionary[Board, tuple[int, dict[Hashable, Any]]] = weakref.WeakKeyDictionary()
_STATION_INDEX: weakref.WeakKeyDictionary[Board, tuple[int, dict[str, tuple[tuple[str, int, int], ...]]]] = \
    weakref.WeakKeyDictionary()


def split_tile_id(tile_id: str) -> tuple[str, int]:
    name, _, index = tile_id.rpartition("-")
    if not name or not index.lstrip("-").isdigit():
        return tile_id, 0
    return name, int(index)


def _matching_city(old_index: int, old_paths: list[Any], new_paths: list[Any], new_count: int) -> int:
    if new_count <= 1:
        return 0
    old_edges = {a[1] if a[0] == "edge" else b[1] for a, b in old_paths
                 if ("city", old_index) in (a, b) and "edge" in (a[0], b[0])}
    for new_index in range(new_count):
        new_edges = {a[1] if a[0] == "edge" else b[1] for a, b in new_paths
                     if ("city", new_index) in (a, b) and "edge" in (a[0], b[0])}
        if old_edges & new_edges:
            return new_index
    return min(old_index, new_count - 1)

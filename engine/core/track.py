"""Laying and upgrading track, and placing station tokens: legality and effects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.core.actions import LayTile
from engine.core.board import HexState, split_tile_id
from engine.core.entities import Corporation
from engine.core.graph import Reach
from engine.core.lay_account import LayAccount, terrain_words
from engine.core.tiles import TileDef, path_signatures
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass(frozen=True)
class TileLay:
    """A checked tile lay, ready to apply."""

    coord: str
    tile: TileDef
    tile_id: str
    rotation: int
    cost: int
    upgrade: bool


def is_upgrade(state: HexState) -> bool:
    return state.tile_laid or state.tile.color not in ("white",)


def lay_candidates(game: BaseGame, state: HexState, special: tuple[str, ...] = ()) -> list[str]:
    """Tile names that may go on a hex by the upgrade chart, the phase and the supply."""
    names = list(special) or list(game.upgrade_targets(state))
    colors = game.colors_available()
    available = []
    for name in names:
        tile = game.board.tiles.get(name)
        if tile is None or tile.color not in colors:
            continue
        if game.board.free_copy(name) is None:
            continue
        available.append(name)
    return available


def check_tile_lay(game: BaseGame, corporation: Corporation, action: LayTile,
                   reach: Reach | None, *, allowed_tiles: tuple[str, ...] = (),
                   allowed_hexes: tuple[str, ...] = (), ignore_block_by: str | None = None,
                   yellow_only: bool = False) -> TileLay:
    """Check a lay_tile action against the rules; `reach` None means no route is needed."""
    coord = action.hex
    if coord not in game.board.hexes:
        raise GameError(f"{coord!r} is not a hex on the map")
    state = game.board.hexes[coord]
    if allowed_hexes and coord not in allowed_hexes:
        raise GameError(f"this lay may only be made in {', '.join(allowed_hexes)}")
    if not state.hexdef.accepts_tiles:
        raise GameError(f"no tile can be laid in {coord}")
    for company in game.blocking_companies(coord):
        if company.id != ignore_block_by:
            raise GameError(f"{coord} is blocked by the private company {company.name} while it is open")
    tile_id = action.tile
    name, _ = split_tile_id(tile_id)
    tile = game.board.tiles.get(name)
    if tile is None:
        raise GameError(f"there is no tile {name!r}")
    if not game.board.copy_available(tile_id):
        free = game.board.free_copy(name)
        hint = f"; the next free copy is {name}-{free}" if free is not None else "; all copies are in use"
        raise GameError(f"tile {tile_id} is not in the supply{hint}")
    upgrade = is_upgrade(state)
    if yellow_only and upgrade:
        raise GameError("only a yellow tile may be laid now, not an upgrade")
    legal_names = lay_candidates(game, state, allowed_tiles)
    if name not in legal_names:
        if tile.color not in game.colors_available():
            raise GameError(f"{tile.color} tiles are not available in phase {game.phase.name}")
        options = ", ".join(legal_names) or "none"
        raise GameError(f"tile {name} cannot be laid in {coord}; tiles that can: {options}")
    rotation = action.rotation
    if not 0 <= rotation <= 5:
        raise GameError("rotation is a number from 0 to 5")
    rotations = game.board.legal_rotations(state, tile)
    if rotation not in rotations and not _same_shape(tile, rotation, rotations):
        raise GameError(
            f"tile {name} in {coord} must keep the old track and point only at usable neighbours; "
            f"legal rotations: {rotations or 'none'}"
        )
    if reach is not None:
        edges = reach.hexes.get(coord, set())
        home = corporation.home_hex
        if home and coord != home and game.home_first_problem(corporation, reach):
            raise GameError(f"{corporation.id} has no track in its home hex yet, so its tile goes in "
                            f"{home} (12.2)")
        if not (tile.exits(rotation) & edges):
            raise GameError(f"{coord} is not connected to {corporation.id}'s track")
        if upgrade and not state.tile.stops and not (_new_track_edges(state, tile, rotation) & edges):
            # Rule 12.2 (1829 family): upgraded plain track must add track the company can use.
            raise GameError(f"the new track of tile {name} in {coord} would not connect to "
                            f"{corporation.id}'s route; a plain track upgrade must add usable track")
    cost = game.terrain_cost(state)
    if cost > corporation.cash:
        raise GameError(f"the terrain in {coord} costs ${cost}; {corporation.id} has ${corporation.cash}")
    return TileLay(coord, tile, tile_id, rotation, cost, upgrade)


def _new_track_edges(state: HexState, tile: TileDef, rotation: int) -> set[int]:
    """Edges touched by track of the new tile that the old tile does not have."""
    new = path_signatures(tile.rotated_paths(rotation)) - path_signatures(state.paths())
    edges: set[int] = set()
    for kind, where in new:
        edges.update(where if kind == "track" else {where})
    return edges


def _same_shape(tile: TileDef, rotation: int, rotations: list[int]) -> bool:
    shape = frozenset(frozenset(p) for p in tile.rotated_paths(rotation))
    return any(frozenset(frozenset(p) for p in tile.rotated_paths(r)) == shape for r in rotations)


def apply_tile_lay(game: BaseGame, corporation: Corporation, lay: TileLay, by: str = "") -> None:
    """Lay the checked tile; `by` names the private company whose power laid it, for the log."""
    if lay.cost:
        game.transfer(corporation, game.bank, lay.cost)
    game.board.place_tile(lay.coord, lay.tile, lay.tile_id, lay.rotation)
    game.last_tile_hexes = [lay.coord]
    terrain = terrain_words(game.board.hexes[lay.coord].hexdef.terrain_types)
    game.log.append(LayAccount(corporation.id, lay.tile.name, lay.coord, lay.rotation, by,
                               charges=((terrain, lay.cost),)).line())


def legal_tile_lays(game: BaseGame, corporation: Corporation, reach: Reach | None,
                    yellow_only: bool = False, hexes: tuple[str, ...] = (),
                    tiles: tuple[str, ...] = (), ignore_block_by: str | None = None) -> list[dict[str, Any]]:
    """Every legal (hex, tile, rotation) for the company, grouped by hex then tile."""
    choices = []
    coords = hexes or tuple(reach.hexes) if reach is not None else hexes
    for coord in sorted(coords or ()):
        state = game.board.hexes.get(coord)
        if state is None or not state.hexdef.accepts_tiles:
            continue
        by_tile = []
        for name in lay_candidates(game, state, tiles):
            copy = game.board.free_copy(name)
            tile_id = f"{name}-{copy}"
            rotations = []
            for rotation in game.board.legal_rotations(state, game.board.tiles[name]):
                try:
                    check_tile_lay(game, corporation, LayTile(hex=coord, tile=tile_id, rotation=rotation),
                                   reach, allowed_tiles=tiles, allowed_hexes=hexes,
                                   ignore_block_by=ignore_block_by, yellow_only=yellow_only)
                except GameError:
                    continue
                rotations.append(rotation)
            if rotations:
                by_tile.append({"tile": tile_id, "rotations": rotations})
        if by_tile:
            choices.append({"hex": coord, "tiles": by_tile})
    return choices


# --- station tokens ------------------------------------------------------------------------
def find_city(game: BaseGame, city_id: str) -> tuple[str, int]:
    """Resolve a logged city id (`<tile id>-<part index>`) to (hex, city index)."""
    tile_id, _, part = str(city_id).rpartition("-")
    if not part.isdigit():
        raise GameError(f"{city_id!r} is not a city id")
    for coord, state in game.board.hexes.items():
        if state.tile_id == tile_id:
            stop = state.tile.stop_by_part(int(part))
            if stop is not None and stop.kind == "city":
                return coord, stop.index
            if coord in game.no_token_hexes():
                raise GameError(f"no station may be placed in {coord}")
    raise GameError(f"there is no city {city_id!r} on the map")


def city_id(state: HexState, city_index: int) -> str:
    return f"{state.tile_id}-{state.tile.stop('city', city_index).part_index}"


def reserved_slots(game: BaseGame, coord: str, city_index: int, corporation: Corporation) -> int:
    """Slots kept free in this city for other companies' homes that have no token yet."""
    return sum(1 for corp_id in game.pending_reservations(coord, city_index) if corp_id != corporation.id)


def check_token(game: BaseGame, corporation: Corporation, coord: str, city_index: int,
                slot: int | None, reach: Reach | None) -> int:
    """Check a station placement; return the slot it goes in."""
    state = game.board.hexes[coord]
    if coord in game.no_token_hexes():
        raise GameError(f"no station may be placed in {coord}")
    if corporation.id in state.corporations_here():
        raise GameError(f"{corporation.id} already has a station in {coord}")
    if game.tokens_left(corporation) <= 0:
        raise GameError(f"{corporation.id} has no station markers left")
    if reach is not None and (coord, "city", city_index) not in reach.nodes:
        raise GameError(f"the city in {coord} is not on a route of {corporation.id}")
    slots = state.tokens[city_index]
    free = [index for index, token in enumerate(slots) if token is None]
    if len(free) - reserved_slots(game, coord, city_index, corporation) <= 0:
        if free:
            waiting = sorted(c for cs in state.hexdef.reserved.values() for c in cs
                             if c != corporation.id and c not in state.corporations_here())
            raise GameError(f"the free space in {coord} is kept for the home station of "
                            f"{', '.join(waiting)} (12.3)")
        raise GameError(f"the city in {coord} has no free space for {corporation.id}")
    # The slot named in an action is only a hint: a station takes the first free space.
    return free[0]


def tokenable_cities(game: BaseGame, corporation: Corporation, reach: Reach) -> list[tuple[str, int]]:
    found = []
    for coord, kind, index in sorted(reach.nodes):
        if kind != "city":
            continue
        try:
            check_token(game, corporation, coord, index, None, reach)
        except GameError:
            continue
        found.append((coord, index))
    return found


def place_token(game: BaseGame, corporation: Corporation, coord: str, city_index: int, slot: int) -> None:
    game.board.hexes[coord].tokens[city_index][slot] = corporation.id
    game.last_tile_hexes = [coord]
    game.log.append(f"{corporation.id} places a station in {coord}")


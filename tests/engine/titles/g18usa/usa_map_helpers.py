"""Small 18USA boards for the map rule tests."""

from __future__ import annotations

from collections.abc import Iterable

from engine.titles.g18usa.setup import SETUP_OPTIONS, setup_from_seed
from engine.titles.g18usa.track import TrackTurn, UsaLay, apply_lay, check_lay
from engine.titles.g18usa.usa_map import MAP_OPTIONS, UsaMap

PLAYERS = [{"id": n, "name": f"Player {n}"} for n in range(1, 5)]
SITE = frozenset(SETUP_OPTIONS) | frozenset(MAP_OPTIONS)
PRINTED = frozenset(SETUP_OPTIONS)  # the dealt table as on the site, the map rules as printed
# Seed 109372 draws Atlanta (H22), Chicago (D20) and New Orleans (I19); seed 2 draws
# Dallas-Fort Worth (H14), Atlanta and Denver (E11).
SEED = 109372
DENVER_SEED = 2


def usa_map(seed: int = SEED, options: Iterable[str] = SITE) -> UsaMap:
    options = frozenset(options)
    return UsaMap(setup_from_seed(seed, PLAYERS, options), options)


def station(umap: UsaMap, corporation: str, coord: str, city: int = 0) -> None:
    slots = umap.board.hexes[coord].tokens[city]
    slots[slots.index(None)] = corporation


def turn(corporation: str = "PRR", phase: str = "2", companies: Iterable[str] = (), home: str | None = None,
         first_turn: bool = False, lays: tuple = ()) -> TrackTurn:
    return TrackTurn(corporation, phase, frozenset(companies), home, first_turn, lays)


def lay(umap: UsaMap, track_turn: TrackTurn, coord: str, tile: str, rotation: int,
        entity: str | None = None) -> UsaLay:
    """Check and apply a lay; returns it (with its cost)."""
    name = tile if "-" in tile else f"{tile}-{umap.board.free_copy(tile)}"
    checked = check_lay(umap, track_turn, entity or track_turn.corporation, coord, name, rotation)
    apply_lay(umap, checked)
    return checked


def rotation_for(umap: UsaMap, coord: str, tile: str, needs: set[int]) -> int:
    """A legal rotation of `tile` in `coord` whose exits include `needs`."""
    state = umap.board.hexes[coord]
    piece = umap.board.tiles[tile]
    for rotation in umap.board.legal_rotations(state, piece):
        if needs <= piece.exits(rotation):
            return rotation
    raise AssertionError(f"no rotation of {tile} in {coord} reaches {needs}")

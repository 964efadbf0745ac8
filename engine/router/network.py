"""The network the optimizer searches, as it reads it: hexes with their laid track, the stops on
them and the stations in them. The rules' board (`engine.core.board.Board`) is one; the
optimizer names only what it reads here, so it imports nothing of the rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

Node = tuple[str, str, int]  # a stop: (hex coord, stop kind, stop index), as engine.core.graph has it
PathKey = tuple[str, int]  # (hex coord, index of the path on its tile), as engine.core.routes has it
Endpoint = tuple[str, int]  # ("edge", side), ("junction", 0), ("city", index), ...


def opposite(edge: int) -> int:
    """The side of the next hex that a hex's side `edge` meets."""
    return (edge + 3) % 6


class Stop(Protocol):
    """A city, town or off-board on a tile."""

    @property
    def kind(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def part_index(self) -> int: ...  # its part on the tile, as 18xx.games numbers node ids
    @property
    def distance_cost(self) -> int: ...  # 0: a stop that takes no distance
    @property
    def must_end_here(self) -> bool: ...  # a run may not go on through it
    @property
    def may_not_end_here(self) -> bool: ...
    @property
    def groups(self) -> Sequence[str]: ...  # stops of a group count as one location

    def revenue_in(self, colors_available: tuple[str, ...]) -> int: ...


class Tile(Protocol):
    @property
    def stops(self) -> Sequence[Stop]: ...

    def stop(self, kind: str, index: int) -> Stop: ...


class HexPlace(Protocol):
    """Where a hex is on the map: its neighbours by side."""

    @property
    def neighbors(self) -> Mapping[int, str]: ...


class Hex(Protocol):
    """A hex as it is now: its tile, rotation and the stations in its cities."""

    @property
    def hexdef(self) -> HexPlace: ...
    @property
    def tile(self) -> Tile: ...
    @property
    def tile_id(self) -> str: ...
    @property
    def rotation(self) -> int: ...
    @property
    def tile_laid(self) -> bool: ...
    @property
    def tokens(self) -> Sequence[Sequence[str | None]]: ...

    def paths(self) -> list[tuple[Endpoint, Endpoint]]: ...  # the laid track, rotated


class Network(Protocol):
    """The map as the optimizer reads it."""

    @property
    def hexes(self) -> Mapping[str, Hex]: ...

    def token_hexes(self, corporation: str) -> list[tuple[str, int]]: ...  # (hex, city) of its stations

    def city_is_blocked_for(self, coord: str, city_index: int, corporation: str) -> bool: ...

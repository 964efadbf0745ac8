"""Putting a dealt setup on the map: red-area values into the map data, metropolis tiles on the board."""

from __future__ import annotations

import copy
from typing import Any

from engine.core.board import Board
from engine.titles.g18usa.setup import UsaSetup

# Marks a red-area stop whose value comes from the token dealt at setup (map.json).
FROM_VALUE_TOKEN = "from_value_token"


def map_with_red_area_values(map_data: dict[str, Any], setup: UsaSetup) -> dict[str, Any]:
    """A copy of the map data whose red-area stops carry the values dealt to their area."""
    colors = map_data["randomized_setup"]["red_area_value_tokens"]["value_colors"]
    # Only the red areas' hexes are copied: the rest are shared with the data, never changed.
    hexes = []
    for raw in map_data["hexes"]:
        area = setup.red_area_of(raw["coord"])
        if area is not None:
            raw = copy.deepcopy(raw)
            for stop in (*raw["towns"], *raw["offboards"]):
                if stop["revenue"] == FROM_VALUE_TOKEN:
                    stop["revenue"] = dict(zip(colors, area.values, strict=True))
        hexes.append(raw)
    return {**map_data, "hexes": hexes}


def lay_metropolis_tiles(board: Board, setup: UsaSetup) -> None:
    """Rule 2.4: the three drawn metropolises get their tiles, turned as the map says."""
    for metropolis in setup.metropolis_tiles:
        copy_index = board.free_copy(metropolis.tile)
        if copy_index is None:
            raise ValueError(f"no {metropolis.tile} left for {metropolis.hex}")
        board.place_tile(metropolis.hex, board.tiles[metropolis.tile],
                         f"{metropolis.tile}-{copy_index}", metropolis.rotation)

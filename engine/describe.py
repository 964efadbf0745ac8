"""Plain facts about a choice, for front ends that explain it to players.

Read-only queries on a position: nothing here changes the state or decides legality (that
is ``engine.legal``'s job); they say what a legal choice would do, in the map's own words.
"""

from __future__ import annotations

from engine.core.game import BaseGame

OFF_MAP = "the map edge"


def track_ends(state: BaseGame, coord: str, tile: str, rotation: int) -> list[str]:
    """The hexes a tile's track would lead to if laid on ``coord`` at ``rotation``: one
    neighbouring coordinate per track exit, in edge order ("J5", "K8")."""
    hexdef = state.board.hexes[coord].hexdef
    tiledef = state.board.tiles[tile]
    return [hexdef.neighbors.get(edge, OFF_MAP) for edge in sorted(tiledef.exits(rotation))]


def rotation_words(state: BaseGame, coord: str, tile: str, rotation: int) -> str:
    """"rotation 5: track to J5 and K8"."""
    ends = list(dict.fromkeys(track_ends(state, coord, tile, rotation)))
    if not ends:
        return f"rotation {rotation}: no track"
    joined = ends[0] if len(ends) == 1 else ", ".join(ends[:-1]) + " and " + ends[-1]
    return f"rotation {rotation}: track to {joined}"

"""The legal-move answers of the 18USA map computed the slow, obvious way, to check the fast
ones against: every tile of the supply tried on every reached hex in every rotation, each
through `check_lay`; every city on the map through `check_station`. Nothing grouped, nothing
kept for the position (it is forgotten first), and the rotations kept for the process are
checked against the board's."""

from __future__ import annotations

from engine.core.graph import reach_of
from engine.core.position_cache import forget
from engine.errors import GameError
from engine.titles.g18usa.stations import check_station
from engine.titles.g18usa.track import TrackTurn, _candidates, _colors, _rotations, check_lay
from engine.titles.g18usa.usa_map import UsaMap


def reference_legal_lays(umap: UsaMap, turn: TrackTurn, entity: str | None = None) -> list[dict[str, object]]:
    entity = entity or turn.corporation
    forget(umap.board)
    reach = reach_of(umap.board, turn.corporation)
    choices: list[dict[str, object]] = []
    for coord in sorted(reach.hexes):
        state = umap.board.hexes.get(coord)
        if state is None or not state.hexdef.accepts_tiles:
            continue
        phase = umap.phase(turn.phase)
        colors = set(_colors(umap, turn, state, phase))
        by_tile = []
        for name, tile in sorted(umap.board.tiles.items()):
            copy = umap.board.free_copy(name)
            if copy is None or (tile.color not in colors and entity == turn.corporation
                                and tile.name not in ("X04",)):
                continue
            try:
                nature = _candidates(umap, turn, entity, state, tile, phase)[0]
            except GameError:
                continue
            tile_id = f"{name}-{copy}"
            # The rotations kept for the process are those the board gives now.
            assert umap.legal_rotations(state, tile) == umap.board.legal_rotations(state, tile)
            fits = []
            for rotation in range(6):
                try:
                    lay = check_lay(umap, turn, entity, coord, tile_id, rotation, reach)
                except GameError:
                    continue
                # A rotation check_lay accepts is one the geometry allows for this nature.
                assert rotation in _rotations(umap, state, tile, nature)
                fits.append((rotation, lay.cost))
            if fits:
                by_tile.append({"tile": tile_id, "rotations": [r for r, _ in fits],
                                "cost": min(c for _, c in fits)})
        if by_tile:
            choices.append({"hex": coord, "tiles": by_tile})
    return choices


def reference_legal_stations(umap: UsaMap, corporation: str) -> list[tuple[str, int]]:
    forget(umap.board)
    reach = reach_of(umap.board, corporation)
    found = []
    for coord, state in sorted(umap.board.hexes.items()):
        for index in range(len(state.tokens)):
            try:
                check_station(umap, corporation, coord, index, reach)
            except GameError:
                continue
            found.append((coord, index))
    return found

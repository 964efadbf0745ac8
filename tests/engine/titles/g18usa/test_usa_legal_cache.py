"""The answers kept per board position (engine/core/position_cache.py) are never an older
position's: after another company's lay or station, a token written straight into a city, a
move, a refused move, an undo and on a copy, every answer equals a fresh computation."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from usa_legal_reference import reference_legal_lays, reference_legal_stations
from usa_logs import LOGS, read_log

from engine import GameError, load_game
from engine.core.graph import reach_of
from engine.legal import legal_moves
from engine.titles.g18usa.setup import SETUP_OPTIONS, setup_from_seed
from engine.titles.g18usa.stations import StationPlace, legal_stations, place_station
from engine.titles.g18usa.track import TrackTurn, apply_lay, check_lay, legal_lays
from engine.titles.g18usa.usa_map import UsaMap

PLAYERS = [{"id": n, "name": f"Player {n}"} for n in range(1, 5)]


def usa_map() -> UsaMap:
    return UsaMap(setup_from_seed(109372, PLAYERS, SETUP_OPTIONS), SETUP_OPTIONS)


def same_as_fresh(umap: UsaMap, turn: TrackTurn) -> None:
    assert legal_lays(umap, turn) == reference_legal_lays(umap, turn)
    assert legal_stations(umap, turn.corporation) == reference_legal_stations(umap, turn.corporation)


def lay_for(umap: UsaMap, corporation: str, coord: str, tile: str, edges: set[int]) -> None:
    """Lay `tile` in `coord` for the company, turned to have track on `edges`."""
    turn = TrackTurn(corporation, "2")
    for rotation in range(6):
        if not edges <= umap.board.tiles[tile.rsplit("-", 1)[0]].exits(rotation):
            continue
        apply_lay(umap, check_lay(umap, turn, corporation, coord, tile, rotation))
        return
    raise AssertionError(f"no rotation of {tile} in {coord} has track on {edges}")


# Columbus (E23) and St. Louis (E17) with E21 and E19 between them; edge 1 points west, 4 east.
WEST, EAST = 1, 4


def test_another_companys_lay_changes_the_answers() -> None:
    umap = usa_map()
    umap.board.hexes["E23"].tokens[0][0] = "PRR"
    umap.board.hexes["E17"].tokens[0][0] = "B&O"
    lay_for(umap, "PRR", "E23", "57-0", {WEST})
    lay_for(umap, "B&O", "E17", "57-1", {EAST})
    lay_for(umap, "B&O", "E19", "9-0", {WEST, EAST})
    prr = TrackTurn("PRR", "2")
    before = legal_lays(umap, prr)
    assert legal_lays(umap, prr) == before  # asked again: the kept answer
    assert "E21" in [choice["hex"] for choice in before]
    # B&O builds into the hex between them: PRR may no longer lay there.
    lay_for(umap, "B&O", "E21", "9-1", {WEST, EAST})
    assert "E21" not in [choice["hex"] for choice in legal_lays(umap, prr)]
    same_as_fresh(umap, prr)


def test_another_companys_station_closes_a_city_and_the_answers_follow() -> None:
    umap = usa_map()
    umap.board.hexes["E23"].tokens[0][0] = "PRR"
    lay_for(umap, "PRR", "E23", "57-0", {WEST})
    lay_for(umap, "PRR", "E21", "9-0", {WEST, EAST})
    lay_for(umap, "PRR", "E19", "9-1", {WEST, EAST})
    lay_for(umap, "PRR", "E17", "57-1", {WEST, EAST})
    prr = TrackTurn("PRR", "2")
    reach_before = reach_of(umap.board, "PRR")
    assert "E15" in reach_before.hexes
    assert ("E17", 0) in legal_stations(umap, "PRR")
    place_station(umap, "MKT", StationPlace("E17", 0, 0, False))
    assert ("E17", 0) not in legal_stations(umap, "PRR")
    assert "E15" not in reach_of(umap.board, "PRR").hexes  # St. Louis is closed to PRR now
    same_as_fresh(umap, prr)


def test_a_token_written_straight_into_a_city_is_seen() -> None:
    umap = usa_map()
    umap.board.hexes["E23"].tokens[0][0] = "PRR"
    prr = TrackTurn("PRR", "2")
    assert legal_lays(umap, prr) != []
    kept = reach_of(umap.board, "PRR")
    assert reach_of(umap.board, "PRR") is kept
    # As the map replay and mergers do it: no board method is called.
    umap.board.hexes["E23"].tokens[0][0] = None
    assert legal_lays(umap, prr) == []
    assert reach_of(umap.board, "PRR").hexes == {}
    umap.board.hexes["D28"].tokens[0][0] = "PRR"
    same_as_fresh(umap, prr)


def test_the_caller_may_change_its_copy_of_the_answer() -> None:
    umap = usa_map()
    umap.board.hexes["E23"].tokens[0][0] = "PRR"
    prr = TrackTurn("PRR", "2")
    first = legal_lays(umap, prr)
    first[0]["tiles"].clear()  # type: ignore[attr-defined]
    first.clear()
    assert legal_lays(umap, prr) == reference_legal_lays(umap, prr)


def test_a_copy_of_the_map_has_its_own_answers() -> None:
    umap = usa_map()
    umap.board.hexes["E23"].tokens[0][0] = "PRR"
    prr = TrackTurn("PRR", "2")
    before = legal_lays(umap, prr)
    clone = copy.deepcopy(umap)
    lay_for(clone, "PRR", "E23", "57-0", {WEST})
    assert legal_lays(umap, prr) == before
    assert legal_lays(clone, prr) != before
    same_as_fresh(clone, prr)
    same_as_fresh(umap, prr)


# --- the game class: moves, refusals, undo ----------------------------------------------------
FIRST_LAY = 142  # 109372: SP's first lay (C19) in the first operating round, then D18


def lay_moves(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [move for move in moves if move["type"] in ("lay_tile", "place_token")]


def fresh_moves(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    log = read_log(LOGS[0][0])
    return legal_moves(load_game({**log, "actions": actions}).state)


@pytest.fixture(scope="module")
def log_actions() -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = read_log(LOGS[0][0])["actions"]
    assert actions[FIRST_LAY]["type"] == actions[FIRST_LAY + 1]["type"] == "lay_tile"
    return actions


def test_moves_refusals_and_undo_give_the_fresh_answers(log_actions: list[dict[str, Any]]) -> None:
    log = read_log(LOGS[0][0])
    game = load_game({**log, "actions": log_actions[:FIRST_LAY]})
    before = legal_moves(game.state)
    assert lay_moves(before) and before == fresh_moves(log_actions[:FIRST_LAY])
    # A refused lay changes nothing, kept answers included.
    with pytest.raises(GameError):
        game.process({**log_actions[FIRST_LAY], "hex": "A1"})
    assert legal_moves(game.state) == before
    game.process(log_actions[FIRST_LAY])
    after_lay = legal_moves(game.state)
    assert lay_moves(after_lay) != lay_moves(before)
    assert after_lay == fresh_moves(log_actions[:FIRST_LAY + 1])
    game.process(log_actions[FIRST_LAY + 1])
    assert legal_moves(game.state) == fresh_moves(log_actions[:FIRST_LAY + 2])
    game.process({"type": "undo", "entity": "SP", "entity_type": "corporation"})
    assert legal_moves(game.state) == after_lay
    game.process({"type": "undo", "entity": "SP", "entity_type": "corporation"})
    assert legal_moves(game.state) == before


def test_a_snapshot_keeps_its_answers_while_the_game_moves_on(log_actions: list[dict[str, Any]]) -> None:
    log = read_log(LOGS[0][0])
    game = load_game({**log, "actions": log_actions[:FIRST_LAY]})
    snapshot = game.state.snapshot()
    before = legal_moves(snapshot)
    game.process(log_actions[FIRST_LAY])
    assert legal_moves(snapshot) == before
    assert legal_moves(game.state) == fresh_moves(log_actions[:FIRST_LAY + 1])

"""Rule 12.2: new track must connect to the company's network. A lay is checked by a walk that
stops as soon as the network reaches the new track's edges (`graph.reaches`); at positions of a
logged game its answer is the full network's for every company, hex and edge, with the network
kept for the position and without it.
"""

from __future__ import annotations

import json

from usa_logs import FIXTURE

from engine.core.graph import reach_of, reaches
from engine.core.position_cache import forget
from engine.log import document_options, new_game


def test_the_walk_that_stops_early_answers_as_the_whole_network() -> None:
    log = json.loads(FIXTURE.read_text())
    game = new_game(log["title"], log["players"], log["settings"]["seed"], document_options(log)).state
    game.importing = True
    board = game.board
    compared = reached = 0
    for count, action in enumerate(log["actions"], 1):
        game.apply(action)
        if count not in (700, 1543):
            continue
        for corporation in (corp.id for corp in game.corporations.values() if board.token_hexes(corp.id)):
            forget(board)
            whole = reach_of(board, corporation)
            near = set(whole.hexes) | {neighbor for coord in whole.hexes
                                       for neighbor in board.hexes[coord].hexdef.neighbors.values()
                                       if neighbor in board.hexes}
            asked = [(coord, edges) for coord in sorted(near)
                     for edges in [*([edge] for edge in range(6)), range(6), []]]
            expected = [not whole.hexes.get(coord, set()).isdisjoint(edges) for coord, edges in asked]
            assert [reaches(board, corporation, *question) for question in asked] == expected  # kept
            forget(board)
            assert [reaches(board, corporation, *question) for question in asked] == expected  # walked
            compared += len(asked)
            reached += sum(expected)
    assert compared > 1000 and 0 < reached < compared, (compared, reached)

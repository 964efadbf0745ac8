"""P26's rural junction goes on an empty city hex and holds no stations: a printed city where a
company has already placed a station (no tile laid yet) is not empty. Before, the lay was offered
there and crashed inside the board (IndexError while moving the station onto the junction, which
has no slot), which stopped a random legal game.

The position (tests/data/positions/usa_rural_junction_on_a_station.json, random legal play): PRR
operates, owns P26, and has a station on G7 (Phoenix), a printed city with no tile.
"""

from __future__ import annotations

import pytest
from game_pictures import snapshot
from usa_positions import kept_position

from engine.errors import GameError
from engine.legal import legal_moves
from engine.log import Game

JUNCTION_ON_G7 = {"type": "lay_tile", "entity": "P26", "entity_type": "company", "hex": "G7", "tile": "X07-0",
                  "rotation": 5}


def prr_operating() -> Game:
    game = kept_position("usa_rural_junction_on_a_station")
    g7 = game.state.board.hexes["G7"]
    assert not g7.tile_laid and g7.corporations_here() == {"PRR"}
    assert game.state.companies["P26"].owner is game.state.corporations["PRR"]
    return game


def test_a_rural_junction_on_a_printed_city_with_a_station_is_refused_and_changes_nothing() -> None:
    game = prr_operating()
    before = snapshot(game)
    with pytest.raises(GameError, match=r"^a rural junction goes on an empty city hex; G7 has a station \(PRR\)$"):
        game.process(JUNCTION_ON_G7)
    assert snapshot(game) == before


def test_it_is_not_offered_there() -> None:
    game = prr_operating()
    offered = [choice for move in legal_moves(game.state) if move["entity"] == "P26"
               for choice in move.get("choices", [])]
    assert all(choice.get("hex") != "G7" for choice in offered)

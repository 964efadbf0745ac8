"""18USA rule 12.2.3: Denver's orientation is chosen by the first company reaching it, with a
lay outside its tile actions — still open after both of them.

The position: a real game where NP has used its two tile actions and then put a Free Station
(S9) in Denver (E11), whose tile has no orientation yet.
"""

from __future__ import annotations

from usa_tracecheck import position_in

from engine.legal import legal_moves
from engine.titles.g18usa.operating import tile_actions_used

AFTER_THE_FREE_STATION = 238


def test_the_denver_lay_is_open_after_both_tile_actions() -> None:
    game = position_in("s8403", AFTER_THE_FREE_STATION)
    assert game.board.hexes["E11"].tile.name == "X04s"
    assert tile_actions_used(game.round) == 2
    lays = [choice for move in legal_moves(game) if move["type"] == "lay_tile" for choice in move["choices"]]
    assert [choice["hex"] for choice in lays] == ["E11"]
    assert {tile["tile"].rsplit("-", 1)[0] for tile in lays[0]["tiles"]} == {"X04"}


def test_after_the_denver_lay_the_track_step_is_over() -> None:
    game = position_in("s8403", AFTER_THE_FREE_STATION)
    game.apply({"type": "lay_tile", "entity": "NP", "entity_type": "corporation", "hex": "E11",
                "tile": "X04-0", "rotation": 3})
    assert game.board.hexes["E11"].tile.name == "X04"
    assert "lay_tile" not in {move["type"] for move in legal_moves(game)}

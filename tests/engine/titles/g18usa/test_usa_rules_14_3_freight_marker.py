"""18USA rule 14.3 with P8 (Express Freight Service): the card's marker in a red area is one of
the company's tokens — "if a merger or acquisition takes the survivor over its token limit, it
may drop the marker instead". s8600: NYC, with 7 stations on the map and P8's marker at J20,
buys C&O (one station, G11) in a liquidation: 7 + 1 + the marker is over 8, and the site asks
NYC to remove a station or the marker (it takes off E3) before G11 becomes its own.
"""

from __future__ import annotations

from usa_tracecheck import position_in

from engine.legal import legal_moves

BEFORE_THE_BID = 555  # P3's $10 bid for C&O with NYC is the next action


def test_p8_marker_counts_toward_the_most_stations_in_a_sale() -> None:
    game = position_in("s8600", BEFORE_THE_BID)
    nyc = game.corporations["NYC"]
    assert len(game.board.token_hexes("NYC")) == 7 and game.tokens_off_the_map(nyc) == 1
    game.apply({"type": "bid", "entity": "P3", "entity_type": "player", "corporation": "C&O", "price": 10})
    moves = legal_moves(game)
    # A station to remove, or P8's marker instead (the card; the site's "Remove").
    assert [(m["type"], m["entity"]) for m in moves] == [("remove_token", "NYC"), ("choose", "NYC")]
    assert moves[1]["choices"] == [{"choice": "Remove"}]
    assert ("G11", 0) in game.board.token_hexes("C&O")  # C&O's station waits for the removal


def test_without_p8_a_company_has_no_token_off_the_map() -> None:
    game = position_in("s8600", BEFORE_THE_BID)
    assert game.tokens_off_the_map(game.corporations["C&O"]) == 0


def test_with_the_marker_the_company_holds_no_ninth_token() -> None:
    """After removing E3, NYC has 7 stations and the marker: no station is left on its charter
    (so P20 no longer holds its track step open, as on the site at 574)."""
    game = position_in("s8600", BEFORE_THE_BID + 2)  # the bid, then NYC's removal of E3
    nyc = game.corporations["NYC"]
    assert len(game.board.token_hexes("NYC")) == 7 and ("G11", 0) in game.board.token_hexes("NYC")
    assert nyc.token_count == 7 and game.tokens_left(nyc) == 0

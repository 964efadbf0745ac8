"""Rule 14.3: the stations of a company bought in the acquisition round join the buyer's; a hex
where both have one, and more than eight stations. Printed reading by default; the site's with
`site_sale_stations` (the buyer's own station leaves a city it shares with the bought company,
a hex where the two hold different cities is asked about, and any station in a city of theirs
may be taken off while the buyer removes stations)."""

from __future__ import annotations

from family_helpers import (
    act,
    corp,
    legal_moves,
    refused,
    three_companies,
    to_acquisition_round,
    to_merger_round,
)

from engine.core.family1817.game import SITE_SALE_STATIONS
from engine.core.track import place_token

SITE = [SITE_SALE_STATIONS]


def a_for_sale(options: list[str] | None = None) -> object:
    """Ann's A (2 shares, home A1) in acquisition, without money; Bob's B (2 shares, B2) and Cy's
    C (5 shares, A1) may buy it; the acquisition round opens with A's auction."""
    game = three_companies(options)
    to_merger_round(game)
    game.market.move("A", "left", 20)
    corp(game, "A").cash = 0
    to_acquisition_round(game)
    assert game.round.sale.target == "A"
    return game


def c_buys_a(game: object) -> None:
    act(game, "pass", "b")
    act(game, "bid", "c", corporation="A", price=10)  # Cy alone: C buys A at once


def stations(game: object, coord: str) -> list[list[str | None]]:
    return game.board.hexes[coord].tokens


def test_14_3_printed_the_bought_company_station_in_a_shared_hex_goes_back_unasked() -> None:
    game = a_for_sale()
    assert stations(game, "A1") == [["A", "C", None, None]]
    c_buys_a(game)
    assert "remove_token" not in {m["type"] for m in legal_moves(game)}
    assert stations(game, "A1") == [[None, "C", None, None]]
    assert game.board.token_hexes("A") == []


def test_14_3_site_the_buyer_own_station_leaves_a_city_it_shares() -> None:
    game = a_for_sale(SITE)
    c_buys_a(game)
    assert "remove_token" not in {m["type"] for m in legal_moves(game)}
    # A's station, in the first slot, is C's now; C's own went back to its charter
    assert stations(game, "A1") == [["C", None, None, None]]


def twin_city(game: object) -> None:
    """A and C also hold the two cities of C3."""
    place_token(game, corp(game, "A"), "C3", 0, 0)
    place_token(game, corp(game, "C"), "C3", 1, 0)


def test_14_3_printed_different_cities_of_one_hex_the_bought_company_station_goes_back() -> None:
    game = a_for_sale()
    twin_city(game)
    c_buys_a(game)
    assert "remove_token" not in {m["type"] for m in legal_moves(game)}
    assert stations(game, "C3") == [[None], ["C"]]


def test_14_3_site_different_cities_of_one_hex_the_buyer_is_asked() -> None:
    game = a_for_sale(SITE)
    twin_city(game)
    c_buys_a(game)
    move = legal_moves(game)[0]
    assert move["type"] == "remove_token" and {c["hex"] for c in move["choices"]} == {"C3"}
    # until it has removed one, A's stations stay A's (C's own A1 station has gone back already)
    assert sorted(game.board.token_hexes("A")) == [("A1", 0), ("C3", 0)]
    refused(game, "remove_token", "C", "may remove one of its stations at C3", city="A1-0-0", slot=0)
    act(game, "remove_token", "C", city="C3-0-1", slot=0)  # C keeps A's city
    assert stations(game, "C3") == [["C"], [None]] and stations(game, "A1") == [["C", None, None, None]]
    assert game.board.token_hexes("A") == []


def crowd(game: object) -> None:
    """A company may have two stations here: C has A1 and B2, A has A1 and C3."""
    game.MAX_TOKENS = 2
    place_token(game, corp(game, "C"), "B2", 0, 1)
    corp(game, "C").token_count = 2
    place_token(game, corp(game, "A"), "C3", 0, 0)


def test_14_3_more_than_the_most_stations_the_president_chooses_which_go() -> None:
    for options in (None, SITE):
        game = a_for_sale(options)
        crowd(game)
        c_buys_a(game)
        # one of the two in A1 left unasked; B2, A1 and C3 are one too many
        move = legal_moves(game)[0]
        assert move["type"] == "remove_token"
        assert {c["hex"] for c in move["choices"] if c["city"] != "B2-0-0" or c["slot"] != 0} == {"A1", "B2", "C3"}
        act(game, "remove_token", "C", city="B2-0-0", slot=1)
        assert "remove_token" not in {m["type"] for m in legal_moves(game)}
        assert sorted(game.board.token_hexes("C")) == [("A1", 0), ("C3", 0)] and corp(game, "C").token_count == 2


def test_14_3_site_another_company_station_in_a_shared_city_may_be_taken_off() -> None:
    game = a_for_sale(SITE)
    crowd(game)
    assert stations(game, "B2")[0][:2] == ["B", "C"]
    c_buys_a(game)
    choices = legal_moves(game)[0]["choices"]
    # B's, in a city of C's; each choice says whose station it is, as C's own B2 station is there too
    assert {"city": "B2-0-0", "slot": 0, "hex": "B2", "owner": "B",
            "label": "goes back to B; does not count as one of C's"} in choices
    assert {"city": "B2-0-0", "slot": 1, "hex": "B2", "owner": "C"} in choices
    act(game, "remove_token", "C", city="B2-0-0", slot=0)
    # it went back to B's charter and counted for nothing: C must still remove one of its own
    assert stations(game, "B2")[0][0] is None and legal_moves(game)[0]["type"] == "remove_token"

    printed = a_for_sale()
    crowd(printed)
    c_buys_a(printed)
    assert ("B2-0-0", 0) not in {(c["city"], c["slot"]) for c in legal_moves(printed)[0]["choices"]}
    refused(printed, "remove_token", "C", "may remove one of its stations", city="B2-0-0", slot=0)

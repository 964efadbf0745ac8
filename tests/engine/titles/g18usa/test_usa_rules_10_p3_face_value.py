"""18USA P3 (Reece Oil and Gas): its face value, by the rulebook's private list ($40, the default)
or the site's (`site_p3_value`: $30).

The face value sets the private auction's minimum opening bid (rule 10: at least 50% of the face
value) and what a contributed P3 is worth when a company starts (rule 11.6: the winner pays the bid
less the face values contributed; the treasury gets twice the share price less them).

A new four-player game: A wins P3 alone, everybody then passes (the auction ends and the first
stock round begins), and A starts UP at $100 (a $50 share price) in New York, which has no subsidy.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import contribute, moves_of, played, refused, start, words

from engine.log import new_game
from engine.titles.g18usa.game import SITE_P3_VALUE

PLAYERS = [{"id": name, "name": name} for name in "ABCD"]
NEW_YORK = "D28"
READINGS = [pytest.param((), 40, id="printed"), pytest.param((SITE_P3_VALUE,), 30, id=SITE_P3_VALUE)]


def auction(options: tuple[str, ...]) -> Any:
    game = new_game("18USA", PLAYERS, 7, list(options)).state
    game.importing = False
    return game


def bid(player: str, company: str, price: int) -> dict[str, Any]:
    return {"type": "bid", "entity": player, "entity_type": "player", "company": company, "price": price}


def pass_(player: str) -> dict[str, Any]:
    return {"type": "pass", "entity": player, "entity_type": "player"}


def p3_bought_by_a(options: tuple[str, ...], price: int) -> Any:
    """A has bought P3 for `price`; the others then pass the auction out, and the first stock
    round comes round to A."""
    game = auction(options)
    played(game, bid("A", "P3", price))
    for player in "BCD" + "BCDA" + "BCD":  # the bidding on P3, the auction's last turns, the stock round's
        assert game.acting_players()[0].id == player
        played(game, pass_(player))
    return game


@pytest.mark.parametrize(("options", "face"), READINGS)
def test_the_minimum_opening_bid_is_half_the_face_value(options: tuple[str, ...], face: int) -> None:
    game = auction(options)
    assert game.companies["P3"].value == face
    offered = {choice["company"]: choice["min"] for move in moves_of(game, "bid", "A") for choice in move["choices"]}
    assert offered["P3"] == face // 2
    if face // 2 > 15:
        refused(game, bid("A", "P3", 15), words(f"a bid on P3 must be at least ${face // 2}"))
    played(game, bid("A", "P3", face // 2))
    for player in "BCD":
        played(game, pass_(player))
    assert game.companies["P3"].owner is game.players[0] and game.players[0].cash == 315 - face // 2


@pytest.mark.parametrize(("options", "face"), READINGS)
def test_a_contributed_p3_counts_its_face_value_in_the_new_companys_funding(
        options: tuple[str, ...], face: int) -> None:
    game = p3_bought_by_a(options, 20)
    a = game.players[0]
    assert game.companies["P3"].owner is a and a.cash == 315 - 20
    start(game, "A", "UP", 100, NEW_YORK)
    up = game.corporations["UP"]
    contribute(game, "A", "P3")  # A's only private: the company is funded
    assert not moves_of(game, "assign", "A")
    # Rule 11.6: A pays $100 less P3's face value; UP gets 2 x $50 less it.
    assert a.cash == 315 - 20 - (100 - face)
    assert up.cash == 2 * 50 - face
    assert game.companies["P3"].owner is up

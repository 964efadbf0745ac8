"""18USA bridge cards (rule 13.4): P2 Fox Bridge Works, P21 Keystone Bridge Co. (its bridge; its
resource token is in test_usa_cards_resources.py) and P22 American Bridge Company.

Played at s12045's first operating round: PRR (home Fargo) at its track step, given a station in
the river city of Chicago-side E17 with track to the river city E15 (NP's home).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import (
    PRR_TRACK,
    give,
    lay,
    moves_of,
    offered_tiles,
    only,
    played,
    position,
    put,
    refused,
    station,
    tile_id,
)

from engine.titles.g18usa import powers
from engine.titles.g18usa.revenue import stop_value

BRIDGES = [("P2", 1), ("P21", 1), ("P22", 2)]


def rivers(*cards: str, site: bool = False) -> Any:
    game = position(*PRR_TRACK, site=site)
    only(game, "PRR", *cards)
    station(game, "PRR", "E17")
    put(game, "E17", "57", {1, 4})
    return game


def assign(card: str, coord: str) -> dict[str, Any]:
    return {"type": "assign", "entity": card, "entity_type": "company", "target": coord,
            "target_type": "hex"}


def targets(game: Any, card: str) -> set[str]:
    return {choice["target"] for move in moves_of(game, "assign", card) for choice in move["choices"]}


@pytest.mark.parametrize("card", ["P2", "P21", "P22"])
def test_the_owning_company_pays_no_10_river_cost(card: str) -> None:
    assert offered_tiles(rivers(), "PRR", "E15")["57"]["cost"] == 10
    assert offered_tiles(rivers(card), "PRR", "E15")["57"]["cost"] == 0
    # Other terrain is paid as usual: B16 and B12 have none, C27-like mountains are P5's.
    assert offered_tiles(rivers(card), "PRR", "E19")["7"]["cost"] == 0


@pytest.mark.parametrize(("card", "tokens"), BRIDGES)
def test_bridge_tokens_go_on_reached_river_cities_one_a_hex_and_the_card_stays_open(card: str, tokens: int) -> None:
    game = rivers(card)
    put(game, "E15", "57", {1, 4})  # E15's track meets E17's: PRR reaches NP's home
    assert targets(game, card) == {"E15", "E17"}
    played(game, assign(card, "E17"))
    assert [m.kind for m in game.board.hexes["E17"].markers] == ["bridge"]
    refused(game, assign(card, "E17"), "E17 already has a bridge" if tokens > 1
            else f"{card} has no bridge token left \\(its card gives 1, one a hex\\)")
    if tokens > 1:
        assert targets(game, card) == {"E15"}
        played(game, assign(card, "E15"))
    assert not moves_of(game, "assign", card)
    refused(game, assign(card, "D14"), f"{card} has no bridge token left")
    assert powers.uses_left(game.companies[card], powers.BRIDGE) == 0
    assert game.owns(game.corporations["PRR"], card)  # still waives river costs
    assert offered_tiles(game, "PRR", "E19")["7"]["cost"] == 0


def test_a_bridge_adds_10_to_the_stop_for_every_company() -> None:
    game = rivers("P2")
    put(game, "E15", "57", {1, 4})
    node = ("E15", "city", 0)
    before = {corp: stop_value(game.umap, corp, node, "2") for corp in ("PRR", "NP", "ATSF")}
    played(game, assign("P2", "E15"))
    after = {corp: stop_value(game.umap, corp, node, "2") for corp in ("PRR", "NP", "ATSF")}
    assert after == {corp: value + 10 for corp, value in before.items()}


@pytest.mark.parametrize(("coord", "message"), [
    ("C17", "PRR has no route to C17"),
    ("B12", "B12 is not a river hex with a bridge site"),
    ("E21", "a bridge goes on a city, not on plain track in E21"),
    ("I19", "no bridge may go in New Orleans while it is a metropolis"),
])
def test_a_bridge_goes_only_on_a_reached_river_city_and_not_new_orleans_as_a_metropolis(coord: str, message: str) -> None:
    game = rivers("P2")
    put(game, "E19", "9", {1, 4})  # E17 -> E19 -> E21 (river plain track)
    put(game, "E21", "9", {1, 4})
    station(game, "PRR", "I19")  # New Orleans, a metropolis in this game
    refused(game, assign("P2", coord), message)
    assert coord not in targets(game, "P2")


@pytest.mark.parametrize("site", [False, True], ids=["printed", "site_junction_bridges"])
def test_a_rural_junction_on_a_river_city_takes_a_bridge_only_by_the_sites_reading(site: bool) -> None:
    game = rivers("P2", site=site)
    put(game, "E19", "8", {1, 5})  # E17 -> E19 -> F20, a river city
    junction = game.board.tiles["X07"]
    rotation = next(r for r in range(6) if 2 in junction.exits(r)
                    and junction.exits(r) <= set(game.board.hexes["F20"].hexdef.connectable))
    game.board.place_tile("F20", junction, "X07-0", rotation)
    if site:
        played(game, assign("P2", "F20"))
    else:
        refused(game, assign("P2", "F20"), "the rural junction in F20 is not one")


def test_a_company_town_on_a_river_hex_takes_a_bridge() -> None:
    """13.4: the Company Town on a river hex with a $10 cost may receive a bridge (P27's lay
    pays no river cost with P2)."""
    game = rivers("P2", "P27")
    put(game, "E19", "9", {1, 4})
    piece = game.board.tiles["X20"]
    offered = offered_tiles(game, "P27", "E21")["X20"]
    rotation = next(r for r in offered["rotations"] if 1 in piece.exits(r))
    assert offered["cost"] == 0
    played(game, lay("P27", "E21", tile_id(game, "X20"), rotation, company=True))
    played(game, assign("P2", "E21"))
    assert [m.kind for m in game.board.hexes["E21"].markers] == ["bridge"]


def test_a_bridge_may_go_at_any_time_of_the_owning_companys_turn() -> None:
    """P2's card: "at any time in the owning corporation's operating turn" (here at its
    buy-trains step, after the track step), and only in its own turn."""
    game = rivers("P2")
    played(game, {"type": "pass", "entity": "PRR", "entity_type": "corporation"})  # the track step
    assert moves_of(game, "buy_train", "PRR") and targets(game, "P2") == {"E17"}
    played(game, assign("P2", "E17"))
    assert [m.kind for m in game.board.hexes["E17"].markers] == ["bridge"]


def test_no_bridge_in_another_companys_turn() -> None:
    game = rivers()
    give(game, "P2", game.corporations["ATSF"])  # ATSF operates after PRR
    assert not moves_of(game, "assign", "P2")
    refused(game, assign("P2", "E17"), "it is PRR's turn")

"""18USA cards with resource tokens (rule 13): P1, P3, P4, P12, P18, P21's resource, P24, P28,
the Resource Subsidy S16, and P5's mountain discount beside them.

Each card is played through the engine's actions at one position: s12045's first operating
round, PRR (home Fargo, B14) at its track step, with a yellow city at home whose track points
at B12 (coal and oil, no terrain) and on to B10 (coal and ore) and B8 (Helena). The mountain
waivers are played at Cleveland-side E25 (coal, $15 mountain) and G21 (ore, $15 mountain).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import (
    PRR_TRACK,
    lay,
    offered_tiles,
    only,
    played,
    position,
    put,
    refused,
    rotation,
    station,
    tile_id,
)

from engine.titles.g18usa import powers


def fargo(*cards: str) -> Any:
    """PRR at its track step holding `cards`, its yellow home city pointing at B12."""
    game = position(*PRR_TRACK)
    only(game, "PRR", *cards)
    put(game, "B14", "57", {1, 4})
    return game


def lay_resource(game: Any, coord: str, tile: str, needs: set[int]) -> dict[str, Any]:
    action = lay("PRR", coord, tile_id(game, tile), rotation(game, "PRR", coord, tile, needs))
    played(game, action)
    return action


def second_action_price(game: Any) -> int:
    """What PRR's next plain lay (B10 after B12) costs: $20 once a tile action is used."""
    return int(offered_tiles(game, "PRR", "B10")["9"]["cost"])


@pytest.mark.parametrize(("card", "resource", "tokens"), [
    ("P1", "coal", 1), ("P18", "coal", 2), ("P28", "coal", 3), ("P3", "oil", 1), ("P12", "oil", 2),
])
def test_each_token_is_laid_with_a_tile_action_and_the_card_closes_with_its_last(
        card: str, resource: str, tokens: int) -> None:
    game = fargo(card)
    prr = game.corporations["PRR"]
    tile = f"9{resource}"
    assert offered_tiles(game, "PRR", "B12")[tile]["cost"] == 0
    lay_resource(game, "B12", tile, {1, 4})
    assert game.board.hexes["B12"].tile.name == tile
    assert second_action_price(game) == 20  # the token's lay was PRR's first tile action
    company = game.companies[card]
    assert powers.uses_left(company, powers.RESOURCE) == tokens - 1
    assert game.owns(prr, card) is (tokens > 1)
    # Its last token closes it.
    game = fargo(card)
    game.companies[card].uses[powers.RESOURCE] = tokens - 1
    lay_resource(game, "B12", tile, {1, 4})
    assert not game.owns(game.corporations["PRR"], card)


@pytest.mark.parametrize(("card", "tokens"), [("P4", 1), ("P24", 2)])
def test_ore_tokens_go_on_ore_hexes_with_a_tile_action(card: str, tokens: int) -> None:
    game = fargo(card)
    refused(game, lay("PRR", "B12", tile_id(game, "9coal"), 4), "PRR has no coal token to place")
    lay_resource(game, "B12", "9", {1, 4})
    lay_resource(game, "B10", "9ore10", {1, 4})  # its track points into Helena (B8)
    assert game.owns(game.corporations["PRR"], card) is (tokens > 1)
    assert game.umap.ore_value(game.board.hexes["B10"].tile) == 10


def test_p1_a_card_with_no_token_left_lays_none() -> None:
    game = fargo("P1")
    lay_resource(game, "B12", "9coal", {1, 4})
    assert not game.owns(game.corporations["PRR"], "P1")
    refused(game, lay("PRR", "B10", tile_id(game, "9coal"), 4), "PRR has no coal token to place")
    assert "9coal" not in offered_tiles(game, "PRR", "B10") and "9" in offered_tiles(game, "PRR", "B10")


def test_a_resource_token_goes_only_on_its_own_resources_hex() -> None:
    game = fargo("P3")
    lay_resource(game, "B12", "9", {1, 4})
    # B10 shows coal and ore, no oil: the oil tile is not a tile of that hex.
    refused(game, lay("PRR", "B10", tile_id(game, "9oil"), 4), "tiles that can: .*9coal")
    assert game.owns(game.corporations["PRR"], "P3")


def test_a_resource_tile_must_point_into_a_city() -> None:
    """13.1: from B10 the track must go into Helena (B8); along B12-B10-C9 it points at no city."""
    game = fargo("P18")
    lay_resource(game, "B12", "9coal", {1, 4})
    piece = game.board.tiles["8coal"]
    away = next(r for r in game.board.legal_rotations(game.board.hexes["B10"], piece)
                if piece.exits(r) == {0, 4})
    refused(game, lay("PRR", "B10", tile_id(game, "8coal"), away), "must point into a city hex")


def cleveland(*cards: str) -> Any:
    """PRR also stationed in Cleveland (E23) with a yellow city pointing at E25 (coal, $15
    mountain), and in Atlanta (H22) with one pointing at G21 (ore, $15 mountain)."""
    game = fargo(*cards)
    station(game, "PRR", "E23")
    put(game, "E23", "57", {1, 4})
    station(game, "PRR", "H22")
    put(game, "H22", "57", {2, 5})
    return game


@pytest.mark.parametrize(("cards", "coord", "plain", "resource"), [
    ((), "E25", 15, None),
    (("P5",), "E25", 0, None),
    (("P1",), "E25", 15, 0),
    (("P1", "P5"), "E25", 0, 0),  # no refund when the token already waives the mountain
    (("P4",), "G21", 15, 0),
    (("P21",), "E25", 15, 0),
    (("P21",), "G21", 15, 0),
])
def test_coal_and_ore_waive_15_of_a_mountain_and_p5_gives_15_off_mountains(
        cards: tuple[str, ...], coord: str, plain: int, resource: int | None) -> None:
    game = cleveland(*cards)
    tiles = offered_tiles(game, "PRR", coord)
    assert tiles["7"]["cost"] == plain
    token = "7coal" if coord == "E25" else "7ore10"
    if resource is None:
        assert token not in tiles
    else:
        assert tiles[token]["cost"] == resource


def test_p21_keeps_its_bridge_after_its_one_resource_token_coal_or_ore() -> None:
    game = fargo("P21")
    lay_resource(game, "B12", "9coal", {1, 4})
    p21 = game.companies["P21"]
    assert game.owns(game.corporations["PRR"], "P21")
    assert powers.uses_left(p21, powers.RESOURCE) == 0 and powers.uses_left(p21, powers.BRIDGE) == 1
    refused(game, lay("PRR", "B10", tile_id(game, "9ore10"), 4), "PRR has no ore token to place")


def test_s16_lays_its_token_outside_the_tile_actions_and_closes() -> None:
    game = fargo("S16")
    assert game.umap.setup.resource_subsidy_resources == ("ore", "coal")  # P12 is in this game
    refused(game, lay("PRR", "B12", tile_id(game, "9oil"), 4), "PRR has no oil token to place")
    lay_resource(game, "B12", "9coal", {1, 4})
    prr = game.corporations["PRR"]
    assert not game.owns(prr, "S16")
    # The subsidy's lay was no tile action: PRR's next lay is its first, free.
    assert second_action_price(game) == 0


def test_s16_waives_15_of_a_coal_mountain() -> None:
    game = cleveland("S16")
    assert offered_tiles(game, "PRR", "E25")["7coal"]["cost"] == 0
    assert offered_tiles(game, "PRR", "E25")["7"]["cost"] == 15

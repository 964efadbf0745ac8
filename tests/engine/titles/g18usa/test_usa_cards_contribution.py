"""18USA cards that act when a company starts (rule 11.6, 11.6.1): privates contributed to a new
company (any private's face value; P10 Carnegie Steel, P14 Pyramid Scheme, P23 Bailey Yard, P29
Bankrupt Railroad) and the subsidies of the first stock round (S1-S7 No Subsidy, S9 Free Station
and S16 Resource Subsidy held by the company, S10 +10 and S11 +10/+20 on the city, S12-S15 cash).

Played in s12045's first stock round (three players) where Player 1, with $32 and P3, P5, P12,
P19 and P29, is to act; the cities still offer B8 S4 (none), D6 S12 ($30), D14 S6 (none), E3
S14 ($40), E7 S16 (resource), E23 S9 (free station), G7 S11 (+10/+20), G11 S7 (none), H8 S15
($50) and I13 S10 (+10). P10 is played in s12002 (two players), where it was dealt.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import contribute, give, moves_of, played, position, refused, start

from engine.titles.g18usa.operating import city_id
from engine.titles.g18usa.revenue import stop_value

FIRST_SR = ("s12045", 93)
CARNEGIE_SR = ("s12002", 43)  # Player 1 to act, with P10 and $410; candidates H14, E11, I19


def first_sr(cash: int = 32) -> Any:
    """The first stock round with Player 1 holding `cash` (a richer player can fund a company
    without contributing)."""
    game = position(*FIRST_SR)
    game.players[0].cash = cash
    return game


def fund(game: Any, player: str = "P1") -> None:
    """The winner contributes nothing more: the company is funded."""
    played(game, {"type": "pass", "entity": player, "entity_type": "player"})


# The face values printed on the cards, P3's as the log was played: the site's $30
# (`site_p3_value`, kept in the card tests' positions). The rulebook's list prints $40, the default:
# test_usa_rules_10_p3_face_value plays both readings.
FACE_VALUES = {"P1": 30, "P2": 40, "P3": 30, "P4": 40, "P5": 30, "P6": 30, "P7": 40, "P8": 40, "P9": 40,
               "P10": 40, "P11": 40, "P12": 60, "P13": 60, "P14": 60, "P15": 60, "P16": 60, "P17": 60,
               "P18": 60, "P19": 80, "P20": 80, "P21": 80, "P22": 80, "P23": 80, "P24": 90, "P25": 90,
               "P26": 90, "P27": 90, "P28": 90, "P29": 120, "P30": 120}
CLOSE_ON_CONTRIBUTION = {"P10", "P14", "P29"}  # their cards act once, when the company starts


@pytest.mark.parametrize("card", sorted(FACE_VALUES, key=lambda card: int(card[1:])))
def test_every_private_contributed_counts_its_face_value_and_passes_to_the_company(card: str) -> None:
    game = first_sr()
    give(game, card, game.players[0])
    start(game, "P1", "UP", 201, "B8")
    up = game.corporations["UP"]
    player, treasury = game.players[0].cash, up.cash
    contribute(game, "P1", card)
    value = FACE_VALUES[card]
    assert game.companies[card].value == value
    assert (game.players[0].cash, up.cash) == (player + value, treasury - value)
    assert game.companies[card].owner is up
    assert game.companies[card].closed == (card in CLOSE_ON_CONTRIBUTION)
    assert len(up.trains) == (1 if card == "P29" else 0)  # B8 has a No Subsidy tile


def test_a_contributed_private_lowers_what_the_winner_pays_by_its_face_value() -> None:
    game = first_sr()
    player = game.players[0]
    start(game, "P1", "UP", 201, "B8")
    up = game.corporations["UP"]
    assert player.cash == 32 - 201 and up.cash == 200  # a $100 share price: 2 x $100
    contribute(game, "P1", "P12")
    assert (player.cash, up.cash) == (32 - 201 + 60, 200 - 60)
    assert game.companies["P12"].owner is up and game.owns(up, "P12")  # its powers are the company's now
    refused(game, {"type": "pass", "entity": "P1", "entity_type": "player"},
            "P1 still owes \\$109 more than their cash for UP: contribute private companies first")
    refused(game, {"type": "assign", "entity": "P1", "entity_type": "player", "target": "P28",
                   "target_type": "company"}, "may contribute only their own privates")


@pytest.mark.parametrize(("home", "subsidy", "cash"), [("D6", "S12", 30), ("E3", "S14", 40), ("H8", "S15", 50)])
def test_a_cash_subsidy_pays_part_of_the_winning_bid(home: str, subsidy: str, cash: int) -> None:
    game = first_sr()
    assert int(game.companies[subsidy].ability["cash"]) == cash
    start(game, "P1", "UP", 201, home)
    assert game.players[0].cash == 32 - (201 - cash)
    assert game.corporations["UP"].cash == 200
    assert game.companies[subsidy].closed and home not in game.umap.open_subsidies


def test_s13_is_a_second_30_subsidy() -> None:
    game = first_sr()
    assert give(game, "S13", None).ability["cash"] == game.companies["S12"].ability["cash"] == 30


def test_a_bid_counts_the_cash_subsidy_of_the_home_only() -> None:
    """The appendix's Portland example: the subsidy is cash in hand for starting in that city."""
    game = first_sr()
    most = 32 + 30 + 30 + 60 + 80 + 120  # cash and privates' face value
    played(game, {"type": "bid", "entity": "P1", "entity_type": "player", "corporation": "UP",
                  "price": most + 50})
    place = {"type": "place_token", "entity": "UP", "entity_type": "corporation", "slot": 0}
    cities = {coord: city_id(game, coord, 0) for coord in ("D6", "B8", "H8")}
    assert {choice["hex"] for move in moves_of(game, "place_token", "UP") for choice in move["choices"]} == {"H8"}
    refused(game, {**place, "city": cities["D6"]}, "can pay at most \\$382")
    refused(game, {**place, "city": cities["B8"]}, "can pay at most \\$352")
    played(game, {**place, "city": cities["H8"]})


@pytest.mark.parametrize(("home", "subsidy", "sides"), [("I13", "S10", (10, 10)), ("G7", "S11", (10, 20))])
def test_city_value_subsidies_add_to_every_companys_stop_there(home: str, subsidy: str, sides: tuple[int, int]) -> None:
    game = first_sr()
    node = (home, "city", 0)
    before = {phase: stop_value(game.umap, "ATSF", node, phase) for phase in ("4", "5")}
    start(game, "P1", "UP", 201, home)
    assert [m.source for m in game.board.hexes[home].markers] == [subsidy]
    for corporation in ("ATSF", "UP"):
        assert stop_value(game.umap, corporation, node, "4") == before["4"] + sides[0]
        assert stop_value(game.umap, corporation, node, "5") == before["5"] + sides[1]


@pytest.mark.parametrize(("home", "subsidy"), [("E23", "S9"), ("E7", "S16")])
def test_free_station_and_resource_subsidies_are_held_by_the_company(home: str, subsidy: str) -> None:
    game = first_sr(300)
    start(game, "P1", "UP", 201, home)
    fund(game)
    assert game.owns(game.corporations["UP"], subsidy)


@pytest.mark.parametrize(("home", "subsidy"), [("B8", "S4"), ("D14", "S6"), ("G11", "S7")])
def test_no_subsidy_gives_nothing_and_is_gone_once_the_company_is_funded(home: str, subsidy: str) -> None:
    game = first_sr(300)
    start(game, "P1", "UP", 201, home)
    up = game.corporations["UP"]
    assert (game.players[0].cash, up.cash) == (300 - 201, 200)
    fund(game)
    assert game.companies[subsidy].closed and not up.trains


@pytest.mark.parametrize("subsidy", ["S1", "S2", "S3", "S4", "S5", "S6", "S7"])
def test_each_of_the_seven_no_subsidy_tiles_gives_p29_its_train(subsidy: str) -> None:
    """The seven No Subsidy tiles are alike: each, dealt to B8, gives nothing but P29's train."""
    game = first_sr(300)
    give(game, subsidy, None)
    game.umap.open_subsidies["B8"] = subsidy
    assert game.companies[subsidy].ability["kind"] == "none"
    start(game, "P1", "UP", 201, "B8")
    assert (game.players[0].cash, game.corporations["UP"].cash) == (300 - 201, 200)
    contribute(game, "P1", "P29")
    fund(game)
    assert len(game.corporations["UP"].trains) == 1 and game.companies[subsidy].closed


@pytest.mark.parametrize(("home", "train"), [("B8", True), ("D14", True), ("H8", False), ("I13", False)])
def test_p29_gives_the_next_train_free_in_a_no_subsidy_city_and_closes_either_way(home: str, train: bool) -> None:
    game = first_sr()
    upcoming = game.depot.next_train()
    start(game, "P1", "UP", 201, home)
    contribute(game, "P1", "P29")
    up = game.corporations["UP"]
    assert [t.id for t in up.trains] == ([upcoming.id] if train else [])
    assert game.companies["P29"].closed
    if train:
        assert game.depot.next_train() is not upcoming and upcoming.name == "2"


def test_p29_in_a_resource_subsidy_city_that_has_no_resource_to_give() -> None:
    """The appendix: with every resource private in play the Resource Subsidy is "treated for all
    purposes as a No subsidy tile", so P29 gives its train there."""
    game = first_sr(300)
    game.umap.setup = type(game.umap.setup)(**{**vars(game.umap.setup), "resource_subsidy_resources": ()})
    start(game, "P1", "UP", 201, "E7")
    contribute(game, "P1", "P29")
    assert len(game.corporations["UP"].trains) == 1
    fund(game)
    assert game.companies["S16"].closed  # nothing to lay: it does not hold UP's track step open


def test_p14_counts_its_full_60_and_closes() -> None:
    game = first_sr()
    give(game, "P14", game.players[0])
    assert game.companies["P14"].ability["min_bid"] == 5
    start(game, "P1", "UP", 201, "B8")
    contribute(game, "P1", "P14")
    assert game.players[0].cash == 32 - 201 + 60 and game.corporations["UP"].cash == 200 - 60
    assert game.companies["P14"].closed


@pytest.mark.parametrize(("card", "stations"), [(None, 1), ("P23", 2)])
def test_p23_gives_the_new_company_one_more_station(card: str | None, stations: int) -> None:
    game = first_sr(300)
    if card:
        give(game, card, game.players[0])
    start(game, "P1", "UP", 201, "B8")
    if card:
        contribute(game, "P1", card)
    fund(game)
    assert game.corporations["UP"].token_count == stations


def test_p10_makes_an_untiled_candidate_home_a_metropolis_and_removes_the_others() -> None:
    game = position(*CARNEGIE_SR)
    assert set(game.umap.p10_candidates) == {"H14", "E11", "I19"}
    start(game, "P1", "SR", 201, "H14")
    contribute(game, "P1", "P10")
    assert game.umap.is_metropolis("H14") and game.board.hexes["H14"].tile.name == "X03"
    assert game.umap.p10_candidates == {} and not game.umap.is_metropolis("I19")
    assert not game.board.hexes["I19"].tile_laid
    assert game.companies["P10"].closed


def test_p10_elsewhere_only_removes_the_candidates_and_closes() -> None:
    game = position(*CARNEGIE_SR)
    metropolises = set(game.umap.metropolises)
    start(game, "P1", "SR", 201, "G11")
    contribute(game, "P1", "P10")
    assert game.umap.metropolises == metropolises and game.umap.p10_candidates == {}
    assert game.companies["P10"].closed


def test_without_p10_in_play_its_tiles_are_gone_from_the_start() -> None:
    game = first_sr()
    assert "P10" not in game.companies and game.umap.p10_candidates == {}

"""The 18USA situations other implementations got wrong (design/RULE-EDGE-CASES.md; the
18xx.games issue numbers in the names), each read against the rulebook. Where a section test
already covers one in depth, it is named here and run as it stands; `docs/edge-cases.md` is the
table of both titles' cases and their tests."""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in, snapshot

from engine.core.game import BaseGame
from engine.errors import GameError
from engine.legal import legal_moves

# --- 11.6 and 11.6.1: starting a company, subsidies and contributed privates --------------------
# 109372 at its first stock turn: Portland (C3) offers the $30 subsidy S13, Santa Fe (G11) $40
# and Fargo (B14) $30; New York (D28) none. Player 4 (id 3763) is to act.
FIRST_STOCK_TURN = 74
STARTER = 3763
PORTLAND, SANTA_FE, NEW_YORK = "C3", "G11", "D28"


def first_stock_turn(cash: int, keep_privates: bool) -> BaseGame:
    """The starter with `cash` (and their privates, or none); every other player without money
    or privates, so that nobody else can bid."""
    game = position_in("109372", FIRST_STOCK_TURN)
    usa: Any = game
    for player in game.players:
        player.cash = cash if player.id == STARTER else 0
        for company in usa.companies_of(player):
            if player.id != STARTER or not keep_privates:
                company.closed = True
    return game


def act(game: BaseGame, kind: str, entity: object, **fields: Any) -> None:
    entity_type = "player" if isinstance(entity, int) else "corporation"
    game.process({"type": kind, "entity": entity, "entity_type": entity_type, **fields})


def home_city(game: BaseGame, coord: str) -> str:
    move = next(m for m in legal_moves(game) if m["type"] == "place_token")
    return str(next(c["city"] for c in move["choices"] if c["hex"] == coord))


def home_city_any(game: BaseGame, coord: str) -> str:
    """The city id of `coord` whether or not the legal moves offer it as a home."""
    state = game.board.hexes[coord]
    return f"{state.tile_id}-{state.tile.stop('city', 0).part_index}"


def homes_offered(game: BaseGame) -> set[str]:
    move = next(m for m in legal_moves(game) if m["type"] == "place_token")
    return {c["hex"] for c in move["choices"]}


def refused(game: BaseGame, pattern: str, kind: str, entity: object, **fields: Any) -> None:
    """The move is refused with a message matching `pattern`, and nothing changes."""
    before = snapshot(game)
    with pytest.raises(GameError, match=pattern):
        act(game, kind, entity, **fields)
    assert snapshot(game) == before


def test_7326_portland_30_subsidy_the_appendix_example() -> None:
    """Appendix, Subsidy Tiles, $30: "a player may start a company in Portland at $106
    (resulting in a $53 share price) using $76 in equity from their hand and the $30 city
    subsidy. The new company's treasury would receive $30 from the bank and the $76 in equity
    from the player." """
    game = first_stock_turn(cash=76, keep_privates=False)
    bank = game.bank.cash
    act(game, "bid", STARTER, corporation="NYC", price=106)
    act(game, "place_token", "NYC", city=home_city(game, PORTLAND), slot=0)
    nyc = game.corporations["NYC"]
    assert nyc.president() is game.player(STARTER)  # type: ignore[attr-defined]
    assert game.share_price(nyc) == 53  # type: ignore[attr-defined]
    assert game.player(STARTER).cash == 0  # type: ignore[attr-defined]
    assert nyc.cash == 106
    assert game.bank.cash == bank - 30  # the bank's $30 is the subsidy
    assert PORTLAND not in game.umap.open_subsidies  # type: ignore[attr-defined]


def test_11100_a_cash_subsidy_lets_the_opening_bid_exceed_cash_and_privates() -> None:
    game = first_stock_turn(cash=76, keep_privates=False)
    # The best cash subsidy still open is Santa Fe's $40: $116 may be bid before the home is chosen.
    bid = next(m for m in legal_moves(game) if m["type"] == "bid")
    assert {c["max"] for c in bid["choices"]} == {116}
    act(game, "bid", STARTER, corporation="NYC", price=107)
    # $107 is more than $76 and Portland's $30: only the $40 and $50 cities may be the home.
    assert PORTLAND not in homes_offered(game) and SANTA_FE in homes_offered(game)
    assert NEW_YORK not in homes_offered(game)
    refused(game, r"with the home in C3 they can pay at most \$106", "place_token", "NYC",
            city=home_city_any(game, PORTLAND), slot=0)
    act(game, "place_token", "NYC", city=home_city(game, SANTA_FE), slot=0)
    assert game.player(STARTER).cash == 76 - (107 - 40)  # type: ignore[attr-defined]
    assert game.corporations["NYC"].cash == 2 * 53


def test_9205_a_bid_no_mix_of_cash_privates_and_subsidy_could_fund_is_refused() -> None:
    # $55 and privates worth $280 (P1 30, P3 30, P4 40, P15 60, P30 120), the best open subsidy $40.
    game = first_stock_turn(cash=55, keep_privates=True)
    refused(game, r"can bid at most \$375", "bid", STARTER, corporation="NYC", price=376)
    act(game, "bid", STARTER, corporation="NYC", price=335)
    # Without a subsidy in the home $335 is the most: cash and every private.
    act(game, "place_token", "NYC", city=home_city(game, NEW_YORK), slot=0)
    starter = game.player(STARTER)  # type: ignore[attr-defined]
    assert starter.cash == 55 - 335
    # The winner may not pass while owing more than their cash; they contribute privates.
    refused(game, r"contribute private companies first \(11\.6\)", "pass", STARTER)


def test_7677_11995_privates_contributed_above_the_bid_go_to_the_bank_not_the_player() -> None:
    """11.6: "The player then gives the bank an amount equal to the winning bid minus the private
    companies contributed. The bank then gives the company treasury twice the share price minus
    the combined face value of all private companies given. If this amount is negative, the
    starting treasury is $0." """
    game = first_stock_turn(cash=55, keep_privates=True)
    act(game, "bid", STARTER, corporation="NYC", price=100)
    act(game, "place_token", "NYC", city=home_city(game, NEW_YORK), slot=0)
    bank = game.bank.cash
    act(game, "assign", STARTER, target="P30", target_type="company")  # face value $120
    act(game, "pass", STARTER)  # no more privates: the company is funded
    nyc = game.corporations["NYC"]
    # The player paid nothing for the $100 bid and gets nothing for the $20 over it; the
    # treasury's $100 less $120 is $0.
    assert game.player(STARTER).cash == 55  # type: ignore[attr-defined]
    assert nyc.cash == 0
    assert game.bank.cash == bank  # what the player did not pay the bank kept of the $100 it gave
    assert [c.id for c in game.companies_of(nyc)] == ["P30"]  # type: ignore[attr-defined]


# --- Free Station (S9): a full city, not a Company Town, and a merger -----------------------------
def test_7347_7345_7735_free_station_into_a_full_city() -> None:
    from test_usa_rules_12_3_stations import (
        test_free_station_goes_into_a_full_city_and_takes_a_real_slot_when_one_opens as covered,
    )
    covered()


def test_12318_free_station_not_onto_a_company_town() -> None:
    from test_usa_rules_12_3_stations import (
        test_free_station_not_onto_a_company_town_nor_p20_into_an_open_city as covered,
    )
    covered()


@pytest.mark.parametrize(("extra_holder", "city", "expected"), [
    ("NP", "C17", ["NP", "UP"]),  # the survivor's extra station in the target's full city
    ("B&O", "E11", ["NP"]),  # the target's extra station in the survivor's full city
], ids=["survivor-extra", "target-extra"])
def test_12772_after_a_merger_the_duplicate_station_goes_and_no_extra_slot_is_left(
        extra_holder: str, city: str, expected: list[str]) -> None:
    """14.3: "If this results in two station tokens on the same hex, return one to the company's
    charter." Free Station: the extra station "will immediately fill the new opening". Either
    way the city keeps one station of the merged company in its printed slots and no extra slot.
    s8403 at 283: NP (stations E11 and I13) takes in B&O (C17)."""
    from usa_positions import log_named, replayed

    game = replayed("s8403", 283)
    board = game.board
    if city == "C17":
        board.hexes["C17"].tokens[0][1] = "UP"  # C17's second slot taken: the city is full
    board.add_extra_slot(city, 0, extra_holder)
    game.apply(log_named("s8403")["actions"][283])
    assert board.hexes[city].tokens[0] == expected
    assert len(board.hexes[city].tokens[0]) == board.hexes[city].tile.cities[0].slots
    assert not any(m["type"] == "remove_token" for m in legal_moves(game))


# --- 13: the resource subsidy's lay, one resource lay per hex ---------------------------------------
def test_7590_7568_7647_the_resource_subsidy_lay_is_free_and_outside_the_tile_actions() -> None:
    """Appendix, Resource subsidy: "a free extra track lay in addition to the normal track
    placements"."""
    from test_usa_rules_13_resources import (
        test_13_resource_subsidy_lay_is_free_and_outside_the_tile_actions as covered,
    )
    covered()


def fargo_reaching_b12() -> Any:
    """PRR in Fargo (B14) with track toward B12, a hex printed with coal and oil."""
    from usa_map_helpers import station, usa_map

    umap = usa_map()
    station(umap, "PRR", "B14")
    state, tile = umap.board.hexes["B14"], umap.board.tiles["57"]
    rotation = next(r for r in umap.board.legal_rotations(state, tile) if 1 in tile.exits(r))  # 1: toward B12
    umap.board.place_tile("B14", tile, "57-0", rotation)
    return umap


def test_11546_resource_tokens_come_with_the_one_yellow_lay_of_a_hex() -> None:
    """13: "Resource tokens may only be placed on hexes which have the respective resource type
    as part of a yellow tile lay action in that hex"; B10 and B12 show two resources, "either or
    both resources may be placed there" — in that one lay. A hex with a resource token takes no
    other: no second yellow lay, and its upgrades keep its token and add none."""
    from usa_map_helpers import lay, rotation_for, turn

    from engine.titles.g18usa.track import check_lay

    both = fargo_reaching_b12()
    rotation = rotation_for(both, "B12", "8coaloil", {4})
    with pytest.raises(GameError, match="no oil token"):
        check_lay(both, turn(companies=("P1",)), "PRR", "B12", "8coaloil-0", rotation)
    assert lay(both, turn(companies=("P1", "P3")), "B12", "8coaloil", rotation).nature == "resource"

    umap = fargo_reaching_b12()
    lay(umap, turn(companies=("P1",)), "B12", "8coal", rotation_for(umap, "B12", "8coal", {4}))
    for tile in ("8oil", "9oil", "8coaloil"):
        with pytest.raises(GameError, match="tiles that can: none"):
            check_lay(umap, turn(companies=("P1", "P3")), "PRR", "B12", f"{tile}-0", 0)
    # Phase 3: the coal tile's upgrades are the green coal tiles only, never coal and oil.
    green = turn(phase="3", companies=("P1", "P3"))
    with pytest.raises(GameError, match="tiles that can: 80coal, 81coal, 82coal, 83coal$"):
        check_lay(umap, green, "PRR", "B12", "80coaloil-0", 0)
    assert check_lay(umap, green, "PRR", "B12", "80coal-0", rotation_for(umap, "B12", "80coal", {4})).cost == 0


# --- 12.4: runs ---------------------------------------------------------------------------------------
def test_8599_a_route_never_skips_the_only_city_with_the_companys_station_even_with_p19() -> None:
    from test_usa_rules_12_4_runs import (
        test_p19_switcher_drops_a_blocked_city_but_never_the_only_own_station as covered,
    )
    covered()


def test_7648_8776_8777_p17s_route_bonus_once_per_company_run_not_per_train() -> None:
    from test_usa_rules_12_4_runs import test_p17_bonus_goes_to_one_run_only as covered
    covered()


def test_7648_one_upgrade_a_train_and_each_upgrade_on_one_train_a_run() -> None:
    """12.7: "Each round a Pullman car is assigned to one train"; P19 and P30 go on one train a
    run too, and a train carries one of them."""
    from test_usa_rules_12_7_one_upgrade_a_train import (
        test_a_run_whose_train_was_handed_two_upgrades_is_refused_and_changes_nothing as covered,
    )
    covered()


def test_6909_at_most_two_runs_to_mexico() -> None:
    """12.4.1: "A company cannot have more than two routes which start or end in Mexico." """
    from test_usa_rules_12_4_runs import (
        test_12_4_1_mexico_and_the_ports_end_a_run_and_only_two_runs_may_use_mexico as covered,
    )
    covered()


# --- 12.6 with P13: a prompt in the middle of the buy-trains step -------------------------------------
@pytest.mark.parametrize("answer", [
    {"type": "choose", "choice": "2 Train"},
    {"type": "pass"},
], ids=["keeps-a-2", "declines"])
def test_9999_p13s_prompt_at_a_purchase_leaves_the_buyer_in_its_buy_trains_step(answer: dict[str, Any]) -> None:
    """12.6: "Multiple trains may be bought in a single turn ... Trains must be bought one at a
    time and any phase changes that occur take effect immediately." s8503 at 515: IC is buying
    trains; it buys the first 4-train, which rusts the 2-trains while SP holds P13 and two of
    them. Once SP has answered, IC is still buying: it buys a second 4."""
    game = position_in("s8503", 515)
    ic = game.corporations["IC"]
    ic.cash = 1000
    act(game, "buy_train", "IC", train="4-0", price=400)
    assert game.phase.name == "4"
    assert {(m["type"], m["entity"]) for m in legal_moves(game)} == {("choose", "SP"), ("pass", "SP")}
    act(game, answer["type"], "SP", **{k: v for k, v in answer.items() if k != "type"})
    assert game.round.name == "Operating Round"
    assert ("buy_train", "IC") in {(m["type"], m["entity"]) for m in legal_moves(game)}
    act(game, "buy_train", "IC", train="4-1", price=400)
    assert sorted(t.name for t in ic.trains) == ["2+", "4", "4"] and ic.cash == 200


# --- 13.4 bridges; P26 rural junctions and P27 Company Towns --------------------------------------
def river_city_with_a_rural_junction(options: frozenset[str]) -> Any:
    """C17, a river city hex with a bridge site, holding P26's rural junction X07."""
    from usa_map_helpers import usa_map

    umap = usa_map(options=options)
    umap.board.place_tile("C17", umap.board.tiles["X07"], "X07-0", 0)
    return umap


def test_7458_no_bridge_on_a_rural_junction_by_the_rulebook() -> None:
    """13.4: "Bridge tokens may only be placed in cities which have a bridge icon printed on the
    board" (the icon is "in the middle of the station token slot"); a rural junction is no city
    (12.1, 12.3: it has no slot) and 13.4 names the Company Town alone as the exception."""
    from usa_map_helpers import PRINTED

    from engine.titles.g18usa.stations import check_bridge

    umap = river_city_with_a_rural_junction(PRINTED)
    with pytest.raises(GameError, match=r"the rural junction in C17 is not one \(13.4\)"):
        check_bridge(umap, "PRR", "P2", "C17", None)
    check_bridge(umap, "PRR", "P2", "E15", None)  # a river city takes one


def test_7458_site_reading_a_bridge_on_a_rural_junction() -> None:
    """With `site_junction_bridges` (the site's P26: "may receive a bridge") it is allowed and
    the junction earns $10 more."""
    from usa_map_helpers import SITE

    from engine.titles.g18usa.revenue import stop_value
    from engine.titles.g18usa.stations import check_bridge, place_bridge

    umap = river_city_with_a_rural_junction(SITE)
    check_bridge(umap, "PRR", "P2", "C17", None)
    place_bridge(umap, "P2", "C17")
    assert stop_value(umap, "PRR", ("C17", "town", 0), "2") == 10 + 10


def test_7514_a_bridge_on_a_company_town_on_a_river_hex() -> None:
    """13.4: "If P27 Company Town is placed on a river hex with a $10 difficult terrain cost, a
    bridge token may be placed on the Company Town tile." 109372 at 264: P22 bridges the
    Company Town on F18 (a river hex without a printed city)."""
    from usa_positions import logged_action

    game = position_in("109372", 264)
    usa: Any = game
    assert game.board.hexes["F18"].tile.kind == "company_town" and not usa.umap.is_city_hex("F18")
    game.process(logged_action("109372", 264))
    assert [marker.source for marker in game.board.hexes["F18"].markers_of("bridge")] == ["P22"]


def test_7476_a_rural_junction_may_go_next_to_a_metropolis_a_company_town_may_not() -> None:
    """P27's card keeps the Company Town away from a metropolis; P26's says nothing of it.
    H20 touches Atlanta (H22) and New Orleans (I19), both metropolises in seed 109372."""
    from usa_map_helpers import station, turn, usa_map

    from engine.titles.g18usa.track import check_lay

    umap = usa_map()
    station(umap, "PRR", "H22")
    assert umap.is_metropolis("H22") and umap.is_metropolis("I19")
    junction = check_lay(umap, turn(companies=("P26",)), "P26", "H20", "X07-0", 0)
    assert (junction.cost, junction.nature) == (0, "P26")
    with pytest.raises(GameError, match="may not be next to the metropolis"):
        check_lay(umap, turn(companies=("P27",)), "P27", "H20", "X20-0", 0)


def test_7403_a_company_town_on_an_empty_city_hex() -> None:
    """P27: on an empty hex "with or without a printed city". s8600 at 208: SR's P27 puts X22 on
    Dallas-Fort Worth (H14), an empty city hex that is no metropolis there; SR's station goes
    in beside the neutral token."""
    from usa_positions import logged_action

    game = position_in("s8600", 208)
    usa: Any = game
    assert usa.umap.is_city_hex("H14") and not game.board.hexes["H14"].tile_laid
    game.process(logged_action("s8600", 208))
    assert game.board.hexes["H14"].tile.name == "X22"
    assert game.board.hexes["H14"].tokens == [["(neutral)", "SR"]]


def test_7430_a_company_towns_full_slots_never_block_another_companys_route() -> None:
    from usa_positions import logged_action

    game = position_in("s8600", 208)
    game.process(logged_action("s8600", 208))
    assert all(slot is not None for slot in game.board.hexes["H14"].tokens[0])
    assert not any(game.board.city_is_blocked_for("H14", 0, corp) for corp in game.corporations)


def test_7430_the_neutral_token_never_closes_the_company_town() -> None:
    from test_usa_rules_12_2_track import (
        test_a_company_town_holds_a_neutral_token_and_never_closes_its_city as covered,
    )
    covered()


# --- 12.2: New York's stubs, Boston, double-slot cities, Denver ---------------------------------------
@pytest.mark.parametrize(("coord", "stub", "new_york_city"), [("D26", 4, 1), ("E27", 3, 0)])
def test_12441_12843_new_yorks_neighbours_take_yellow_track_only_along_the_printed_stub(
        coord: str, stub: int, new_york_city: int) -> None:
    """The map prints a track stub from each of D26 and E27 into New York: a tile laid there
    keeps it (12.2.2: "all of the previous track segments must be retained")."""
    from usa_map_helpers import station, turn, usa_map

    from engine.titles.g18usa.track import check_lay

    umap = usa_map()
    station(umap, "PRR", "D28", new_york_city)  # New York's city whose track leads to `coord`
    board = umap.board
    for name in ("7", "8", "9"):
        tile = board.tiles[name]
        legal = []
        for rotation in range(6):
            try:
                check_lay(umap, turn(), "PRR", coord, f"{name}-0", rotation)
            except GameError as refusal:
                assert "use the printed stubs" in str(refusal) or "not connected" in str(refusal)
                continue
            legal.append(rotation)
        assert legal and all(stub in tile.exits(rotation) for rotation in legal), (name, legal)


def test_7529_illegal_tiles_in_boston_are_refused() -> None:
    """Boston (C29) is a plain white city: a green tile before phase 3, plain track, a Company
    Town without P27 are refused there (test_usa_map_logs' probes, at a real game's start)."""
    from test_usa_map_logs import PROBES
    from test_usa_map_logs import (
        test_illegal_probes_at_the_start_of_fixture_109372_are_refused as covered,
    )

    for probe in PROBES:
        if probe[2] == "C29":
            covered(probe)


def test_7492_an_empty_city_takes_a_one_slot_yellow_city_before_phase_5_and_a_green_one_after() -> None:
    """12.2.4: "During Phases 5-8, when placing a new tile on an empty city hex, a green city
    tile must be used instead of a yellow city tile. This is treated as a yellow track
    placement"; before that the tile on an empty city is yellow, with one slot (12.2.1)."""
    from usa_map_helpers import station, turn, usa_map

    from engine.titles.g18usa.track import check_lay

    umap = usa_map()
    station(umap, "PRR", "E23")
    for phase in ("2", "3", "4"):
        with pytest.raises(GameError, match="tiles that can: 5, 6, 57$"):
            check_lay(umap, turn(phase=phase), "PRR", "E23", "14-0", 0)
    assert all(umap.board.tiles[name].cities[0].slots == 1 for name in ("5", "6", "57"))
    with pytest.raises(GameError, match="tiles that can: 14, 15, 619"):
        check_lay(umap, turn(phase="5"), "PRR", "E23", "5-0", 0)
    green = check_lay(umap, turn(phase="5"), "PRR", "E23", "14-0", 0)
    assert not green.upgrade and green.cost == 0 and umap.board.tiles["14"].cities[0].slots == 2


def test_7531_the_denver_orientation_tile_is_laid_after_the_normal_lays() -> None:
    from test_usa_rules_12_2_denver import (
        test_the_denver_lay_is_open_after_both_tile_actions as covered,
    )

    covered()


# --- 12.10 exports, 12.6 and 12.7 trains ---------------------------------------------------------------
@pytest.mark.parametrize("two_plus_left", [True, False], ids=["2+-exported", "none-left"])
def test_7331_phase_3_begins_at_the_end_of_the_second_operating_round(two_plus_left: bool) -> None:
    """12.10: "At the end of the second operating round, export all remaining 2+ trains and
    begin Phase 3; do not export a 3-train. ... If no 2+ trains remain, advance to Phase 3".
    s8400 at 174: MKT's pass ends the game's second operating round; nobody bought a 2+."""
    from usa_positions import logged_action

    game = position_in("s8400", 174)
    assert game.phase.name == "2" and game.depot.run_length()[:2] == [["2+", 4], ["3", 12]]
    if not two_plus_left:
        while (train := game.depot.next_train()) is not None and train.name == "2+":
            game.depot.take(train)  # as if bought
    game.process(logged_action("s8400", 174))
    assert game.phase.name == "3"
    assert game.depot.run_length()[0] == ["3", 12]  # no 3-train exported


def test_12360_exports_go_on_once_only_8_trains_are_left_and_they_never_run_out() -> None:
    """2.1 and 12.6: the 8-trains are unlimited; 12.10: "export the next available train card at
    the end of each operating round"; 16: the first 8-train exported ends the game."""
    from engine.log import new_game
    from engine.titles.g18usa.phases import end_of_operating_round

    game: Any = new_game("18USA", [{"id": n, "name": f"P{n}"} for n in range(1, 5)], 7, []).state
    game.depot.retire("2")  # the unlimited 2-trains leave after the first operating round
    while (train := game.depot.next_train()) is not None and train.name != "8":
        game.depot.take(train)
    game.operating_rounds_done = 8
    for _ in range(3):
        end_of_operating_round(game)
        following = game.depot.next_train()
        assert following is not None and following.name == "8"
    assert game.log.count("A 8-train is exported") == 3
    assert game.final_turn is not None  # the first one set off the game end


def test_12360_pullmans_are_unlimited() -> None:
    """12.7: "The number of Pullman cars is unlimited." s8400 at 503: SLSF, in phase 5 and its
    buy-trains step, buys a Pullman as the fiftieth."""
    from usa_positions import logged_action

    game: Any = position_in("s8400", 503)
    game.pullmans_made = 49
    move = next(m for m in legal_moves(game) if m["type"] == "buy_train")
    assert {"train": "P-49", "price": 200, "from": "depot"} in move["choices"]
    game.process({**logged_action("s8400", 503), "train": "P-49"})
    assert [t.name for t in game.corporations["SLSF"].trains] == ["P"]


def test_7097_a_pullman_bought_before_the_run_runs_in_it() -> None:
    """12.7: "Pullman cars may be purchased from the bank for $200 prior to the 'run trains
    step' of a company's turn, and then used during the same operating round." 109372 at 978:
    TP (a 5-train, $293) buys one before running."""
    from usa_positions import logged_action

    game = position_in("109372", 978)
    tp = game.corporations["TP"]
    game.process(logged_action("109372", 978))
    assert sorted(t.name for t in tp.trains) == ["5", "P"] and tp.cash == 93
    assert {m["type"] for m in legal_moves(game)} >= {"run_routes"}


def test_7097_a_pullman_bought_in_the_buy_trains_step_leaves_the_step_open() -> None:
    """12.7: "They may also be purchased during the 'buy trains step'." s8400 at 503: SLSF buys
    a Pullman there and may still buy trains."""
    from usa_positions import logged_action

    game = position_in("s8400", 503)
    game.process(logged_action("s8400", 503))
    slsf = game.corporations["SLSF"]
    assert [t.name for t in slsf.trains] == ["P"] and slsf.cash == 130
    assert ("buy_train", "SLSF") in {(m["type"], m["entity"]) for m in legal_moves(game)}


def test_7370_obsolete_trains_do_not_count_against_the_train_limit() -> None:
    from test_usa_rules_06_3_train_limit import (
        test_obsolete_trains_do_not_count_toward_the_limit as covered,
    )

    covered()


# --- 14: mergers and acquisitions ------------------------------------------------------------------
SOLD = 1183  # s8505: MKT has bought DRG (in acquisition) for $30; this pass settles the sale


def test_8065_a_sold_companys_shares_in_the_open_market_are_paid_nothing() -> None:
    """14.2.2: "calculate the per-share price by dividing the purchase price ... by the size of
    the company" and "Players who own shares in the purchased company return each share to the
    bank and receive the per-share amount"; short sellers pay it (14.2.1). The open market holds
    7 of DRG's 10 shares: the bank keeps their $21."""
    from usa_positions import logged_action

    game = position_in("s8505", SOLD)
    drg = game.corporations["DRG"]
    assert sum(drg.units(s.percent) for s in drg.shares_of(game.pool)) == 7
    cash = {player.id: player.cash for player in game.players}
    bank = game.bank.cash
    game.process(logged_action("s8505", SOLD))
    gained = {player.id: player.cash - cash[player.id] for player in game.players}
    # $30 / 10 = $3 a share: P5's 6 shares +$18, P1's two shorts -$6, P4's one -$3.
    assert gained == {"P1": -6, "P2": 0, "P3": 0, "P4": -3, "P5": 18}
    assert game.bank.cash == bank - 18 + 9


def test_7689_a_sold_company_leaves_play_reset_and_the_round_goes_on() -> None:
    """14.2: the buyer takes "the purchased company's trains, station markers, private companies,
    treasury, and loans"; 14: "Companies that leave play due to mergers or sales may be re-opened
    later as a new company"."""
    from usa_positions import logged_action

    game: Any = position_in("s8505", SOLD)
    game.process(logged_action("s8505", SOLD))
    drg = game.corporations["DRG"]
    assert "DRG" not in game.market.position
    assert (drg.cash, drg.trains, game.loans.count("DRG"), drg.ipoed) == (0, [], 0, False)
    assert game.board.station_slots("DRG") == [] and game.companies_of(drg) == []
    assert [(s.percent, s.owner) for s in drg.shares] == [(100, drg)]  # a fresh charter
    assert game.round.name == "Acquisition Round"
    assert {m["type"] for m in legal_moves(game)} == {"assign", "pass"}  # the next company's offer


def test_11992_the_sold_companys_private_abilities_count_toward_the_most_a_buyer_may_bid() -> None:
    """P15 (Western Land Grant) held by the company for sale lets every bidder go $100 over
    their limit (the card): DRG, for friendly sale, can be offered only with it counted."""
    from test_usa_rules_14_merger_acquisition import (
        test_14_2_3_p15_lets_a_friendly_sale_be_offered_that_no_buyer_could_otherwise_pay as covered,
    )

    covered()

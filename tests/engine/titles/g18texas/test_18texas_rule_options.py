"""Both readings of every 18Texas rule option: the printed rulebook (default) and the reference
site's reading (`site_*`).  Options also tested elsewhere are cross-referenced."""

from __future__ import annotations

from dataclasses import replace

import pytest
from engine_helpers import (
    Setup,
    choices_of,
    corp,
    make_game,
    moves_of,
    or_game,
    play,
    player,
    refuse,
    rotation_for,
    skip_to_step,
    ssw_network,
    step_label,
)

from engine.core.most_earnings import best_runs
from engine.core.steps.route import below_the_most
from engine.errors import RunsBelowTheMost
from engine.log import Game, new_game, resolve_options
from engine.titles.g18texas.game import G18Texas

TESTED = {
    "site_auction_bids", "site_y_city_terrain", "site_train_prices", "site_tile_6_upgrades",
    "site_sell_after_dividend", "site_sticky_routes", "site_ign_unconnected", "site_emergency_sale_prices",
    # Both readings in test_18texas_rule_05_privates (site_private_station) and
    # test_18texas_rule_12_6_trains (site_emergency_company_trains, site_discard_order).
    "site_private_station", "site_emergency_company_trains", "site_discard_order",
    # Both readings in test_18texas_rule_05_privates and test_18texas_rule_12_2_track
    # (site_private_cards), test_18texas_rule_12_6_trains (site_bankrupt_cash),
    # test_18texas_rule_12_2_track (site_home_track), test_18texas_rule_11_stock_round
    # (site_repeat_sale_prices).
    "site_private_cards", "site_bankrupt_cash", "site_home_track", "site_repeat_sale_prices",
    "site_any_runs",
}


def test_every_rule_option_has_tests_for_both_readings() -> None:
    assert set(G18Texas.RULE_OPTIONS) == TESTED
    assert resolve_options(G18Texas, ["site_rules"]) == sorted(TESTED)
    assert new_game("18Texas", [{"id": k} for k in "ABC"], 1).state.options == set()


# --- site_auction_bids (also test_18texas_rule_10_auction) --------------------------------------------
@pytest.mark.parametrize(("options", "accepted"), [([], False), (["site_auction_bids"], True)])
def test_option_auction_bids_multiple_of_five(options: list[str], accepted: bool) -> None:
    game = make_game(3, options=options)
    if accepted:
        play(game, "bid", "A", company="JG", price=201)
    else:
        refuse(game, "bid", "A", r"bids are multiples of \$5 \(rule 10\); \$201 is not", company="JG", price=201)


# --- site_y_city_terrain -------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "cost"), [([], 0), (["site_y_city_terrain"], 60)])
def test_option_first_511_on_dallas_fort_worth_pays_terrain(options: list[str], cost: int) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("T&P", "122,0,4", {"B": 30}, operated=False)
        setup.cash("T&P", 300)
        setup.phase("3")
    game = or_game(options=options, company="T&P", prepare=prepare)
    bank = game.state.bank.cash
    play(game, "lay_tile", "T&P", hex="D9", tile="511-0", rotation=1)
    assert corp(game, "T&P").cash == 300 - cost and game.state.bank.cash == bank + cost
    paid = f"; pays ${cost} for the terrain (water)" if cost else ""
    assert f"T&P lays tile 511 in D9 (rotation 1){paid}" in game.state.log


@pytest.mark.parametrize(("options", "cost"), [([], 0), (["site_y_city_terrain"], 60)])
def test_option_grrrc_511_in_houston_pays_terrain(options: list[str], cost: int) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"B": 30}, operated=False)
        setup.cash("MP", 300)
        setup.phase("3")
    game = or_game(options=options, company="MP", prepare=prepare)
    play(game, "lay_tile", "GRRRC", hex="I14", tile="511-0", rotation=1)
    assert corp(game, "MP").cash == 300 - cost
    paid = f"; pays ${cost} for the terrain (water)" if cost else ""
    assert game.state.log[-1] == f"MP lays tile 511 in I14 (rotation 1) with Galveston and Red River Railway Company{paid}"


@pytest.mark.parametrize("options", [[], ["site_y_city_terrain"]])
def test_option_later_upgrades_of_dallas_fort_worth_are_free_either_way(options: list[str]) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("T&P", "122,0,4", {"B": 30}, operated=False)
        setup.cash("T&P", 300)
        setup.lay("D9", "511-0", 1)
        setup.phase("5")
        setup.state.close_all_companies()
    game = or_game(options=options, company="T&P", prepare=prepare)
    play(game, "lay_tile", "T&P", hex="D9", tile="216-0", rotation=_rotation(game, "D9", "216"))
    assert corp(game, "T&P").cash == 300


def _rotation(game: Game, coord: str, tile: str) -> int:
    for choice in choices_of(game, "lay_tile"):
        if choice["hex"] == coord:
            return next(t["rotations"][0] for t in choice["tiles"] if t["tile"].startswith(tile + "-"))
    raise AssertionError(f"no {tile} offered in {coord}")


# --- site_train_prices (also test_18texas_rule_12_6_trains) ---------------------------------------------
@pytest.mark.parametrize(("options", "accepted"), [([], False), (["site_train_prices"], True)])
def test_option_train_from_a_company_with_another_president(options: list[str], accepted: bool) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30})
        setup.give_train("MP", "2")
        setup.give_train("SP", "2")
    game = or_game(options=options, prepare=prepare)
    skip_to_step(game, "buy_train")
    if accepted:
        play(game, "buy_train", "SP", train="2-0", price=1)
    else:
        refuse(game, "buy_train", "SP", r"MP has another president, so its 2-train is sold at face value",
               train="2-0", price=1)


# --- site_tile_6_upgrades -------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "accepted"), [([], False), (["site_tile_6_upgrades"], True)])
def test_option_tile_6_to_619(options: list[str], accepted: bool) -> None:
    # Lufkin (F15) holds a tile 6 (sides 3 and 1) on SSW's route (direct setup).
    game = ssw_network(phase="3", step="track", options=options)
    rotation = rotation_for(game, "619", {0, 1, 3, 5})
    offered = {t["tile"].split("-")[0] for c in choices_of(game, "lay_tile") if c["hex"] == "F15" for t in c["tiles"]}
    if accepted:
        assert offered == {"14", "15", "619"}
        play(game, "lay_tile", "SSW", hex="F15", tile="619-0", rotation=rotation)
    else:
        assert offered == {"14", "15"}
        refuse(game, "lay_tile", "SSW", r"tile 619 cannot be laid in F15; tiles that can: 14, 15", hex="F15",
               tile="619-0", rotation=rotation)


# --- site_sell_after_dividend ---------------------------------------------------------------------
@pytest.mark.parametrize(("options", "sellable"), [([], False), (["site_sell_after_dividend"], True)])
def test_option_selling_the_active_company_in_its_first_turn(options: list[str], sellable: bool) -> None:
    """In SP's first turn, A (SP's president, 30%) must find money for SP's train."""
    def prepare(setup: Setup) -> None:
        setup.cash("SP", 0)
        setup.cash("A", 0)
    game = or_game(options=options, prepare=prepare)
    skip_to_step(game, "buy_train")
    if sellable:
        assert [c["percent"] for c in choices_of(game, "sell_shares")] == [10]
        play(game, "sell_shares", "A", shares=["SP_3"], percent=10)
        play(game, "buy_train", "SP", train="2-0", price=100)
    else:
        assert [m["type"] for m in game.legal_moves()] == ["bankrupt"]
        refuse(game, "sell_shares", "A", r"SP has not yet completed an operating turn, so its shares cannot be "
               r"sold \(11.1\)", shares=["SP_3"], percent=10)


# --- site_sticky_routes ---------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "forced"), [([], False), (["site_sticky_routes"], True)])
def test_option_route_lost_by_merging_dallas_and_fort_worth(options: list[str], forced: bool) -> None:
    """T&P has no track but the printed D9 (Fort Worth-Dallas): a route.  Its 511 merges the two
    cities into one, and with no other track T&P has no route any more."""
    def prepare(setup: Setup) -> None:
        setup.company("T&P", "122,0,4", {"B": 30}, operated=False)
        setup.cash("T&P", 300)
        setup.phase("3")
    game = or_game(options=options, company="T&P", prepare=prepare)
    play(game, "lay_tile", "T&P", hex="D9", tile="511-0", rotation=1)
    assert step_label(game) == "buy_train"
    if forced:
        assert not moves_of(game, "pass")
        refuse(game, "pass", "T&P", r"T&P has a route but no train, so it must buy a train")
    else:
        play(game, "pass", "T&P")


# --- site_ign_unconnected (also test_18texas_rule_05_privates) -----------------------------------------
@pytest.mark.parametrize(("options", "accepted"), [([], False), (["site_ign_unconnected"], True)])
def test_option_ign_tiles_unconnected(options: list[str], accepted: bool) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"D": 30}, operated=False)
        setup.phase("3")
    game = or_game(4, options=options, company="MP", prepare=prepare)
    away = rotation_for(game, "9", {1, 4})  # D13: track not facing E12
    if accepted:
        play(game, "lay_tile", "IGN", hex="D13", tile="9-0", rotation=away)
        play(game, "pass", "MP")
    else:
        refuse(game, "lay_tile", "IGN", r"the two International–Great Northern Railroad tiles must connect",
               hex="D13", tile="9-0", rotation=away)


# --- site_emergency_sale_prices (test_18texas_rule_12_6_trains has both readings) ------------------------
def test_option_emergency_sale_prices_is_a_known_option() -> None:
    assert "site_emergency_sale_prices" in G18Texas.RULE_OPTIONS
    game = or_game(options=["site_emergency_sale_prices"])
    assert game.state.emergency_sales_at_start_price() is False
    assert or_game().state.emergency_sales_at_start_price() is True
    assert player(game, "A").cash >= 0


# --- site_any_runs --------------------------------------------------------------------------------
# SSW's two 2-trains can earn $90: Marshall-Shreveport ($50) and Marshall-Lufkin ($40).
SHREVEPORT_RUN = {"train": "2-0", "connections": [["D15", "D17", "D19"]]}
LUFKIN_RUN = {"train": "2-1", "connections": [["D15", "E16", "F15"]]}
THE_MOST = r"SSW's runs earn \$(\d+), but its trains can earn \$90, no more \(2-0: D15-D19 \$50; 2-1: D15-F15 \$40\); " \
           r"a company must run for its highest earnings \(12.4\)"


@pytest.mark.parametrize(("options", "held"), [([], True), (["site_any_runs"], False)])
@pytest.mark.parametrize("routes", [[], [SHREVEPORT_RUN]], ids=["no runs", "one run"])
def test_option_runs_worth_less_than_the_most(options: list[str], held: bool, routes: list[dict]) -> None:
    game = ssw_network(options=options)
    declared = 50 if routes else 0
    if held:
        error = refuse(game, "run_routes", "SSW", THE_MOST.replace(r"(\d+)", str(declared)), routes=routes)
        # The refusal carries the optimizer's runs for a front end to offer (/run with no routes).
        assert isinstance(error, RunsBelowTheMost) and error.best.total == 90 and error.best.proven_optimal
        play(game, "run_routes", "SSW", routes=list(error.best.to_action()["routes"]))
        assert game.state.round.turn.revenue == 90
    else:
        play(game, "run_routes", "SSW", routes=routes)
        assert game.state.round.turn.revenue == declared


@pytest.mark.parametrize("options", [[], ["site_any_runs"]])
def test_option_runs_worth_the_most_stand_either_way(options: list[str]) -> None:
    game = ssw_network(options=options)
    play(game, "run_routes", "SSW", routes=[LUFKIN_RUN, SHREVEPORT_RUN])
    assert game.state.round.turn.revenue == 90


def test_option_unproven_best_accepts_runs_worth_what_it_found() -> None:
    """Printed reading, but the optimizer gets no time (a budget of 0 s): it proves nothing, and
    what its one quick pass found is a floor. Runs below it are refused naming it; runs worth it
    stand although nothing proved them the most."""
    game = ssw_network()
    game.state.most_earnings_budget = 0.0
    game.state.most_earnings_method = "model"
    found = best_runs(game.state, "SSW", time_budget=0.0, method="model")
    assert (found.total, found.proven_optimal) == (90, False)
    refuse(game, "run_routes", "SSW", r"can earn at least \$90", routes=[SHREVEPORT_RUN])
    play(game, "run_routes", "SSW", routes=[SHREVEPORT_RUN, LUFKIN_RUN])
    assert game.state.round.turn.revenue == 90


def test_option_unproven_best_is_named_as_a_floor() -> None:
    """Runs below an unproven answer are refused naming it as what the trains earn at least."""
    best = best_runs(ssw_network().state, "SSW")
    unproven = replace(best, proven_optimal=False)
    refusal = below_the_most("SSW", 50, unproven)
    assert refusal is not None and refusal.best is unproven
    assert str(refusal) == ("SSW's runs earn $50, but its trains can earn at least $90 (2-0: D15-D19 $50; 2-1: "
                            "D15-F15 $40; the best the route optimizer found in its time, so runs worth $90 or "
                            "more are accepted); a company must run for its highest earnings (12.4)")
    assert below_the_most("SSW", 90, unproven) is None and below_the_most("SSW", 90, best) is None
    assert below_the_most("SSW", 40, best) is not None

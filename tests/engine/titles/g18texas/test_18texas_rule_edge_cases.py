"""The 18Texas situations other implementations got wrong (design/RULE-EDGE-CASES.md), each read
against the rulebook.  Where a section test already covers one in depth, it is named here."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    choices_of,
    corp,
    moves_of,
    or_game,
    play,
    player,
    refuse,
    rotation_for,
    skip_to_step,
    step_label,
)

from engine.log import Game

# --- #6611: plain yellow track is limited by the manifest ------------------------------------------


def test_6611_plain_yellow_track_counts_follow_the_manifest() -> None:
    board = or_game().state.board
    assert {name: board.tiles[name].count for name in ("7", "8", "9")} == {"7": 5, "8": 18, "9": 18}


def test_6611_the_last_copy_of_a_plain_tile_can_be_laid_and_then_there_is_none() -> None:
    def prepare(setup: Setup) -> None:
        # Direct setup: 17 copies of tile 9 lie on the board away from Houston.
        far = ["N3", "N5", "M4", "M6", "L1", "L3", "L5", "L7", "K2", "K4", "K6", "K8", "J3", "J7", "J9",
               "I6", "I8"]
        for copy, coord in enumerate(far):
            setup.lay(coord, f"9-{copy}", 0)
    game = or_game(prepare=prepare)
    play(game, "lay_tile", "SP", hex="I12", tile="9-17", rotation=1)
    assert game.state.board.free_copy("9") is None
    # SP has a second lay, but no 9 is left anywhere.
    assert all(not t["tile"].startswith("9-") for c in choices_of(game, "lay_tile") for t in c["tiles"])


# --- #6546: two yellow tiles in every phase -----------------------------------------------------------
@pytest.mark.parametrize("phase", ["2", "3", "4", "5", "6", "8"])
def test_6546_two_yellow_tiles_in_every_phase(phase: str) -> None:
    def prepare(setup: Setup) -> None:
        setup.phase(phase)
        if phase in ("5", "6", "8"):
            setup.state.close_all_companies()
    game = or_game(prepare=prepare)
    play(game, "lay_tile", "SP", hex="I12", tile="9-0", rotation=1)  # sides 1 and 4
    assert step_label(game) == "track"
    play(game, "lay_tile", "SP", hex="I10", tile="9-1", rotation=1)
    assert step_label(game) != "track"


# --- #6296: Dallas/Fort Worth's $60 terrain ---------------------------------------------------------
def test_6296_dallas_fort_worth_has_its_60_dollar_water_cost_in_the_data() -> None:
    board = or_game().state.board
    assert board.hexes["D9"].hexdef.terrain_cost == 60 and board.hexes["I14"].hexdef.terrain_cost == 60
    # Which readings charge it is the site_y_city_terrain option (test_18texas_rule_options); later
    # upgrades are free in both (test_option_later_upgrades_of_dallas_fort_worth_are_free_either_way).


# --- #6179: no reuse of track inside junction tiles: test_18texas_rule_12_4_runs ----------------------------
def test_6179_no_reuse_of_the_junction_of_a_tile() -> None:
    from test_18texas_rule_12_4_runs import (
        test_12_1_no_track_segment_twice_not_even_at_a_junction as covered,
    )
    covered()


# --- #6246, #6792: emergency train purchase and rule 12.6 word by word ---------------------------
def emergency(sp_cash: int, a_cash: int, mp_president: str = "A") -> Game:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {mp_president: 30})
        setup.give_train("MP", "2")
        setup.cash("SP", sp_cash)
        setup.cash("A", a_cash)
    game = or_game(prepare=prepare)
    skip_to_step(game, "buy_train")
    return game


def test_6246_the_company_first_uses_its_own_money_then_the_president_his() -> None:
    game = emergency(sp_cash=60, a_cash=500)
    play(game, "buy_train", "SP", train="2-1", price=100)
    # "The company first uses its own money ... Then the president uses their own cash."
    assert corp(game, "SP").cash == 0 and player(game, "A").cash == 500 + 10 - 40


def test_6792_with_the_resources_it_may_buy_from_another_company_without_them_only_from_the_bank() -> None:
    # "If it does have the resources, it may arrange to buy a train from another company."
    game = emergency(sp_cash=100, a_cash=0)
    assert {c.get("from") for c in choices_of(game, "buy_train")} == {"depot", "MP"}
    play(game, "buy_train", "SP", train="2-0", price=1)
    # "Otherwise, it must buy the cheapest train from the bank": the president's cash does not
    # count as the company's resources.
    game = emergency(sp_cash=99, a_cash=500)
    assert {c.get("from") for c in choices_of(game, "buy_train")} == {"depot"}
    refuse(game, "buy_train", "SP", r"in this compulsory purchase the train must come from the bank \(12.6\)", train="2-0",
           price=1)


def test_6792_treasury_stock_is_useless_at_this_time() -> None:
    game = emergency(sp_cash=0, a_cash=0)
    # SP holds 50% of its own shares, but the issue step comes after buying trains: the only
    # way to pay is the president's money and sales.
    assert {m["type"] for m in game.legal_moves()} <= {"buy_train", "sell_shares", "bankrupt"}
    refuse(game, "sell_shares", "SP", r"only SP's president may sell shares to pay for its train",
           shares=["SP_5"], percent=10)


# --- #6306: private company powers and phases --------------------------------------------------------
@pytest.mark.parametrize(("phase", "usable"), [("2", False), ("3", True), ("4", True)])
def test_6306_grrrc_power_in_phases_3_and_4(phase: str, usable: bool) -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"B": 30}, operated=False)
        setup.phase(phase)
    game = or_game(company="MP", prepare=prepare)
    offered = [m for m in moves_of(game, "lay_tile") if m["entity"] == "GRRRC"]
    assert bool(offered) == usable


def test_6306_powers_end_with_the_privates_in_phase_5() -> None:
    def prepare(setup: Setup) -> None:
        setup.company("MP", "122,0,4", {"D": 30}, operated=False)
        setup.phase("5")
        setup.state.close_all_companies()
    game = or_game(4, company="MP", prepare=prepare)
    assert [m for m in moves_of(game, "lay_tile") if m["entity"] in ("GRRRC", "IGN")] == []
    refuse(game, "lay_tile", "IGN", r"International–Great Northern Railroad has closed", hex="D13", tile="9-0",
           rotation=0)


def test_6306_ign_hexes_are_open_to_everyone_once_it_has_closed() -> None:
    def prepare(setup: Setup) -> None:
        game_ = setup.game
        setup.company("SSW", "122,0,4", {"B": 30}, operated=False)
        setup.lay("D15", "57-0", rotation_for(game_, "57", {1, 4}))
        setup.phase("5")
        setup.state.close_all_companies()
    game = or_game(4, company="SSW", prepare=prepare)
    play(game, "lay_tile", "SSW", hex="D13", tile="9-0", rotation=rotation_for(game, "9", {1, 4}))


# --- #8825, #9467: discarded trains leave the game: test_18texas_rule_12_6_trains ------------------------
def test_8825_discarded_trains_leave_the_game() -> None:
    from test_18texas_rule_12_6_trains import test_12_6_discarded_trains_leave_the_game as covered
    covered()


# --- #11351: map details -----------------------------------------------------------------------
def test_11351_lafayette_h19_connects_to_h17_and_g18() -> None:
    state = or_game().state.board.hexes["H19"]
    assert state.exits() == {1, 2}
    assert {state.hexdef.neighbors[e] for e in state.exits()} == {"H17", "G18"}


def test_11351_corpus_christi_is_worth_30_then_50_and_takes_no_station() -> None:
    game = or_game()
    stop = game.state.board.hexes["M8"].tile.stops[0]
    assert stop.revenue_in(("yellow",)) == 30 and stop.revenue_in(("yellow", "green", "brown")) == 50
    assert "M8" in game.state.no_token_hexes()


def test_11351_h5_has_no_terrain_cost() -> None:
    assert or_game().state.board.hexes["H5"].hexdef.terrain_cost == 0

"""18Texas standing orders (programmed actions) as 18xx.games runs them: share pass and buy
shares, each reason that ends one, round-change pruning, undo. Positions are the reference game
65394 at a logged action; the moves after it are played as at the table (`Game.play`), so every
automatic move below is worked out by the engine. See docs/rules.md, "Standing orders"."""

from __future__ import annotations

import pytest
from program_positions import (
    TEXAS,
    TEXAS_P1,
    TEXAS_P2,
    TEXAS_P3,
    TEXAS_P4,
    at,
    play,
    play_logged,
    program_of,
    short,
)

from engine.core.programs import BuyShares, SharePass

P1, P2, P3, P4 = TEXAS_P1, TEXAS_P2, TEXAS_P3, TEXAS_P4


def _round(game: object) -> str:
    return game.state.round_title()  # type: ignore[attr-defined]


def test_buy_until_float_buys_one_share_on_its_owners_turn_and_ends_when_floated() -> None:
    game = at(TEXAS, 147)  # Stock Round 5: Player 1 holds 30% of MKT
    assert play(game, "program_buy_shares", P1, corporation="MKT", until_condition="float") == []
    # Player 2's share pass sets off a chain: the players' programs in turn order, round the table
    # twice; Player 1's buy floats MKT, and at Player 1's next turn the program ends.
    assert short(play(game, "program_share_pass", P2)) == [
        ("pass", P2), ("pass", P3), ("pass", P4), ("buy_shares", P1, "MKT_3"),
        ("pass", P2), ("pass", P3), ("pass", P4), ("program_disable", P1, "MKT is floated")]
    assert game.state.corporations["MKT"].floated
    assert program_of(game, P1) is None
    assert [p.name for p in game.state.acting_players()] == ["Player 1"]  # who decides by hand


def test_buy_a_count_from_the_market_then_pass_automatically() -> None:
    game = at(TEXAS, 392)  # Stock Round 7: Player 4 holds one SAA share; SAA_7 is in the market
    assert play(game, "program_buy_shares", P4, corporation="SAA", until_condition=2, from_market=True,
                auto_pass_after=True) == []
    assert short(play_logged(game, TEXAS, 393)) == [("pass", P2), ("pass", P3), ("buy_shares", P4, "SAA_7")]
    made = play_logged(game, TEXAS, 394)
    assert short(made) == [("pass", P2), ("pass", P3),
                           ("program_disable", P4, "2 share(s) bought in SAA, end condition met"),
                           ("program_share_pass", P4), ("pass", P4)]
    assert made[3]["unconditional"] is False and made[3]["indefinite"] is False
    assert _round(game) == "Operating Round 7.1"


def test_share_pass_stops_for_a_sale_newer_than_itself_and_not_for_an_older_one() -> None:
    game = at(TEXAS, 67)  # Stock Round 3, Player 3 to act
    play(game, "program_share_pass", P1)
    play_logged(game, TEXAS, 67)  # Player 3 sells MP_6
    play_logged(game, TEXAS, 68)
    assert short(play_logged(game, TEXAS, 69)) == [("program_disable", P1, "Shares were sold")]
    assert program_of(game, P1) is None

    game = at(TEXAS, 68)  # the same, with the program set after the sale
    play(game, "program_share_pass", P1)
    play_logged(game, TEXAS, 68)
    assert short(play_logged(game, TEXAS, 69)) == [("pass", P1)]


def test_share_pass_stops_for_a_company_started_but_a_buy_program_does_not() -> None:
    game = at(TEXAS, 4)  # the auction's end: Player 2's Jay Gould par is not a stock-round dealing
    play(game, "program_share_pass", P3)
    for index in (4, 5, 6):  # Player 1 starts SAA in Stock Round 1
        play_logged(game, TEXAS, index)
    assert short(play_logged(game, TEXAS, 7)) == [("program_disable", P3, "Corporation SAA parred")]

    game = at(TEXAS, 4)
    play(game, "program_buy_shares", P3, corporation="MP", until_condition=2)
    for index in (4, 5, 6):
        play_logged(game, TEXAS, index)
    assert short(play_logged(game, TEXAS, 7)) == [("buy_shares", P3, "MP_3")]


def test_share_pass_stops_when_an_opponent_buys_a_company_its_owner_presides_without_half() -> None:
    game = at(TEXAS, 11)  # Player 1 presides SAA with 30%
    play(game, "program_share_pass", P1)
    play_logged(game, TEXAS, 11)  # Player 3 buys SP: Player 1 is not its president
    assert short(play_logged(game, TEXAS, 12)) == [
        ("program_disable", P1, "Player 4 bought on corporation SAA and is unsecure")]


def test_share_pass_goes_on_when_the_company_bought_is_secure() -> None:
    game = at(TEXAS, 141)  # Player 4 presides T&P with 60%: secure (50% in 18Texas)
    assert short(play_logged(game, TEXAS, 141)) == [("pass", P4)]  # Player 4 sets a share pass
    for index in (142, 143):  # Player 1 buys T&P_6, Player 2 buys SAA
        play_logged(game, TEXAS, index)
    assert short(play_logged(game, TEXAS, 144)) == [("pass", P4)]  # Player 3 buys T&P_7


def test_buy_program_goes_on_when_an_opponent_buys_the_company_it_buys() -> None:
    # No SAA certificate larger than a share is outside Player 1's hands, so Player 4's purchase
    # cannot take the presidency: the program buys on.
    game = at(TEXAS, 12)
    assert isinstance(program_of(game, P1), BuyShares)
    assert short(play_logged(game, TEXAS, 12)) == [("buy_shares", P1, "SAA_3")]


def test_buy_program_stops_when_an_opponent_buys_another_company_its_owner_presides_unsecure() -> None:
    game = at(TEXAS, 11)
    play(game, "program_buy_shares", P1, corporation="SP", until_condition=3)
    play_logged(game, TEXAS, 11)
    assert short(play_logged(game, TEXAS, 12)) == [
        ("program_disable", P1, "Player 4 bought on corporation SAA and is unsecure")]


def test_buy_program_stops_when_nothing_of_its_company_can_be_bought_from_its_source() -> None:
    game = at(TEXAS, 68)  # Player 3 sold MP this round, and may not buy it back
    assert short(play(game, "program_buy_shares", P3, corporation="MP", until_condition=3)) == [
        ("program_disable", P3, "Cannot buy MP from Treasury")]
    assert short(play(game, "program_buy_shares", P3, corporation="SAA", until_condition=3, from_market=True)) == [
        ("program_disable", P3, "Cannot buy SAA from market")]  # no SAA share in the market


def test_unconditional_share_pass_passes_whatever_the_others_do() -> None:
    game = at(TEXAS, 74)
    play(game, "program_share_pass", P1, unconditional=True)
    for index in (74, 75, 76):  # Player 4 sells MP, SAA and SP
        assert play_logged(game, TEXAS, index) == []
    assert short(play_logged(game, TEXAS, 77)) == [("pass", P1)]  # and starts T&P


def test_a_player_the_engine_skips_does_not_run_their_program() -> None:
    game = at(TEXAS, 15)  # Player 1, with a buy program, has no money left
    assert isinstance(program_of(game, P1), BuyShares)
    assert play_logged(game, TEXAS, 15) == []
    assert "Player 1 has no valid actions and passes" in game.state.log
    assert isinstance(program_of(game, P1), BuyShares)


def test_programs_end_with_the_stock_round_unless_indefinite() -> None:
    game = at(TEXAS, 85)  # Players 2 and 3 have share passes, Player 4 a buy program
    before = len(game.state.programs.notices)
    assert short(play(game, "program_share_pass", P1, indefinite=True)) == [("pass", P1), ("pass", P2), ("pass", P3)]
    assert _round(game) == "Operating Round 3.1"
    assert set(game.state.programs.programs) == {str(P1)}
    removed = [n for n in game.state.programs.notices[before:] if n.event == "removed"]
    assert {(n.owner, n.program.kind) for n in removed} == {
        (str(P2), "program_share_pass"), (str(P3), "program_share_pass"), (str(P4), "program_buy_shares")}
    assert removed[0].text().endswith("removed due to round change")
    index = 86
    made: list = []
    while _round(game).startswith("Operating"):
        made = play_logged(game, TEXAS, index)
        index += 1
    # The indefinite share pass waited through the operating round and passes in the next one.
    assert _round(game) == "Stock Round 4" and short(made) == [("pass", P1)]
    assert isinstance(program_of(game, P1), SharePass)


def test_a_share_pass_set_in_an_operating_round_passes_in_the_next_stock_round() -> None:
    game = at(TEXAS, 130)  # Operating Round 3.2
    assert _round(game).startswith("Operating")
    play(game, "program_share_pass", P1)
    made = []
    index = 130
    while _round(game).startswith("Operating"):
        made = play_logged(game, TEXAS, index)
        index += 1
    assert short(made) == [("pass", P1)]


def test_undoing_a_program_takes_back_the_program_and_the_moves_it_made() -> None:
    game = at(TEXAS, 81)  # Player 3 to act; Player 4 has a buy program for T&P
    assert short(play(game, "program_share_pass", P3)) == [("pass", P3), ("buy_shares", P4, "T&P_1")]
    play(game, "undo", P3)
    assert program_of(game, P3) is None
    assert [p.name for p in game.state.acting_players()] == ["Player 3"]
    assert game.state.corporations["T&P"].percent_owned_by(game.state.players[3]) == 20


def test_undoing_a_move_takes_back_the_chain_it_set_off_and_the_next_move_sets_off_its_own() -> None:
    game = at(TEXAS, 84)
    assert short(play_logged(game, TEXAS, 84)) == [("pass", P2), ("pass", P3), ("buy_shares", P4, "T&P_3")]
    play(game, "undo", P1)
    assert [p.name for p in game.state.acting_players()] == ["Player 1"]
    assert game.state.corporations["T&P"].percent_owned_by(game.state.players[3]) == 40
    # Instead of passing, Player 1 sells: the share passes of Players 2 and 3 were set before it.
    sold = play(game, "sell_shares", P1, shares=["MP_4"], percent=10)
    passed = play(game, "pass", P1)
    assert short(sold + passed) == [("program_disable", P2, "Shares were sold")]


@pytest.mark.parametrize("flags", [{}, {"unconditional": True, "indefinite": True}])
def test_a_program_replaces_the_players_program_and_a_disable_removes_it(flags: dict) -> None:
    game = at(TEXAS, 79)
    assert isinstance(program_of(game, P4), BuyShares)  # set at action 78
    play(game, "program_share_pass", P4, **flags)
    program = program_of(game, P4)
    assert isinstance(program, SharePass) and program.indefinite == bool(flags)
    play(game, "program_disable", P4, reason="user", original_type="program_share_pass")
    assert program_of(game, P4) is None
    assert game.state.programs.notices[-1].text() == (
        f"Disabled programmed action '{program.describe()}' due to 'user'")


def _absent_pass(game: object) -> dict | None:
    from engine.automatic import pass_for_absent

    state = game.state  # type: ignore[attr-defined]
    return pass_for_absent(state, {p.key for p in state.players})


def test_an_absent_player_is_passed_for_only_where_a_pass_is_the_only_sensible_choice() -> None:
    assert _absent_pass(at(TEXAS, 0)) is None  # the auction: every player must bid (rule 10)
    assert _absent_pass(at(TEXAS, 8)) == {"type": "pass", "entity": P3, "entity_type": "player"}  # a stock turn
    operating = at(TEXAS, 19)
    assert operating.state.round_title().startswith("Operating") and _absent_pass(operating) is None
    from engine.automatic import pass_for_absent

    assert pass_for_absent(at(TEXAS, 8).state, {str(P1)}) is None  # Player 3 is not absent

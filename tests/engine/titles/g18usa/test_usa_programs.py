"""18USA standing orders as 18xx.games runs them: the stock round's programs under the 1817
family's reading (60% secure; loans, redemptions and shorts stop a share pass), the merger pass
of the merger and acquisition rounds, the site's pass for a bidder who cannot reach the minimum
bid, round-change pruning, and a chain across a round change. Positions are the reference game
109372 at a logged action; later moves are played as at the table (`Game.play`)."""

from __future__ import annotations

from program_positions import (
    USA,
    USA_P1,
    USA_P2,
    USA_P3,
    USA_P4,
    at,
    play,
    play_logged,
    program_of,
    short,
)

from engine.core.programs import MergerPass, SharePass

P1, P2, P3, P4 = USA_P1, USA_P2, USA_P3, USA_P4
MKT_LINES = {"MR": ["B&O", "MILW", "MKT"], "AR": ["B&O", "MILW", "MKT"]}


def _acting(game: object) -> list[str]:
    return [p.name for p in game.state.acting_players()]  # type: ignore[attr-defined]


def test_a_bidder_who_cannot_reach_the_minimum_bid_passes_without_a_program() -> None:
    game = at(USA, 116)  # UP's auction: its home station is placed next
    assert short(play_logged(game, USA, 116)) == [("pass", P2)]
    assert game.state.programs.programs == {}


def test_merger_pass_passes_for_the_companies_it_lists_in_the_merger_round() -> None:
    game = at(USA, 220)  # Merger and Conversion Round 1.1, MKT (Player 3's) to act
    assert short(play(game, "program_merger_pass", P3, corporations_by_round=MKT_LINES, options=[])) == [
        ("pass", "MKT")]
    assert short(play_logged(game, USA, 222)) == [("pass", "MILW")]  # after UP's pass
    assert short(play_logged(game, USA, 223)) == [("pass", "B&O")]  # after MP's pass


def test_merger_pass_waits_at_a_company_it_does_not_list() -> None:
    game = at(USA, 220)
    assert play(game, "program_merger_pass", P3, corporations_by_round={"MR": ["B&O"]}, options=[]) == []
    assert _acting(game) == ["Player 3"] and isinstance(program_of(game, P3), MergerPass)


def test_merger_pass_declines_offering_the_companies_it_lists_in_the_acquisition_round() -> None:
    game = at(USA, 420)  # Acquisition Round 2.1; Player 3's program lists B&O, MILW, MKT, N&W
    assert short(play_logged(game, USA, 420)) == [("pass", P3), ("pass", P3)]
    assert short(play_logged(game, USA, 421)) == [("pass", P3)]


def test_unless_others_act_ends_a_merger_pass_once_a_company_has_merged_this_round() -> None:
    lines = {"MR": ["B&O", "MILW", "MKT", "N&W"], "AR": []}
    game = at(USA, 529)  # Merger and Conversion Round 2.2: PRR and TP have merged; N&W to act
    # Right after it is set, the program still passes (the chain of its own action).
    assert short(play(game, "program_merger_pass", P3, corporations_by_round=lines,
                      options=["disable_others"])) == [("pass", "N&W")]
    game = at(USA, 523)  # set before TP's merger: the next time Player 3's company is asked
    play(game, "program_merger_pass", P3, corporations_by_round=lines, options=["disable_others"])
    for index in range(523, 528):
        assert play_logged(game, USA, index) == []
    assert short(play_logged(game, USA, 528)) == [
        ("program_disable", P3, "Other players have acted and requested to stop")]


def test_unless_others_act_counts_a_chat_message_as_a_later_action() -> None:
    game = at(USA, 529)  # N&W to act; the program does not list it
    assert play(game, "program_merger_pass", P3, corporations_by_round={"MR": ["MKT"]},
                options=["disable_others"]) == []
    assert short(play(game, "message", P1, message="your turn")) == [
        ("program_disable", P3, "Other players have acted and requested to stop")]


def test_a_president_under_sixty_percent_is_not_secure() -> None:
    game = at(USA, 1120)  # Player 3 presides B&O with 50%
    play(game, "program_share_pass", P3)
    for index in (1120, 1121):  # Player 1 buys B&O; Player 2 sells
        play_logged(game, USA, index)
    assert short(play_logged(game, USA, 1122)) == [
        ("program_disable", P3, "Player 1 bought on corporation B&O and is unsecure")]


def test_a_president_with_sixty_percent_is_secure() -> None:
    game = at(USA, 869)  # Stock Round 4 (order P4, P1, P2, P3): Player 3 presides B&O with 60%
    play(game, "program_share_pass", P3)
    assert play_logged(game, USA, 869) == []  # Player 4 buys B&O
    assert play(game, "pass", P1) == []
    assert short(play(game, "pass", P2)) == [("pass", P3)]


def test_a_company_redeeming_a_share_stops_a_share_pass() -> None:
    game = at(USA, 902)  # TP (Player 2's) took a loan before the program; it then buys its own share
    play(game, "program_share_pass", P3)
    assert short(play_logged(game, USA, 902)) == [("program_disable", P3, "TP redeemed a share.")]


def test_a_company_taking_a_loan_stops_a_share_pass_before_its_redemption() -> None:
    game = at(USA, 1173)  # Player 1's ATSF takes four loans, then buys its own shares
    play(game, "program_share_pass", P3)
    for index in range(1173, 1178):
        assert play_logged(game, USA, index) == []
    assert short(play_logged(game, USA, 1178)) == [("program_disable", P3, "ATSF took a loan")]


def test_a_short_sale_stops_a_share_pass() -> None:
    game = at(USA, 894)
    play(game, "program_share_pass", P3)
    for index in (894, 895):  # Player 1 sells TP short, then buys UP
        play_logged(game, USA, index)
    assert short(play_logged(game, USA, 896)) == [("program_disable", P3, "Short bought")]


def test_a_buy_program_passes_for_the_winner_of_an_auction_once_passing_is_offered() -> None:
    game = at(USA, 104)  # Player 2 is about to win SR's auction
    play(game, "program_buy_shares", P2, corporation="B&O", until_condition=1)
    assert play_logged(game, USA, 104) == []  # the winner owes more than their cash: no pass yet
    # Contributing P27 covers it; the start counts as this turn's purchase, so the program passes
    # and Player 2 keeps their other private.
    assert short(play_logged(game, USA, 105)) == [("pass", P2)]
    assert game.state.companies["P2"].owner is game.state.players[1]


def test_a_share_pass_does_not_pass_while_its_owner_forms_a_company() -> None:
    game = at(USA, 104)
    play(game, "program_share_pass", P2)
    play_logged(game, USA, 104)
    assert play_logged(game, USA, 105) == []
    assert _acting(game) == ["Player 2"]


def test_programs_of_several_players_fire_in_turn_order_across_a_round_change() -> None:
    game = at(USA, 858)  # Acquisition Round 3.2, the last before Stock Round 4 (order P4, P1, P2, P3)
    for player in (P4, P1, P3):
        assert play(game, "program_share_pass", player) == []  # set in the round before a stock round
    # Player 2 declines to offer SR: the acquisition round ends, and in the stock round the share
    # passes act in turn order until Player 2, who has no program left.
    made = play(game, "program_merger_pass", P2, corporations_by_round={"AR": ["SR"]}, options=[])
    assert short(made) == [("pass", P2), ("pass", P4), ("pass", P1)]
    assert game.state.round_title() == "Stock Round 4" and _acting(game) == ["Player 2"]
    assert program_of(game, P2) is None and isinstance(program_of(game, P3), SharePass)


def test_round_changes_drop_what_the_next_round_does_not_keep() -> None:
    game = at(USA, 217)  # Merger and Conversion Round 1.1
    play(game, "program_share_pass", P1)  # set in the wrong round: kept until the next change
    assert isinstance(program_of(game, P1), SharePass)
    for index in range(217, 225):
        play_logged(game, USA, index)
    assert game.state.round_title() == "Operating Round 1.2"
    assert game.state.programs.programs == {}
    removed = [(n.owner, n.program.kind) for n in game.state.programs.notices if n.event == "removed"][-3:]
    # The share pass went when the acquisition round began; the merger passes when it ended.
    assert removed == [(str(P1), "program_share_pass"), (str(P3), "program_merger_pass"),
                       (str(P4), "program_merger_pass")]


def test_a_merger_pass_set_in_a_stock_round_is_gone_at_its_end() -> None:
    game = at(USA, 305)  # Stock Round 2
    play(game, "program_merger_pass", P1, corporations_by_round={"MR": ["SP"]}, options=[])
    assert isinstance(program_of(game, P1), MergerPass)
    for index in range(305, 309):
        play_logged(game, USA, index)
    assert game.state.round_title().startswith("Operating") and program_of(game, P1) is None


def test_a_merger_pass_replaces_a_share_pass() -> None:
    game = at(USA, 281)  # Player 1 set a share pass at 280
    assert isinstance(program_of(game, P1), SharePass)
    play_logged(game, USA, 281)
    assert isinstance(program_of(game, P1), MergerPass)


def _absent_pass(index: int) -> dict | None:
    from engine.automatic import pass_for_absent

    state = at(USA, index).state
    return pass_for_absent(state, {p.key for p in state.players})


def test_an_absent_player_is_passed_for_where_a_pass_declines_nothing_that_costs_money() -> None:
    assert _absent_pass(0) == {"type": "pass", "entity": P1, "entity_type": "player"}  # the private auction
    assert _absent_pass(103) == {"type": "pass", "entity": P3, "entity_type": "player"}  # leave SR's auction
    assert _absent_pass(105) is None  # the winner contributes privates: their decision
    assert _absent_pass(150) is None  # an operating turn: the company's
    assert _absent_pass(220) == {"type": "pass", "entity": "MKT", "entity_type": "corporation"}  # merger round
    assert _absent_pass(420) == {"type": "pass", "entity": P4, "entity_type": "player"}  # not offering KCS

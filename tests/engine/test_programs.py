"""Standing orders: the actions that set them, their names, the reasons no logged game reaches,
and the replay that works out the logs' automatic moves (`load_game(recompute=True)`,
`stationmaster replay --recompute-programs`)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from program_positions import (
    TEXAS,
    TEXAS_P1,
    TEXAS_P2,
    TEXAS_P3,
    TEXAS_P4,
    USA,
    at,
    log_of,
    play,
    short,
)

from bot.cli import main
from engine.core.entities import Corporation, Player, Share
from engine.core.program_stock import StockSituation, buy_moves, interference, presidency_threat
from engine.core.programs import BuyShares, MergerPass, SharePass
from engine.errors import AutomaticMovesDiffer, GameError
from engine.legal import is_offered
from engine.log import load_game


# --- the actions ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("fields", "message"), [
    ({"type": "program_buy_shares", "until_condition": 2}, "name the company with corporation"),
    ({"type": "program_buy_shares", "corporation": "SP", "until_condition": "half"}, "until_condition"),
    ({"type": "program_buy_shares", "corporation": "XX", "until_condition": 2}, "there is no company 'XX'"),
    ({"type": "program_share_pass", "unconditional": "yes"}, "unconditional is true or false"),
    ({"type": "program_share_pass", "entity_type": "corporation", "entity": "SP"}, "belongs to a player"),
    ({"type": "program_disable"}, "give the reason as text"),
    ({"type": "program_share_pass", "entity": 99}, "there is no player 99"),
])
def test_a_malformed_program_is_refused_and_changes_nothing(fields: dict, message: str) -> None:
    game = at(TEXAS, 30)
    before = copy.deepcopy(game.state.programs)
    action = {"entity": TEXAS_P1, "entity_type": "player", "id": 500, **fields}
    with pytest.raises(GameError, match=message):
        game.play(action)
    assert game.state.programs == before and "auto_actions" not in action


def test_a_program_is_taken_from_any_player_at_any_time_and_leaves_the_turn_alone() -> None:
    game = at(TEXAS, 30)  # an operating round: SAA to act
    acting = game.state.acting_players()
    action = {"type": "program_share_pass", "entity": TEXAS_P2, "entity_type": "player"}
    assert is_offered(game.state, action)
    assert play(game, "program_share_pass", TEXAS_P2) == []
    assert game.state.acting_players() == acting and isinstance(game.state.programs.of(str(TEXAS_P2)), SharePass)
    play(game, "program_disable", TEXAS_P3, reason="user")  # Player 3 has none: nothing happens
    assert game.state.programs.of(str(TEXAS_P3)) is None


def test_a_finished_game_takes_no_program() -> None:
    game = load_game(log_of(TEXAS))
    assert game.finished
    with pytest.raises(GameError, match="the game is over"):
        play(game, "program_share_pass", TEXAS_P1)


def test_programs_are_named_as_the_site_names_them() -> None:
    common = {"owner": "1", "action_id": 1, "created_at": 1, "serial": 1}
    assert SharePass(**common).describe() == "Pass in Stock Round"
    assert SharePass(**common, unconditional=True, indefinite=True).describe() == (
        "Pass in Stock Round, unconditionally, indefinitely")
    assert BuyShares(**common, corporation="SAA").describe() == "Buy SAA from IPO until floated"
    assert BuyShares(**common, corporation="SSW", until=5, from_market=True, auto_pass_after=True).describe() == (
        "Buy SSW from market until 5 shares, then auto pass")
    merger = MergerPass(**common, by_round=(("AR", ("NYC", "PRR")), ("MR", ())), disable_others=True)
    assert merger.describe() == "Pass on mergers in AR (NYC, PRR) and MR (none), unless someone else acts"


def test_automatic_moves_are_stored_in_the_site_form() -> None:
    game = at(TEXAS, 81)
    action = {"type": "program_share_pass", "entity": TEXAS_P3, "entity_type": "player", "id": 90,
              "created_at": 1640463000, "unconditional": False, "indefinite": False}
    made = game.play(action)
    assert action["auto_actions"] == made == [
        {"type": "pass", "entity": TEXAS_P3, "entity_type": "player", "created_at": 1640463000},
        {"type": "buy_shares", "entity": TEXAS_P4, "entity_type": "player", "shares": ["T&P_1"], "percent": 10,
         "created_at": 1640463000}]
    with pytest.raises(GameError, match="automatic moves are the game's to make"):
        game.play({"type": "pass", "entity": TEXAS_P1, "auto_actions": [{"type": "pass"}]})


# --- reasons no reference game reaches -------------------------------------------------------------
def _company() -> tuple[Corporation, Player, Player]:
    owner, buyer = Player(id=1, name="Ann"), Player(id=2, name="Bob")
    corporation = Corporation(id="XX", share_percent=10)
    corporation.shares = [Share("XX_0", corporation, 20, True, owner), Share("XX_1", corporation, 10, False, owner),
                          Share("XX_2", corporation, 20, False, buyer), Share("XX_3", corporation, 10, False, corporation),
                          Share("XX_4", corporation, 10, False, buyer)]
    return corporation, owner, buyer


def test_a_larger_certificate_outside_the_owners_hands_stops_a_buy_program_when_an_opponent_buys() -> None:
    corporation, owner, buyer = _company()
    share = corporation.shares[3]
    # Ann at 30% + 10% is not secure, and Bob's 30% with a 20% certificate would pass her 40%.
    assert presidency_threat(corporation, owner, buyer, share, 50) == (
        "Bob has bought, shares exist that could allow them to gain presidency")
    assert presidency_threat(corporation, owner, buyer, share, 30) is None  # she would be past secure
    corporation.shares[2].owner = owner
    assert presidency_threat(corporation, owner, buyer, share, 50) is None  # she holds every larger one


def _situation(player: Player, must_sell: bool = False) -> StockSituation:
    return StockSituation(player, frozenset({"buy_shares", "pass"}), normal_pass=True, bought=False,
                          must_sell=must_sell, may_buy=lambda share: True)


def test_a_player_who_must_sell_stops_a_conditional_program() -> None:
    game = at(TEXAS, 68)
    player = game.state.players[0]
    program = SharePass(owner=player.key, action_id=1, created_at=1, serial=1)
    assert interference(game.state, program, _situation(player, must_sell=True), None) == "Player 1 must sell shares"


def test_shares_of_different_sizes_stop_a_buy_program() -> None:
    state = at(TEXAS, 68).state
    player = state.players[2]
    ssw = state.corporations["SSW"]
    for share in ssw.shares[1:3]:
        state.ledger.move(share, state.pool)
    ssw.shares[2].percent = 20  # a certificate of another size (none exists in 18Texas or 18USA)
    program = BuyShares(owner=player.key, action_id=None, created_at=None, serial=1, corporation="SSW",
                        until=3, from_market=True)
    assert short(buy_moves(state, program, _situation(player))) == [
        ("program_disable", player.id, "Shares of different sizes exist, cannot auto buy SSW from market")]


# --- working out the logs' automatic moves ----------------------------------------------------------
@pytest.mark.parametrize(("path", "moves"), [(TEXAS, 46), (USA, 51)])
def test_every_recorded_automatic_move_is_worked_out_again(path: Path, moves: int, capsys: pytest.CaptureFixture) -> None:
    assert main(["replay", "--recompute-programs", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["finished"] and summary["automatic_moves_reproduced"] == moves
    assert summary["result"] == {str(k): v for k, v in log_of(path)["result"].items()}


def test_the_first_action_whose_automatic_moves_differ_is_named(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture) -> None:
    data = log_of(TEXAS)
    data["actions"][148]["auto_actions"][-1]["reason"] = "MKT is not floated"
    with pytest.raises(AutomaticMovesDiffer) as caught:
        load_game(data, recompute=True)
    assert caught.value.index == 148
    assert caught.value.expected[-1]["reason"] == "MKT is not floated"
    assert caught.value.got[-1] == {"type": "program_disable", "entity": TEXAS_P1, "entity_type": "player",
                                    "reason": "MKT is floated"}
    load_game(data)  # replayed as recorded, the log is followed as it stands
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(data))
    assert main(["replay", "--recompute-programs", str(path)]) == 1
    assert "action 148 (id 157, program_share_pass): its automatic moves differ" in capsys.readouterr().err


def test_a_recorded_move_the_engine_would_not_make_is_reported() -> None:
    data = log_of(TEXAS)
    del data["actions"][85]["auto_actions"][2]  # Player 3's pass, which the engine makes
    with pytest.raises(AutomaticMovesDiffer, match=r"action 85 \(id 94"):
        load_game(data, recompute=True)

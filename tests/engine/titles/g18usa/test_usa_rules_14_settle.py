"""18USA rules 11.7, 12.7, 12.9 and 14.2 as company sales settle, at positions of logged games
where the site showed its reading (each replay passing these positions matches the site's trace).
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from usa_logs import LOGS, read_log
from usa_tracecheck import move_kinds, start

from engine.errors import GameError
from engine.legal import legal_moves


@cache
def _walk(log_name: str, stops: tuple[int, ...]) -> dict[int, Any]:
    """The game after the first n actions of the log, for each n of `stops` (one replay)."""
    path = next(path for path, _ in LOGS if path.stem.endswith(log_name))
    log = read_log(path)
    game = start(log)
    found = {}
    for index, action in enumerate(log["actions"][:max(stops)]):
        game.apply(action)
        if index + 1 in stops:
            found[index + 1] = copy.deepcopy(game)
    return found


REAL_STOPS = (903, 1156, 1284, 1351)
S8602_STOPS = (1237, 1240)


def real_game(actions: int) -> Any:
    return copy.deepcopy(_walk("109372", REAL_STOPS)[actions])


def s8602(actions: int) -> Any:
    return copy.deepcopy(_walk("s8602", S8602_STOPS)[actions])


def action_of(log_name: str, index: int) -> dict[str, Any]:
    path = next(path for path, _ in LOGS if path.stem.endswith(log_name))
    action: dict[str, Any] = read_log(path)["actions"][index]
    return action


def test_11_7_after_buying_its_shares_a_company_keeps_the_turn_only_to_scrap_its_pullman() -> None:
    # 109372 1155: TP (with a Pullman, one loan short of its most) buys three of its shares
    game = real_game(1156)
    moves = legal_moves(game)
    assert {(m["type"], m["entity"]) for m in moves} == {("scrap_train", "TP"), ("pass", 1463)}
    with pytest.raises(GameError, match="may only scrap a train now"):
        game.apply({"type": "take_loan", "entity": "TP", "entity_type": "corporation"})
    # 902: TP, without a Pullman, bought its share and Player 2's turn ended there
    assert game.player(1463) not in real_game(903).acting_players()


def test_12_9_a_pullman_to_scrap_alone_does_not_hold_the_repay_step() -> None:
    # 109372 1350: SR took loans this round (no repaying) and is at its most: it is not asked
    game = real_game(1351)
    assert game.round.name == "Merger and Conversion Round"


def test_12_7_a_company_with_two_pullmans_discards_trains_until_one_is_left() -> None:
    # s8602 1230: DRG buys NP and has two Pullmans; it discarded both 8-trains, within the limit
    game = s8602(1237)
    drg = game.corporations["DRG"]
    assert sorted(t.name for t in drg.trains) == ["P", "P"] and len(drg.trains) <= game.train_limit(drg)
    assert move_kinds(game) == {"discard_train"}
    game.apply(action_of("s8602", 1237))
    assert move_kinds(game) != {"discard_train"}


def test_14_2_friendly_sales_follow_the_operating_order_as_the_round_began() -> None:
    # s8602 1239: DRG's acquired loans move it below MILW; MILW is still offered first
    game = s8602(1240)
    assert game.share_price(game.corporations["DRG"]) < game.share_price(game.corporations["MILW"])
    move = legal_moves(game)[0]
    assert move["type"] == "assign" and move["choices"][0]["target"] == "MILW"


def test_14_2_a_replayed_log_keeps_the_sites_out_of_turn_pass_on_a_friendly_offer() -> None:
    # 109372 1284: PRR's president is asked; the site took Player 2's pass for his
    pass_by_another = action_of("109372", 1284)
    game = real_game(1284)
    game.importing = False
    with pytest.raises(GameError, match="turn"):
        game.apply(pass_by_another)
    game = real_game(1284)
    assert game.importing
    game.apply(pass_by_another)
    assert game.round.sale is None or game.round.sale.target != "PRR"

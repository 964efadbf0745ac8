"""18USA rule 16: the first 8-train (bought or exported) ends the game after three more operating
rounds; a player's value is cash plus shares at market price less shorts (privates count for
nothing; on the site at face value, `site_private_value`); all but one player bankrupt ends it
at once. Positions from two logs the engine plays exactly to their result."""

from __future__ import annotations

from typing import Any

import pytest
from usa_logs import LOGS, trace_lines
from usa_positions import log_named, replayed

from engine.errors import GameError

SIGNAL = {"s8403": 768, "s8401": 796}  # actions up to the first 8-train (bought, exported)


def logged_result(log_name: str) -> dict[str, int]:
    trace = next(trace for path, trace in LOGS if path.stem.endswith(log_name))
    found: dict[str, int] = next(line["result"] for line in trace_lines(trace) if "result" in line)
    return found


def rounds_to_the_end(log_name: str) -> tuple[Any, list[str]]:
    """The game at the log's end, and each operating round begun after the first 8-train (the
    game is not over before the log's last action)."""
    log = log_named(log_name)
    game = replayed(log_name, SIGNAL[log_name])
    logged = len(game.log)
    for action in log["actions"][SIGNAL[log_name]:]:
        assert not game.finished
        game.apply(action)
    return game, [line for line in game.log[logged:] if line.startswith("Operating Round")]


def test_16_an_8_train_in_the_first_round_of_a_set_two_more_after_the_stock_round() -> None:
    before = replayed("s8403", SIGNAL["s8403"] - 1)
    assert before.final_turn is None
    game = replayed("s8403", SIGNAL["s8403"])
    assert (game.turn, game.round_num) == (12, 1)  # exported as operating round 12.1 ends
    assert (game.final_turn, game.final_operating_rounds) == (13, 2)
    game, played = rounds_to_the_end("s8403")
    # 12.2 completes the set; after stock round 13, a set of two: three in all.
    assert played == ["Operating Round 12.2", "Operating Round 13.1", "Operating Round 13.2"]
    assert game.finished and game.end_reason == "final_phase"
    assert game.result() == logged_result("s8403")


def test_16_an_8_train_in_the_second_round_of_a_set_a_final_set_of_three() -> None:
    game = replayed("s8401", SIGNAL["s8401"])
    assert (game.turn, game.round_num) == (12, 2)  # exported as operating round 12.2 ends
    assert (game.final_turn, game.final_operating_rounds) == (13, 3)
    game, played = rounds_to_the_end("s8401")
    assert played == ["Operating Round 13.1", "Operating Round 13.2", "Operating Round 13.3"]
    assert game.finished and game.result() == logged_result("s8401")


def test_16_a_finished_game_takes_no_more_actions() -> None:
    game = replayed("s8401")
    assert game.finished
    result = game.result()
    with pytest.raises(GameError, match="the game is over"):
        game.apply({"type": "pass", "entity": "P1", "entity_type": "player"})
    assert game.result() == result


def test_16_value_is_cash_and_shares_at_market_price_less_shorts() -> None:
    game = replayed("s8401", 753, without=("site_private_value",))  # P1 has just sold N&W short
    p1 = game.player("P1")
    shares = [(corp, share) for corp in game.corporations.values() for share in corp.shares
              if share.owner is p1]
    assert any(share.percent < 0 for _, share in shares)
    worth = sum(game.share_price(corp) * corp.units(share.percent) for corp, share in shares)
    assert game.companies_of(p1)  # P1 holds privates: by the printed rule they are worth nothing
    assert game.player_value(p1) == p1.cash + worth
    game.options = game.options | {"site_private_value"}
    assert game.player_value(p1) == p1.cash + worth + sum(c.value for c in game.companies_of(p1))


def test_16_the_printed_result_leaves_out_privates() -> None:
    printed = replayed("s8401", without=("site_private_value",))
    site = logged_result("s8401")
    # The bankrupt P2 keeps P10 and P30 (site_bankrupt_privates, still on): $160 on the site.
    assert site["P2"] == 160 and printed.result()["P2"] == 0
    p1 = printed.player("P1")
    assert printed.result()["P1"] == site["P1"] - sum(c.value for c in printed.companies_of(p1))


def test_16_all_but_one_bankrupt_ends_the_game_at_once() -> None:
    game = replayed("s8401", 800)  # P2 is bankrupt; P1, P3 and P4 play on
    game.options = game.options - {"site_end_after_bankruptcy"}
    assert not game.finished
    game.bankrupt(game.player("P3"))
    assert not game.finished
    game.bankrupt(game.player("P4"))
    assert game.finished and game.end_reason == "bankrupt"
    assert set(game.result()) == {"P1", "P2", "P3", "P4"}


def test_16_on_the_site_the_game_ends_once_the_action_has_played_out() -> None:
    """site_end_after_bankruptcy: the last bankruptcy ends the game when what needs no decision
    has happened (s12254: the operating round's end and its export)."""
    game = replayed("s8401", 800)
    assert "site_end_after_bankruptcy" in game.options
    game.bankrupt(game.player("P3"))
    game.bankrupt(game.player("P4"))
    assert not game.finished and game.ending == "bankrupt"
    game.settle()
    assert game.finished and game.end_reason == "bankrupt"

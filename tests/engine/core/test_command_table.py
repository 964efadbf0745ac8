"""The front ends' command table: each title's commands cover every move its steps offer, and
a word means the same action with the same options in every title."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from tiny_title import Tiny

from engine import command_table, load_game
from engine.core.commands import STANDARD, CommandOption, merge_tables, standard
from engine.legal import legal_moves
from engine.log import SITE_RULES, effective_actions, new_game
from engine.titles.g18texas.game import G18Texas

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "fixtures" / "18Texas" / "65394.json"


def test_every_move_offered_in_a_whole_18texas_game_has_a_command() -> None:
    log = json.loads(FIXTURE.read_text())
    game = new_game(log["title"], log["players"], log["settings"]["seed"], [SITE_RULES])
    state = game.state
    state.importing = True
    seen = set()
    for action in effective_actions(log["actions"]):
        for move in legal_moves(state):
            kind = (move["type"], move["entity_type"])
            if kind not in seen:
                seen.add(kind)
                assert any(c.action == kind[0] and kind[1] in c.entities for c in G18Texas.COMMANDS), kind
        state.process(action)
    assert {"bid", "par", "lay_tile", "run_routes", "buy_train"} <= {kind for kind, _ in seen}
    assert load_game(log).finished


def test_the_engine_s_table_is_the_titles_tables_merged() -> None:
    table = command_table()
    assert command_table("18Texas") == {c.word: c for c in G18Texas.COMMANDS}
    assert table == {**command_table("18USA"), **command_table("18Texas")}  # 18Texas's words first
    assert table["bid"].phrase == "bid on a private company"  # 18Texas's own words
    assert table["issue"].action == table["sell"].action == "sell_shares"
    assert table["issue"].entities == ("corporation",) and table["sell"].entities == ("player",)


def test_a_title_may_word_a_command_its_own_way_but_not_change_what_it_makes() -> None:
    own_words = replace(STANDARD["bid"], phrase="bid for a railroad", description="Bid")
    assert merge_tables([standard("bid"), (own_words,)])["bid"].phrase == STANDARD["bid"].phrase
    other_option = replace(STANDARD["bid"], options=(CommandOption("minor", str, "A minor", True, "minor"),))
    with pytest.raises(ValueError, match="/bid is declared differently"):
        merge_tables([standard("bid"), (other_option,)])


def test_a_title_adds_its_own_action_and_command() -> None:
    table = merge_tables([Tiny.COMMANDS])
    assert table["short"].action == "short" and table["short"].option("corporation") is not None
    assert "lay" not in table  # the tiny title has no track


def test_an_action_is_named_by_its_title_s_word_for_the_entity_that_takes_it() -> None:
    from engine.core.commands import words_for
    from engine.titles.g18usa.game import G18USA

    texas, usa = G18Texas.COMMANDS, G18USA.COMMANDS
    assert words_for(texas, "buy_shares", "player") == ["/buy"]
    assert words_for(texas, "buy_shares", "corporation") == ["/redeem"]
    assert words_for(texas, "sell_shares", "corporation") == ["/issue"]
    # 18USA takes loans with /loan; 18Texas has no loans, so no word: the raw /action makes it.
    assert words_for(usa, "take_loan", "corporation") == ["/loan"]
    assert words_for(texas, "take_loan", "corporation") == ["/action"]
    # One type, several words: the action's own fields pick one, else all are named.
    assert words_for(usa, "assign", "player", {"target_type": "corporation"}) == ["/offer"]
    assert words_for(usa, "assign", "player", {"target_type": "company"}) == ["/contribute"]
    assert words_for(usa, "assign", "player") == ["/contribute", "/offer"]
    assert words_for(usa, "choose", "player") == ["/size"]
    assert words_for(usa, "choose", "corporation") == ["/attach"]
    # A raw action of an entity the word is not for still has the word.
    assert words_for(texas, "lay_tile", "player") == ["/lay"]

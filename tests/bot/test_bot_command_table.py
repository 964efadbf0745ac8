"""The bot's commands come from the engine's command table: a command a title declares works
without bot code of its own (built and suggested by its options' choice fields)."""

from __future__ import annotations

import pytest

from bot.commands import _by_choice_fields, clicked
from bot.console_parse import parse_line
from bot.errors import CommandError
from bot.model import Command
from bot.suggest import _by_choice_field
from bot.vocabulary import MOVES
from engine import command_table
from engine.core.commands import CommandOption, CommandSpec

CONVERT = CommandSpec("convert", "convert", "Convert a company to more shares", "convert a company",
                      ("corporation",),
                      (CommandOption("size", int, "Shares after converting", True, "shares"),
                       CommandOption("note", str, "Free text passed as given")))
MOVES_NOW = [{"type": "convert", "entity": "X", "entity_type": "corporation",
              "choices": [{"shares": 5, "price": 60}, {"shares": 10, "price": 120}]}]


def test_the_bot_offers_every_command_of_the_engine_s_table_plus_raw_actions() -> None:
    assert set(MOVES) == set(command_table()) | {"action"}
    for word, command in command_table().items():
        assert [o.name for o in MOVES[word].options] == [o.name for o in command.options]


def test_a_declared_command_is_built_from_the_chosen_choice() -> None:
    action = _by_choice_fields(CONVERT, MOVES_NOW, Command("convert", {"size": 10, "note": "grow"}))
    assert action == {"type": "convert", "entity": "X", "entity_type": "corporation", "shares": 10,
                      "note": "grow"}  # price is informational: the engine knows it


def test_a_declared_command_refuses_a_value_no_choice_has_and_says_which_can_be() -> None:
    with pytest.raises(CommandError, match=r"^/convert size:7 is not possible now; size can be 10, 5$"):
        _by_choice_fields(CONVERT, MOVES_NOW, Command("convert", {"size": 7}))


def test_a_declared_option_is_suggested_from_its_choice_field() -> None:
    assert _by_choice_field(CONVERT, "size", MOVES_NOW[0]["choices"], {}) == [("5", 5), ("10", 10)]
    assert _by_choice_field(CONVERT, "note", MOVES_NOW[0]["choices"], {}) == []


def test_the_terminal_reads_the_table_s_commands() -> None:
    assert parse_line("@Alice /lay hex:E11 tile:57 rotation:2") == (
        "Alice", Command("lay", {"hex": "E11", "tile": "57", "rotation": 2}))


def test_a_button_s_verb_is_read_as_its_move_command() -> None:
    assert clicked("pass") == Command("pass")
    assert clicked("dividend:payout") == Command("dividend", {"kind": "payout"})
    # A run button names the total it offered; one offered before buttons named it runs the proposal.
    assert clicked("run:990") == Command("run", {"offered_total": 990})
    assert clicked("run") == Command("run")
    for unknown in ("run:", "run:lots", "dividend:", "lay", "join:1"):
        assert clicked(unknown) is None, unknown

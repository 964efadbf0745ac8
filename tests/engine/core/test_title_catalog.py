"""The engine's list of titles, as front ends offer them, and the check that each title's
command table covers every action type its rounds take."""

from __future__ import annotations

import pytest

from engine import command_table
from engine.catalog import declared_actions, default_title, title_info, title_infos
from engine.core.commands import CommandSpec
from engine.titles import TITLE_CLASSES


def test_every_registered_title_is_listed_with_its_player_counts() -> None:
    assert [info.name for info in title_infos()] == list(TITLE_CLASSES)
    usa = title_info("18USA")
    assert usa is not None and (usa.min_players, usa.max_players) == (2, 7)
    assert usa.label == "18USA (2-7 players)"
    assert usa.players_problem(8) == "18USA is for 2 to 7 players, not 8"
    assert usa.players_problem(2) is None
    assert title_info("1830") is None
    assert default_title() == title_infos()[0].name


@pytest.mark.parametrize("title", sorted(TITLE_CLASSES))
def test_every_action_type_a_title_takes_has_a_command(title: str) -> None:
    covered = {spec.action for spec in command_table(title).values()}
    missing = declared_actions(title) - covered
    assert not missing, f"{title} takes {sorted(missing)} but its command table has no word for them"


def test_the_18usa_actions_are_the_family_s_and_its_own() -> None:
    assert {"short", "take_loan", "payoff_loan", "convert", "choose", "assign", "scrap_train",
            "bid", "lay_tile", "place_token", "run_routes", "dividend", "buy_train"} <= declared_actions("18USA")


def test_a_word_with_a_selection_covers_only_its_own_choices() -> None:
    contribute, offer = command_table("18USA")["contribute"], command_table("18USA")["offer"]
    gift = {"type": "assign", "entity": 1, "entity_type": "player",
            "choices": [{"target": "P3", "target_type": "company"}]}
    sale = {"type": "assign", "entity": 1, "entity_type": "player",
            "choices": [{"target": "NYC", "target_type": "corporation"}]}
    assert contribute.covers(gift) and not contribute.covers(sale)
    assert offer.covers(sale) and not offer.covers(gift)
    assert isinstance(command_table("18USA")["use"], CommandSpec)
    assert not command_table("18USA")["use"].covers(gift)  # a private's marker is a company's move


@pytest.mark.parametrize("title", sorted(TITLE_CLASSES))
def test_every_description_fits_discord(title: str) -> None:
    """Discord refuses a command or option description over 100 characters."""
    for spec in command_table(title).values():
        for text in (spec.description, *(option.description for option in spec.options)):
            assert 1 <= len(text) <= 100, (spec.word, text)

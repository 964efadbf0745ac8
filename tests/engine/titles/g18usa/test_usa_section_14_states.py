"""Section 14 as a state machine, proven on 18USA logs: every move made in a merger round or an
acquisition round goes from the stage it was made in to a stage the table of
engine/core/family1817/section14.py allows, and every transition the table lists happens in
these logs (those of the printed order only, which imported logs never take, are proven in
tests/engine/core/family1817/test_1817_section_14_states.py).

The logs are the fewest of the corpus whose moves between them take every transition listed (a
scan of all 166 finds the same set of transitions: `python bench/usa_section_14.py`)."""

from __future__ import annotations

import pytest
from usa_section14 import TABLES, Transition, listed, transitions_in

from engine.core.family1817.section14 import allowed

# The logs whose moves take every transition of the tables (found by bench/usa_section_14.py).
COVERING_LOGS: tuple[str, ...] = (
    "randplay_18USA_5p_s12007", "randplay_18USA_4p_s12075", "randplay_18USA_2p_s12272", "randplay_18USA_5p_s12025",
    "randplay_18USA_2p_s12056", "randplay_18USA_6p_s12005", "109372", "randplay_18USA_4p_s8401",
    "randplay_18USA_4p_s12213", "randplay_18USA_4p_s12249", "randplay_18USA_5p_s12022", "randplay_18USA_6p_s12032",
    "randplay_18USA_6p_s12041", "randplay_18USA_7p_s12217",
)

@pytest.fixture(scope="module")
def observed() -> dict[str, set[Transition]]:
    return {name: transitions_in(name) for name in COVERING_LOGS}


def test_every_move_goes_where_the_table_says(observed: dict[str, set[Transition]]) -> None:
    wrong = sorted(f"{name}: {kind} {before.name} --{move}--> {after.name}"
                   for name, seen in observed.items() for kind, before, move, after in seen
                   if not allowed(TABLES[kind], before, move, after))
    assert wrong == []


def test_every_transition_listed_happens(observed: dict[str, set[Transition]]) -> None:
    happened = set().union(*observed.values())
    missing = sorted(f"{kind} {before.name} --{move}--> {after.name}"
                     for kind, before, move, after in listed() - happened)
    assert missing == []

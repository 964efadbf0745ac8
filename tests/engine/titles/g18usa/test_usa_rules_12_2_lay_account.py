"""What the log says a tile lay did (rules 12.2, 13; the bot's reply to a lay is this line):
the printed tile, not the supply copy; the resource token placed, whose, and what it adds to
runs; what was paid and for what (a second tile action, skipped colours, terrain); what spared
part of the terrain cost; the private or subsidy whose power laid it. Positions of real logs,
each lay made as the log made it."""

from __future__ import annotations

import re

import pytest
from usa_positions import log_named
from usa_tracecheck import position_in

from engine.core.game import BaseGame

# (log, index of the lay in the log's actions, the line the log gains)
LAYS = {
    "coal token, its terrain spared": (
        "s8403", 441, "NP lays tile 7 in E25 (rotation 2) and places P21's coal token (+$10 to each train "
                      "running through it); the coal token saves $15 of the terrain cost"),
    "second tile action": ("s8403", 442, "NP lays tile 57 in H22 (rotation 2); pays $20 for a second tile action"),
    "oil token before phase 5, second action": (
        "s8403", 459, "NP lays tile 7 in J14 (rotation 2) and places P3's oil token (+$10 to each train running "
                      "through it, +$20 from phase 5); pays $20 for a second tile action"),
    "P5 spares a mountain": (
        "s8403", 414, "NP lays tile 9 in G21 (rotation 2); pays $20 for a second tile action; "
                      "P5 Nobel's Blasting Powder saves $15 of the terrain cost"),
    "a colour skipped and a river": (
        "s8403", 591, "SLSF lays tile 83 in F18 (rotation 2); pays $20: $10 for skipping 1 colour and "
                      "$10 for the terrain (water)"),
    "a private's power": ("s8403", 616, "NP lays tile X23 in C17 (rotation 0) with P16 Regional Headquarters"),
    "ore token turned over": (
        "109372", 368, "UP lays tile 7 in C19 (rotation 5) and turns the ore token over (+$20 to each train "
                       "running through it)"),
    "the resource subsidy's own token": (
        "s8502", 352, "MILW lays tile 9 in E5 (rotation 0) with S16 Resource Subsidy and places its ore token "
                      "(+$10 to each train running through it)"),
    "P17's lay with another private's coal": (
        "s8504", 548, "DRG lays tile 8 in B6 (rotation 4) with P17 Great Northern Railway and places P1's coal "
                      "token (+$10 to each train running through it); P17 Great Northern Railway saves $15 of "
                      "the terrain cost"),
}


def _lay(log_name: str, index: int) -> tuple[BaseGame, BaseGame, dict[str, object]]:
    """The position before the log's action `index` (a lay), and after it."""
    before = position_in(log_name, index)
    after = before.snapshot()
    action = log_named(log_name)["actions"][index]
    assert action["type"] == "lay_tile"
    after.apply(action)
    return before, after, action


@pytest.mark.parametrize("case", list(LAYS))
def test_12_2_the_log_says_what_a_lay_did(case: str) -> None:
    log_name, index, line = LAYS[case]
    before, after, action = _lay(log_name, index)
    assert after.log[len(before.log):] == [line]
    assert str(action["tile"]) not in line  # the supply copy ("7coal-0") is the site's id, not the tile's


PAID = re.compile(r"^(?P<corp>\S+) lays tile .*?; pays \$(?P<paid>\d+)")


@pytest.mark.parametrize("log_name", ["s8403", "s8504", "109372"])
def test_12_2_what_the_log_says_a_lay_cost_is_what_the_company_paid(log_name: str) -> None:
    """Every lay of a whole log: the company's cash falls by the sum the line names (or not at
    all where it names none)."""
    actions = log_named(log_name)["actions"]
    game = position_in(log_name, 0)
    paying = 0
    for action in actions:
        cash = {corp.id: corp.cash for corp in game.corporations.values()}
        seen = len(game.log)
        game.apply(action)
        if action["type"] != "lay_tile":
            continue
        (line,) = [entry for entry in game.log[seen:] if " lays tile " in entry]
        match = PAID.match(line)
        corp = line.split(" ", 1)[0]
        assert cash[corp] - game.corporations[corp].cash == (int(match["paid"]) if match else 0), line
        paying += match is not None
    assert paying > 10

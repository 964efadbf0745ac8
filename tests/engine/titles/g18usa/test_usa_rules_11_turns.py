"""18USA rule 11: a stock round turn is offered only to a player with something to do besides
passing (as on the site: the round goes on without them).

The position: a real game's second stock round; P1 is last in turn order, holds KCS (a 2-share
company at its loan limit), no privates and $85 — less than the $100 a company start needs.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

BEFORE_P6_PASSES = 276


def position(p1_cash: int) -> Any:
    game = position_in("s8603", BEFORE_P6_PASSES)
    game.players[0].cash = p1_cash
    return game


@pytest.mark.parametrize(("cash", "asked"), [(85, False), (100, True)])
def test_a_player_who_can_only_pass_is_not_asked(cash: int, asked: bool) -> None:
    game = position(cash)
    assert game.round.name == "Stock Round" and [p.id for p in game.acting_players()] == ["P6"]
    game.apply({"type": "pass", "entity": "P6", "entity_type": "player"})
    if asked:
        assert game.round.name == "Stock Round" and [p.id for p in game.acting_players()] == ["P1"]
    else:
        assert game.round.name == "Operating Round"

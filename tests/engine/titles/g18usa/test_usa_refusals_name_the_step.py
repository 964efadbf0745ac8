"""A refused action names who acts and what the step holding the round allows, not the stock
round's share moves: while a player chooses the size of the company they just won, or owes a
contribution for it, the share step is not in play and does not answer for the round (it said
"it is Player 4's turn in the stock round" to the player choosing the size, and listed
"sell_shares, buy_shares, par, pass" to a player owing a contribution).

Positions of the real game 109372: before action 292 Player 2 chooses TP's size; before action
79 Player 4 owes NYC a contribution.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

from engine.errors import GameError

LOG = "109372"
PLAYER_1, PLAYER_2, PLAYER_4 = 605, 1463, 3763


def refusal(actions: int, action: dict[str, Any]) -> str:
    game = position_in(LOG, actions)
    game.importing = False
    before = len(game.raw_actions)
    with pytest.raises(GameError) as caught:
        game.process({"entity_type": "player", **action})
    assert len(game.raw_actions) == before
    return str(caught.value)


def test_the_player_choosing_a_size_is_told_to_choose_it() -> None:
    said = refusal(292, {"type": "pass", "entity": PLAYER_2})
    assert said == "/pass is not possible now: Player 2 is to choose the company's size; what you can do now: /size"


def test_another_player_is_told_whose_turn_it_is() -> None:
    for action in ({"type": "pass", "entity": PLAYER_1},
                   {"type": "buy_shares", "entity": PLAYER_1, "shares": ["PRR_1"], "percent": 10}):
        assert refusal(292, action) == "it is Player 2's turn (Stock Round 2)"


def test_a_player_owing_a_contribution_is_told_what_the_step_allows() -> None:
    said = refusal(79, {"type": "choose", "entity": PLAYER_4, "choice": "9-9"})
    assert said == ("/size is not possible now: Player 4 is to contribute private companies; "
                    "what you can do now: /contribute, /pass")

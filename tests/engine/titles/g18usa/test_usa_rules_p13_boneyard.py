"""18USA P13 Pennsy Boneyard (the private companies' list): "When the first 4, 6 or 8 is bought
or exported while the owning company holds a 2, 3 or 4 it rusts, the company may keep one such
train as obsolete: it runs once more, is then removed, cannot be sold and is outside the train
limit. Closes when used."

On the site the whole rusting waits for that company's choice, and the operating round whose
end exported the first 4-train is held until then.

The position: a real game (s8503) where the last company of an operating round has passed, the
round's export of the first 4 starts phase 4, and SP holds P13 and two 2-trains.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

from engine import GameError
from engine.legal import legal_moves

ROUND_ENDS = 517  # after this many actions the operating round has ended and exported the 4


def trains(game: Any, corp: str) -> list[str]:
    return sorted(train.name for train in game.corporations[corp].trains)


def test_the_rusting_waits_for_the_boneyard_company_and_holds_the_operating_round() -> None:
    game = position_in("s8503", ROUND_ENDS)
    assert game.phase.name == "4"
    assert game.round.name == "Operating Round"
    assert trains(game, "SP") == ["2", "2"] and trains(game, "IC") == ["2", "2", "2+"]
    moves = legal_moves(game)
    assert {(move["type"], move["entity"]) for move in moves} == {("choose", "SP"), ("pass", "SP")}
    choose = next(move for move in moves if move["type"] == "choose")
    assert choose["choices"] == [{"choice": "2 Train"}]


def test_keeping_a_train_makes_it_obsolete_closes_p13_and_rusts_the_rest() -> None:
    game = position_in("s8503", ROUND_ENDS)
    game.process({"type": "choose", "entity": "SP", "entity_type": "corporation", "choice": "2 Train"})
    sp = game.corporations["SP"]
    assert trains(game, "SP") == ["2"] and sp.trains[0].id in game.obsolete_trains
    assert game.companies["P13"].closed
    assert trains(game, "IC") == ["2+"] and trains(game, "TP") == [] and trains(game, "C&O") == ["3+"]
    assert game.counted_trains(sp) == 0  # outside the train limit
    assert game.round.name != "Operating Round"  # the held round is over


def test_declining_rusts_every_train_and_keeps_p13() -> None:
    game = position_in("s8503", ROUND_ENDS)
    game.process({"type": "pass", "entity": "SP", "entity_type": "corporation"})
    assert trains(game, "SP") == [] and trains(game, "IC") == ["2+"]
    assert not game.companies["P13"].closed


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "choose", "entity": "SP", "entity_type": "corporation", "choice": "3 Train"}, "2 Train"),
    ({"type": "pass", "entity": "IC", "entity_type": "corporation"}, "P13"),
])
def test_anything_else_is_refused_and_changes_nothing(action: dict[str, Any], message: str) -> None:
    game = position_in("s8503", ROUND_ENDS)
    before = (trains(game, "SP"), trains(game, "IC"), game.round.name, len(game.log))
    with pytest.raises(GameError, match=message):
        game.process(action)
    assert (trains(game, "SP"), trains(game, "IC"), game.round.name, len(game.log)) == before

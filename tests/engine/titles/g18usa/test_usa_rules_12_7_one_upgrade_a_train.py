"""A train takes one upgrade a run: the switcher (P19), the extender (P30) and the Pullman (12.7)
each go on "one train", and no train takes two. The `choose` offer keeps to that; the run itself
is refused too when its train was handed a second upgrade, so the rule is the engine's and not
only the offer's.

The position is s8503 before action 1127: SR holds P30 and a Pullman and has one 4-train, 4-7,
and runs it (the log's run, attaching nothing).
"""

from __future__ import annotations

import pytest
from usa_positions import logged_action
from usa_tracecheck import position_in

from engine.errors import GameError
from engine.titles.g18usa.game import G18USA
from engine.titles.g18usa.operating import UsaOperatingRound

LOG = "s8503"
SR_RUNS = 1127


def extended() -> G18USA:
    """SR's 4-train carries P30's extender, chosen as offered."""
    game = position_in(LOG, SR_RUNS)
    assert isinstance(game, G18USA)
    game.importing = False
    game.process({"type": "choose", "entity": "SR", "entity_type": "corporation", "choice": "0-0"})
    assert isinstance(game.round, UsaOperatingRound) and game.round.attachments == {"P30": "4-7"}
    return game


def test_the_pullman_is_not_offered_for_the_extended_train() -> None:
    game = extended()
    with pytest.raises(GameError, match="/attach is not possible now: SR is to run trains; what you can do now: .*/run"):
        game.process({"type": "choose", "entity": "SR", "entity_type": "corporation", "choice": "0-0"})
    assert isinstance(game.round, UsaOperatingRound) and game.round.attachments == {"P30": "4-7"}


def test_a_run_whose_train_was_handed_two_upgrades_is_refused_and_changes_nothing() -> None:
    game = extended()
    assert isinstance(game.round, UsaOperatingRound)
    game.round.attachments["P"] = "4-7"  # as an action that went round the offer would leave it
    cash, actions = game.corporations["SR"].cash, len(game.raw_actions)
    run = dict(logged_action(LOG, SR_RUNS))
    run["routes"] = [{key: value for key, value in route.items() if key != "revenue"} for route in run["routes"]]
    with pytest.raises(GameError, match=r"train 4-7 carries .*\(extender\) and the Pullman; "
                                        "a train takes one upgrade a run"):
        game.process(run)
    assert game.round.blocking_step(game).key == "route"
    assert game.corporations["SR"].cash == cash and len(game.raw_actions) == actions
    del game.round.attachments["P"]
    game.process(run)  # the same run with the extender alone is accepted
    assert game.round.blocking_step(game).key != "route"

"""12.7: a Pullman scrapped after it was attached for the run earns nothing: the car is gone. Before,
the attachment stayed on the train, so the engine valued the run with the Pullman's +$20 a stop
and refused the runs the optimizer (rightly, with no Pullman owned) proposed ("the run of train
4-5 is worth $210, not $130"), which stopped a random legal game (6 players, seed 4022).

The position: 109372 before action 1431, ATSF at its run step with its Pullman P-3 attached to its
5-train 5-2, which runs five cities (D14, D20, I19, D28, A27: $460 bare). The random-play position
kept for this no longer replays after later rule changes; the logged game does, and the Pullman
may be scrapped there as well.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

from engine.core.game import BaseGame
from engine.core.most_earnings import best_runs
from engine.errors import GameError
from engine.titles.g18usa.operating import UsaOperatingRound

SCRAP = {"type": "scrap_train", "entity": "ATSF", "entity_type": "corporation", "train": "P-3"}
FIVE_TRAIN = {"train": "5-2",
              "connections": [["D14", "D16", "D18", "C19", "D20"], ["D20", "E21", "F22", "G23", "H24", "I23", "I21", "I19"],
                              ["I19", "I17", "H18", "G19", "G21", "G23", "F24", "E25", "E27", "D28"],
                              ["D28", "C27", "B26", "A27"]],
              "nodes": ["D14-0", "D20-0", "I19-0", "D28-0", "A27-0"]}


def attached() -> BaseGame:
    """ATSF with its Pullman on 5-2, before the scrap."""
    game = position_in("109372", 1431)
    game.importing = False
    assert isinstance(game.round, UsaOperatingRound) and game.round.attachments == {"P": "5-2"}
    assert [train.id for train in game.corporation("ATSF").trains] == ["5-2", "P-3"]
    return game


def run(revenue: int) -> dict[str, Any]:
    return {"type": "run_routes", "entity": "ATSF", "entity_type": "corporation",
            "routes": [FIVE_TRAIN | {"revenue": revenue}]}


def test_scrapping_the_attached_pullman_takes_it_off_its_train() -> None:
    game = attached()
    game.process(SCRAP)
    assert game.round.attachments == {}
    assert [train.id for train in game.corporation("ATSF").trains] == ["5-2"]


def test_the_runs_are_valued_without_it() -> None:
    game = attached()
    game.process(SCRAP)
    with pytest.raises(GameError, match=r"worth \$460, not \$560"):
        game.process(run(560))  # the five cities' $460 and nothing more
    logged = len(game.log)
    game.process(run(460))
    assert game.log[logged:] == ["ATSF runs for $460"]


def test_the_optimizer_and_the_engine_agree_after_the_scrap() -> None:
    game = attached()
    game.process(SCRAP)
    best = best_runs(game, "ATSF", time_budget=2.0)
    assert [run.attachments for run in best.runs] == [()]
    logged = len(game.log)
    game.process(best.to_action("ATSF"))
    assert game.log[logged:] == [f"ATSF runs for ${best.total}"]


def test_with_the_pullman_kept_the_five_train_earns_its_bonus() -> None:
    game = attached()
    logged = len(game.log)
    game.process(run(560))  # +$20 for each of the five cities
    assert game.log[logged:] == ["ATSF runs for $560"]

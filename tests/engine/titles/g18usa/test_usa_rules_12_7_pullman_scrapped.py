"""12.7: a Pullman scrapped after it was attached for the run earns nothing: the car is gone. Before,
the attachment stayed on the train, so the engine valued the run with the Pullman's +$20 a stop
and refused the runs the optimizer (rightly, with no Pullman owned) proposed ("the run of train
4-5 is worth $210, not $130"), which stopped a random legal game.

The position (tests/data/positions/usa_pullman_scrapped_after_attaching.json, random legal play,
6 players, seed 4022): KCS, in Operating Round 10.2, has attached its Pullman to its 4-train 4-5;
the log's last action scraps the Pullman.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_positions import kept_document, kept_position

from engine.core.most_earnings import best_runs
from engine.errors import GameError
from engine.log import Game
from engine.titles.g18usa.operating import UsaOperatingRound

SCRAP = {"type": "scrap_train", "entity": "KCS", "entity_type": "corporation", "train": "P-0"}
FOUR_TRAIN = {"train": "4-5", "connections": [["E17", "F18", "F20"], ["F20", "E21", "E23"], ["E23", "F24", "G23", "H22"]],
              "nodes": ["E17-0", "F20-0", "E23-0", "H22-0"]}
THREE_PLUS = {"train": "3+-0", "connections": [["H22", "I23", "I25"], ["I25", "J24"]], "nodes": ["H22-0", "I25-0", "J24-0"]}


def attached() -> Game:
    """KCS with its Pullman on 4-5, before the scrap."""
    document = kept_document("usa_pullman_scrapped_after_attaching")
    assert document["actions"][-1] == SCRAP
    document["actions"] = document["actions"][:-1]
    game = kept_position("usa_pullman_scrapped_after_attaching", document)
    assert isinstance(game.state.round, UsaOperatingRound) and game.state.round.attachments == {"P": "4-5"}
    return game


def runs(four: int, three: int) -> dict[str, Any]:
    return {"type": "run_routes", "entity": "KCS", "entity_type": "corporation",
            "routes": [FOUR_TRAIN | {"revenue": four}, THREE_PLUS | {"revenue": three}]}


def test_scrapping_the_attached_pullman_takes_it_off_its_train() -> None:
    game = attached()
    game.process(SCRAP)
    assert game.state.round.attachments == {}
    assert [train.id for train in game.state.corporation("KCS").trains] == ["3+-0", "4-5"]


def test_the_runs_are_valued_without_it() -> None:
    game = attached()
    game.process(SCRAP)
    with pytest.raises(GameError, match=r"worth \$130, not \$210"):
        game.process(runs(210, 120))  # E17 $20, F20 $40, E23 $20, H22 $50 and nothing more
    logged = len(game.state.log)
    game.process(runs(130, 120))
    assert game.state.log[logged:] == ["KCS runs for $250"]


def test_the_optimizer_and_the_engine_agree_after_the_scrap() -> None:
    game = attached()
    game.process(SCRAP)
    best = best_runs(game.state, "KCS", time_budget=2.0)
    logged = len(game.state.log)
    game.process(best.to_action("KCS"))
    assert game.state.log[logged:] == [f"KCS runs for ${best.total}"]


def test_with_the_pullman_kept_the_four_train_earns_its_bonus() -> None:
    game = attached()
    logged = len(game.state.log)
    game.process(runs(210, 120))  # +$20 for each of the four cities
    assert game.state.log[logged:] == ["KCS runs for $330"]

"""P19's switcher on a run with a rural junction (P26): the switcher drops one stop from the count
once the run's stops reach the train's increased distance. A rural junction takes no distance, so
dropping it does not shorten the run: the stop dropped is the cheapest one whose loss leaves the run
within the distance. Before, the engine dropped the junction (the cheapest stop, $10) and refused
the optimizer's best run ("a 3-train may visit at most 3 stops; this run has 4"), which stopped a
random legal game.

The position (tests/data/positions/usa_switcher_rural_junction.json, random legal play, rulebook
reading): UP runs its 2-train with the switcher attached (distance 3); its rural junction is on
G27; UP has stations in H20 and H22.
"""

from __future__ import annotations

import pytest
from usa_positions import kept_position

from engine.core.most_earnings import best_runs
from engine.errors import GameError
from engine.log import Game
from engine.titles.g18usa.operating import UsaOperatingRound


def up_to_run() -> Game:
    game = kept_position("usa_switcher_rural_junction")
    assert isinstance(game.state.round, UsaOperatingRound) and game.state.round.attachments == {"P19": "2-1"}
    assert game.state.board.hexes["G27"].tile.kind == "rural_junction"
    return game


def run(revenue: int, stops: list[str], connections: list[list[str]]) -> dict[str, object]:
    return {"type": "run_routes", "entity": "UP", "entity_type": "corporation",
            "routes": [{"train": "2-1", "connections": connections, "revenue": revenue,
                        "nodes": [f"{coord}-0" for coord in stops]}]}


THROUGH_TO_G27 = (["J20", "I19", "H20", "H22", "G27"],
                  [["J20", "I19"], ["I19", "H20"], ["H20", "H22"], ["H22", "G23", "G25", "G27"]])


def test_the_switcher_drops_a_stop_that_shortens_the_run_not_the_rural_junction() -> None:
    game = up_to_run()
    logged = len(game.state.log)
    # J20 $40, I19 $30, H20 $20, H22 $30 and the junction $10: four stops of distance, one over
    # the switcher's 3; H20 ($20) is dropped, the junction stays: $110.
    game.process(run(110, *THROUGH_TO_G27))
    assert game.state.log[logged:] == ["UP runs for $110"]


def test_the_run_is_refused_at_any_other_revenue() -> None:
    game = up_to_run()
    before = len(game.raw_actions)
    with pytest.raises(GameError, match="110"):
        game.process(run(120, *THROUGH_TO_G27))
    assert len(game.raw_actions) == before


def test_the_optimizer_s_best_run_is_accepted_by_the_engine() -> None:
    game = up_to_run()
    result = best_runs(game.state, "UP", time_budget=2.0)
    assert result.total >= 110
    logged = len(game.state.log)
    game.process(result.to_action("UP"))
    assert game.state.log[logged:] == [f"UP runs for ${result.total}"]

"""The optimizer's runs with 18USA's upgrades are the runs the run step accepts (12.7, P19, P30),
found by random legal play, where the engine refused the proposal:

* an upgrade already attached for the run holds its train's one place: a company's one train
  carries the extender, so its Pullman cannot ride there too (found on N&W's 3-train, proposed
  with the Pullman for $190, the engine: $130 without it; kept now: B&O's 3-train, $200 with the
  extender alone);
* a run must count two stops: SR's switcher may leave out the off-board F28 (which takes 99 of a
  train's distance), but a run of F28 and G27 then counts one stop (proposed for $20).

The optimizer now checks runs with attachments in the title's run step itself, on a copy.
"""

from __future__ import annotations

from usa_positions import kept_position
from usa_tracecheck import position_in

from engine import given_most
from engine.attachments import attachment_actions
from engine.core.most_earnings import best_runs
from engine.log import Game
from engine.titles.g18usa.operating import UsaOperatingRound


def run_the_proposal(game: Game, company: str) -> str:
    """The optimizer's runs made as the bot makes them (its attachments first); the log's line."""
    best = best_runs(game.state, company, time_budget=2.0)
    assert best.proven_optimal
    for choose in attachment_actions(game.state, company, best.runs):
        game.process(choose)
    with given_most(game.state, best):
        game.process(best.to_action(company))
    return str(game.state.log[-1])


def test_an_attached_extender_keeps_the_pullman_off_its_train() -> None:
    game = kept_position("usa_extender_then_pullman")
    rnd = game.state.round
    assert isinstance(rnd, UsaOperatingRound) and rnd.attachments == {"P30": "3-2"}
    assert [train.name for train in game.state.corporations["B&O"].trains] == ["3", "P"]
    best = best_runs(game.state, "B&O", time_budget=2.0)
    assert [run.attachments for run in best.runs] == [("P30",)] and best.total == 200
    assert run_the_proposal(game, "B&O") == "B&O runs for $200"


def test_a_switcher_run_counts_two_stops() -> None:
    game = kept_position("usa_switcher_one_counted_stop")
    best = best_runs(game.state, "SR", time_budget=2.0)
    assert all(len([hex_ for hex_ in run.hexes if hex_ != "F28"]) >= 2 for run in best.runs)
    assert run_the_proposal(game, "SR") == f"SR runs for ${best.total}"


def test_an_attached_pullman_rides_its_own_train() -> None:
    """109372 before action 1431: ATSF's Pullman is attached to its 5-train, which runs five
    stops, +$20 each. (The change above once kept the Pullman off its own train: $460.)"""
    game = position_in("109372", 1431)
    game.importing = False
    assert isinstance(game.round, UsaOperatingRound) and game.round.attachments == {"P": "5-2"}
    best = best_runs(game, "ATSF", time_budget=2.0)
    assert best.proven_optimal and [run.attachments for run in best.runs] == [("P",)]
    assert best.total == 560
    with given_most(game, best):
        game.process(best.to_action("ATSF"))
    assert game.log[-1] == "ATSF runs for $560"

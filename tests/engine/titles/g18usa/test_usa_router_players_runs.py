"""The route optimizer earns at least what the players' own runs earned (issue 12), at late
positions of the fixture where it once fell short: 109372 action 1246 (PRR's two 4-trains, the
extender already chosen for one) and 1441 (B&O's 8- and 6-train on a crowded late map).

Each position is the logged game replayed up to the run; what the players' runs earn is what the
title's own run check makes of the logged routes, which must be the revenue the site recorded
(a rule missing from our scoring would show there, not as a weak optimizer).
"""

from __future__ import annotations

import pytest
from usa_positions import log_named, logged_action
from usa_tracecheck import position_in, start

from engine.core.most_earnings import _engine_agrees, best_runs
from engine.titles.g18usa.game import G18USA
from engine.titles.g18usa.operating import UsaOperatingRound
from engine.titles.g18usa.operating_trains import check_runs

LOG = "109372"
BUDGET = 3.0  # seconds; the answers below come within the usual 2 s, this leaves room for a loaded machine


@pytest.mark.parametrize("index", [1246, 1441])
def test_the_optimizer_earns_at_least_what_the_players_runs_earned(index: int) -> None:
    game = position_in(LOG, index)
    action = logged_action(LOG, index)
    assert action["type"] == "run_routes"
    assert isinstance(game, G18USA) and isinstance(game.round, UsaOperatingRound)
    corp = game.corporations[action["entity"]]
    recorded = sum(int(route["revenue"]) for route in action["routes"])
    game.importing = False  # score the logged routes by our rules, not the log's figures
    players = check_runs(game, corp, game.round, tuple(action["routes"]))
    assert sum(run.revenue for run in players) == recorded
    game.importing = True

    result = best_runs(game, corp, time_budget=BUDGET)

    assert result.total >= recorded, (result.total, recorded, result.method)
    assert result.engine_disagreements == 0 and _engine_agrees(game, corp, result)


def test_one_train_runs_earn_at_least_the_players_all_through_the_late_game() -> None:
    """Every fourth one-train run of 109372 from action 900 on (Pullmans, extenders and switchers
    attached before running included), in one replay: the optimizer's answer is accepted by the
    engine's own check and earns at least what the players declared."""
    log = log_named(LOG)
    game = start(log)
    checked = 0
    for index, action in enumerate(log["actions"]):
        corp = game.corporations.get(str(action.get("entity")))
        if action["type"] == "run_routes" and index >= 900 and corp is not None and len(action["routes"]) == 1:
            checked += 1
            if checked % 4 == 0:
                declared = sum(int(route["revenue"]) for route in action["routes"])
                result = best_runs(game, corp, time_budget=BUDGET)
                assert result.engine_disagreements == 0 and _engine_agrees(game, corp, result), index
                assert result.total >= declared, (index, result.total, declared)
        game.apply(action)
    assert checked >= 36  # one-train runs seen; every fourth solved

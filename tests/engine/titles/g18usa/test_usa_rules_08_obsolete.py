"""18USA rule 8 (glossary "Obsolete"): an obsolete train rusts at the end of its company's next
run — on the site after that run's dividend, so it still counts for the payout.

The position: a real game where phase 4 has made PRR's 2+-train obsolete; PRR runs it.
"""

from __future__ import annotations

from usa_positions import logged_action
from usa_tracecheck import position_in

LOG = "s8405"
PRR_RUNS = 521  # the run_routes action


def test_the_obsolete_train_is_kept_through_its_run_and_gone_after_the_dividend() -> None:
    game = position_in(LOG, PRR_RUNS)
    prr = game.corporations["PRR"]
    assert [train.name for train in prr.trains] == ["2+"] and prr.trains[0].id in game.obsolete_trains
    game.apply(logged_action(LOG, PRR_RUNS))
    assert [train.name for train in prr.trains] == ["2+"]
    game.apply(logged_action(LOG, PRR_RUNS + 1))  # the dividend
    assert prr.trains == [] and not game.obsolete_trains & {"2+-0"}

"""18USA rule 8 (glossary "Obsolete"): an obsolete train rusts at the end of its company's next
run — on the site after that run's dividend, so it still counts for the payout.

The position: a real game where phase 4 has made PRR's 2+-train obsolete; PRR runs it.
"""

from __future__ import annotations

from typing import Any

from usa_logs import LOGS, read_log
from usa_tracecheck import start

LOG = next(path for path, _ in LOGS if path.stem.endswith("s8405"))
PRR_RUNS = 521  # the run_routes action


def position(actions: int) -> Any:
    log = read_log(LOG)
    game = start(log)
    for action in log["actions"][:actions]:
        game.apply(action)
    return game, log["actions"]


def test_the_obsolete_train_is_kept_through_its_run_and_gone_after_the_dividend() -> None:
    game, actions = position(PRR_RUNS)
    prr = game.corporations["PRR"]
    assert [train.name for train in prr.trains] == ["2+"] and prr.trains[0].id in game.obsolete_trains
    game.apply(actions[PRR_RUNS])
    assert [train.name for train in prr.trains] == ["2+"]
    game.apply(actions[PRR_RUNS + 1])  # the dividend
    assert prr.trains == [] and not game.obsolete_trains & {"2+-0"}

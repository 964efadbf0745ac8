"""Issue 31, clarity, through a real `stationmaster play` process on logged positions:

- an 18xx.games run_routes pasted as `/action json:` may carry `extra_revenue` and, in 18USA,
  `subsidy`: taken when they equal what the engine works out, refused with the engine's figure
  when they differ (and `subsidy` is no part of an 18Texas run);
- a loan taken or repaid says the share price move, in the reply and in /game log, as a
  dividend does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_helpers import ROOT, imported_at, pasted, play
from hostile_inputs import database_rows

from engine import load_game
from engine.describe import share_prices

FIXTURES = ROOT / "tests" / "data" / "fixtures"
USA_FIRST_LOAN, USA_FIRST_RUN, USA_FIRST_REPAYMENT = 144, 227, 313  # action indexes in 18USA 109372
TEXAS_FIRST_RUN = 45  # in 18Texas 65394


def _pasting(tmp_path: Path, log: str, index: int, accepted: dict[str, Any],
             *variants: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """The logged run at ``index`` pasted with each variant of the site's figures by the running
    company's president, on a store at that point: what was answered (the store unchanged by it),
    what the same run with the ``accepted`` figures got, and the run."""
    log_path = FIXTURES / log
    db, document = imported_at(tmp_path, log_path, index)
    logged = json.loads(log_path.read_text())["actions"][index]
    president = load_game(document).state.corporations[logged["entity"]].president().name
    before = database_rows(db)
    refused = play(db, *(f"@{president} /action json:{variant.pop('raw', None) or pasted(logged, **variant)}"
                         for variant in variants))
    assert database_rows(db) == before
    ran = play(db, f"@{president} /action json:{pasted(logged, **accepted)}")
    return refused, ran, logged


def test_a_pasted_18usa_run_with_the_sites_figures(tmp_path: Path) -> None:
    refused, ran, logged = _pasting(tmp_path, "18USA/109372.json", USA_FIRST_RUN, {"extra_revenue": 0, "subsidy": 0},
                                    {"extra_revenue": 10, "subsidy": 0}, {"extra_revenue": 0, "subsidy": 30},
                                    {"extra_revenue": True})
    assert ("error: extra_revenue is 10, but the engine works out 0 for SP's run now; send 0, or leave it out."
            in refused)
    assert "error: subsidy is 30, but the engine works out 0 for SP's run now; send 0, or leave it out." in refused
    assert "error: extra_revenue is true, but the engine works out 0" in refused
    total = sum(route["revenue"] for route in logged["routes"])
    assert f"SP runs for ${total}" in ran and "error" not in ran, ran


def test_a_pasted_18texas_run_takes_no_subsidy(tmp_path: Path) -> None:
    refused, ran, _ = _pasting(tmp_path, "18Texas/65394.json", TEXAS_FIRST_RUN, {"extra_revenue": 0}, {"subsidy": 0},
                               {"extra_revenue": 20},
                               {"raw": json.dumps({"type": "pass", "extra_revenue": 0})})
    assert "error: subsidy is not part of a run in 18Texas; send the run without it." in refused
    assert "error: extra_revenue is 20, but the engine works out 0 for SP's run now" in refused
    assert "error: extra_revenue is not taken: it belongs to a run_routes action" in refused
    assert "SP runs for $" in ran and "error" not in ran, ran


def _price_words(document: dict[str, Any], logged: dict[str, Any]) -> str:
    before = share_prices(load_game(document).state)
    after = share_prices(load_game({**document, "actions": document["actions"] + [logged]}).state)
    corporation = logged["entity"]
    assert after[corporation] != before[corporation]
    return f"{corporation} share price ${before[corporation]} → ${after[corporation]}"


def test_a_loan_taken_or_repaid_says_the_share_price_move(tmp_path: Path) -> None:
    actions = json.loads((FIXTURES / "18USA/109372.json").read_text())["actions"]
    for upto, word in ((USA_FIRST_LOAN, "loan"), (USA_FIRST_REPAYMENT, "repay")):
        db, document = imported_at(tmp_path, FIXTURES / "18USA/109372.json", upto)
        logged = actions[upto]
        president = load_game(document).state.corporations[logged["entity"]].president().name
        moved = _price_words(document, logged)
        out = play(db, f"@{president} /{word} corporation:{logged['entity']}", "/game log lines:3")
        assert "error" not in out and out.count(f"{moved}\n") == 2, out  # the move's reply, then /game log

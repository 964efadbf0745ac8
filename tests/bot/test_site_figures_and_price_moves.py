"""Issue 31, clarity, through a real `stationmaster play` process on logged positions:

- an 18xx.games run_routes pasted as `/action json:` may carry `extra_revenue` and, in 18USA,
  `subsidy`: taken when they equal what the engine works out, refused with the engine's figure
  when they differ (and `subsidy` is no part of an 18Texas run);
- a loan taken or repaid says the share price move, in the reply and in /game log, as a
  dividend does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from hostile_inputs import database_rows

from engine import load_game
from engine.describe import share_prices

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "data" / "fixtures"
STATIONMASTER = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
USA_FIRST_LOAN, USA_FIRST_RUN, USA_FIRST_REPAYMENT = 144, 227, 313  # action indexes in 18USA 109372
TEXAS_FIRST_RUN = 45  # in 18Texas 65394


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    return env


def imported_at(tmp_path: Path, fixture: str, upto: int) -> tuple[Path, dict[str, Any]]:
    """A store holding the fixture's first ``upto`` actions as game 1, and that document."""
    document = json.loads((FIXTURES / fixture).read_text())
    document["actions"] = document["actions"][:upto]
    document.pop("result", None)
    log = tmp_path / f"prefix{upto}.json"
    log.write_text(json.dumps(document))
    db = tmp_path / f"game{upto}.db"
    done = subprocess.run(STATIONMASTER + ["import", str(log), "--db", str(db)], capture_output=True, timeout=180,
                          cwd=ROOT, env=_env())
    assert done.returncode == 0, done.stderr
    return db, document


def play(db: Path, *lines: str) -> str:
    done = subprocess.run(STATIONMASTER + ["play", "--game", "1", "--db", str(db), "--images", "none"],
                          input=("\n".join(lines) + "\n").encode(), capture_output=True, timeout=300, cwd=ROOT,
                          env=_env())
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr.decode()
    return done.stdout.decode()


def pasted(action: dict[str, Any], **figures: Any) -> str:
    kept = {k: v for k, v in action.items() if k not in ("id", "created_at", "original_id")}
    return json.dumps({**kept, **figures})


def test_a_pasted_18usa_run_with_the_sites_figures(tmp_path: Path) -> None:
    db, document = imported_at(tmp_path, "18USA/109372.json", USA_FIRST_RUN)
    logged = json.loads((FIXTURES / "18USA/109372.json").read_text())["actions"][USA_FIRST_RUN]
    president = load_game(document).state.corporations[logged["entity"]].president().name
    before = database_rows(db)
    refused = play(db, f"@{president} /action json:{pasted(logged, extra_revenue=10, subsidy=0)}",
                   f"@{president} /action json:{pasted(logged, extra_revenue=0, subsidy=30)}",
                   f"@{president} /action json:{pasted(logged, extra_revenue=True)}")
    assert ("error: extra_revenue is 10, but the engine works out 0 for SP's run now; send 0, or leave it out."
            in refused)
    assert "error: subsidy is 30, but the engine works out 0 for SP's run now; send 0, or leave it out." in refused
    assert "error: extra_revenue is true, but the engine works out 0" in refused
    assert database_rows(db) == before
    ran = play(db, f"@{president} /action json:{pasted(logged, extra_revenue=0, subsidy=0)}")
    total = sum(route["revenue"] for route in logged["routes"])
    assert f"SP runs for ${total}" in ran and "error" not in ran, ran


def test_a_pasted_18texas_run_takes_no_subsidy(tmp_path: Path) -> None:
    db, document = imported_at(tmp_path, "18Texas/65394.json", TEXAS_FIRST_RUN)
    logged = json.loads((FIXTURES / "18Texas/65394.json").read_text())["actions"][TEXAS_FIRST_RUN]
    president = load_game(document).state.corporations[logged["entity"]].president().name
    before = database_rows(db)
    refused = play(db, f"@{president} /action json:{pasted(logged, subsidy=0)}",
                   f"@{president} /action json:{pasted(logged, extra_revenue=20)}",
                   f"@{president} /action json:" + json.dumps({"type": "pass", "extra_revenue": 0}))
    assert "error: subsidy is not part of a run in 18Texas; send the run without it." in refused
    assert "error: extra_revenue is 20, but the engine works out 0 for SP's run now" in refused
    assert "error: extra_revenue is not taken: it belongs to a run_routes action" in refused
    assert database_rows(db) == before
    ran = play(db, f"@{president} /action json:{pasted(logged, extra_revenue=0)}")
    assert "SP runs for $" in ran and "error" not in ran, ran


def _price_words(document: dict[str, Any], logged: dict[str, Any]) -> str:
    before = share_prices(load_game(document).state)
    after = share_prices(load_game({**document, "actions": document["actions"] + [logged]}).state)
    corporation = logged["entity"]
    assert after[corporation] != before[corporation]
    return f"{corporation}'s share price ${before[corporation]} → ${after[corporation]}"


def test_a_loan_taken_or_repaid_says_the_share_price_move(tmp_path: Path) -> None:
    actions = json.loads((FIXTURES / "18USA/109372.json").read_text())["actions"]
    for upto, word in ((USA_FIRST_LOAN, "loan"), (USA_FIRST_REPAYMENT, "repay")):
        db, document = imported_at(tmp_path, "18USA/109372.json", upto)
        logged = actions[upto]
        president = load_game(document).state.corporations[logged["entity"]].president().name
        moved = _price_words(document, logged)
        out = play(db, f"@{president} /{word} corporation:{logged['entity']}", "/game log lines:3")
        assert "error" not in out and out.count(f"{moved}\n") == 2, out  # the move's reply, then /game log

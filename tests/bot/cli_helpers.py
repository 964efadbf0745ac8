"""Real `stationmaster` processes for the tests of the command line and the terminal: the
command, its environment (no Discord token), a run whose output is text, a terminal session on a
stored game, and a store holding the first actions of a log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STATIONMASTER = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]


def cli_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISCORD_TOKEN", None)
    return env


def run_cli(*args: str, stdin: bytes = b"", cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The process's exit status and its output as text, whatever it printed."""
    done = subprocess.run(STATIONMASTER + list(args), input=stdin, capture_output=True, timeout=300,
                          cwd=cwd or ROOT, env=cli_env())
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def cli(*args: str, stdin: str = "") -> str:
    """The output of a run that must succeed, with no traceback."""
    done = run_cli(*args, stdin=stdin.encode())
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


def play(db: Path, *lines: str, game: int = 1) -> str:
    """A terminal session on a stored game, the lines typed one after the other."""
    return cli("play", "--game", str(game), "--db", str(db), "--images", "none", stdin="\n".join(lines) + "\n")


def imported_at(tmp_path: Path, log: Path, upto: int) -> tuple[Path, dict[str, Any]]:
    """A store holding the log's first ``upto`` actions as game 1, and that document."""
    document = json.loads(log.read_text())
    document["actions"] = document["actions"][:upto]
    document.pop("result", None)
    prefix, db = tmp_path / f"{log.stem}-{upto}.json", tmp_path / f"{log.stem}-{upto}.db"
    prefix.write_text(json.dumps(document))
    assert cli("import", str(prefix), "--db", str(db)).strip() == "1"
    return db, document


def pasted(action: dict[str, Any], **fields: Any) -> str:
    """A logged action as a player pastes it into /action json: (the site's numbering left out)."""
    return json.dumps({**{k: v for k, v in action.items() if k not in ("id", "created_at", "original_id")},
                       **fields})

"""Helpers shared by the storage tests (a uniquely named module, so it cannot be confused
with another directory's conftest)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from engine import document_options
from storage import NewGame, NewSeat

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURE = REPO_ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def load_fixture() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def fixture_game(doc: dict[str, Any]) -> tuple[NewGame, list[NewSeat]]:
    """The fixture's game row and seats, as the bot would create them."""
    game = NewGame(
        title=doc["title"],
        seed=doc["settings"]["seed"],
        # The explicit rule options the log was played by (a site log: the site's readings).
        options=tuple(document_options(doc)),
        status="active",
    )
    seats = [NewSeat(player_id=p["id"], display_name=p["name"]) for p in doc["players"]]
    return game, seats


def minimal_game() -> tuple[NewGame, list[NewSeat]]:
    return NewGame(title="18Texas", seed=1, status="active"), [NewSeat("P1", "P1")]


def db_contents(path: Path) -> dict[str, Any]:
    """Every row of every table plus the schema version: equal before and after means the
    database is unchanged. Read with the sqlite3 module, independent of the code under test."""
    if not path.exists():
        return {}
    conn = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        contents: dict[str, Any] = {
            "user_version": conn.execute("PRAGMA user_version").fetchone()[0],
            "schema": conn.execute(
                "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"
            ).fetchall(),
        }
        for table in tables:
            contents[table] = sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr)
        return contents
    finally:
        conn.close()

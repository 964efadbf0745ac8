"""What opening a SQLite store costs now that it is checked first (issue 31 item 1): the time of
``SqliteGameRepository.open`` on stores of 1, 100 and 800 copies of fixture 65394 (459 actions
each), and of the check alone (``PRAGMA quick_check``, every page read).

    python bench/store_open.py [--runs 5] [--games 1,100,800]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from contextlib import closing
from pathlib import Path

from storage import SqliteGameRepository
from storage.cli import import_game

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def make_store(path: Path, games: int) -> None:
    """One imported game, then copies of its rows (an import replays; a copy is enough here)."""
    import_game(FIXTURE, path)
    with closing(sqlite3.connect(path)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] != "id"]
        for _ in range(games - 1):
            conn.execute(f"INSERT INTO games ({', '.join(columns)}) SELECT {', '.join(columns)} FROM games "
                         "WHERE id = 1")
            (new_id,), = conn.execute("SELECT MAX(id) FROM games")
            conn.execute("INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) "
                         "SELECT ?, seq, action, actor_user_id, created_at FROM actions WHERE game_id = 1",
                         (new_id,))
        conn.commit()
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def open_seconds(path: Path) -> float:
    start = time.perf_counter()
    repo = await SqliteGameRepository.open(path)
    seconds = time.perf_counter() - start
    await repo.close()
    return seconds


def check_seconds(path: Path) -> float:
    with closing(sqlite3.connect(path)) as conn:
        start = time.perf_counter()
        conn.execute("PRAGMA quick_check(1)").fetchall()
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", default="1,100,800")
    args = parser.parse_args()
    print("games  MB      open median  quick_check median")
    with tempfile.TemporaryDirectory() as folder:
        for games in (int(n) for n in args.games.split(",")):
            path = Path(folder) / f"store{games}.db"
            make_store(path, games)
            opens = [asyncio.run(open_seconds(path)) for _ in range(args.runs)]
            checks = [check_seconds(path) for _ in range(args.runs)]
            print(f"{games:5d}  {path.stat().st_size / 1e6:6.1f}  {statistics.median(opens):9.3f} s  "
                  f"{statistics.median(checks):9.3f} s")


if __name__ == "__main__":
    main()

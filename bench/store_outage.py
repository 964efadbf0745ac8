"""How the PostgreSQL store rides out a server restart and a frozen game holder.

    python bench/store_outage.py [--rounds 5]

Starts a throwaway server (tests/pg_server.py) and, on one repository (its connection pool):
- stops the server, and times how long a command takes to be told the store is unavailable;
- starts the server again, and times from "ready" to the first command served (the pool makes
  new connections by itself);
- holds a game's lock on another connection, and times how long a command waits for it
  before it is told the game is busy (the bound, ``LOCK_WAIT``).
Prints the median and worst of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import asyncpg  # noqa: E402
from pg_server import PostgresServer  # noqa: E402

from storage import GameBusy, NewGame, NewSeat, StoreUnavailable, open_repository  # noqa: E402
from storage.pg_migrate import GAME_LOCK_NAMESPACE  # noqa: E402


async def rounds(server: PostgresServer, count: int) -> dict[str, list[float]]:
    repo = await open_repository(server.url())
    times: dict[str, list[float]] = {"told unavailable": [], "served again": [], "told busy": []}
    try:
        game_id = await repo.create_game(NewGame("18Texas", 1, status="active"),
                                         [NewSeat(n, name) for n, name in enumerate("abc", 1)])
        for _ in range(count):
            await repo.game_head(game_id)
            server.halt()
            began = time.perf_counter()
            try:
                await repo.game_head(game_id)
            except StoreUnavailable:
                times["told unavailable"].append(time.perf_counter() - began)
            server.resume()
            began = time.perf_counter()
            while True:
                try:
                    await repo.game_head(game_id)
                    break
                except StoreUnavailable:
                    await asyncio.sleep(0.01)
            times["served again"].append(time.perf_counter() - began)
            holder = await asyncpg.connect(server.url())
            await holder.execute("SELECT pg_advisory_lock($1, $2)", GAME_LOCK_NAMESPACE, game_id)
            began = time.perf_counter()
            try:
                async with repo.game_lock(game_id):
                    pass
            except GameBusy:
                times["told busy"].append(time.perf_counter() - began)
            await holder.close()
    finally:
        await repo.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    server = PostgresServer.start()
    try:
        times = asyncio.run(rounds(server, args.rounds))
    finally:
        server.stop()
    for what, values in times.items():
        print(f"{what}: median {statistics.median(values) * 1000:.0f} ms, worst {max(values) * 1000:.0f} ms "
              f"({len(values)} of {args.rounds})")


if __name__ == "__main__":
    main()

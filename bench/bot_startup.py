"""Bot start-up with many stored games, and memory after touching long ones (issue 9 item 6).

Fills a database with ``--games`` copies of fixture 65394 (459 actions each, all active, as
imports are stored), then times the real discord.py bot against the local fake Discord server
from construction to connected (commands synced, reminders planned); then loads ``--touch``
games as a command would and reports the process's RSS. Start-up must stay under 2 s with
1,000 games: no game is replayed before the bot connects.

    python bench/bot_startup.py [--games 1000] [--touch 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"

from fakediscord import FakeDiscord, pointed_at, running_bot  # noqa: E402

from storage import NewGame, NewSeat, SqliteGameRepository  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def fill(db: Path, games: int) -> None:
    from engine import document_options

    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    options = tuple(document_options(document))
    seats = [NewSeat(p["id"], p["name"]) for p in document["players"]]
    actions = [(a, None) for a in document["actions"]]
    async with await SqliteGameRepository.open(db) as repo:
        for number in range(games):
            await repo.create_game(NewGame("18Texas", document["settings"]["seed"], options, "active",
                                           thread_id=10_000 + number), seats, actions=actions)


async def run(games: int, touch: int) -> None:
    before = time.perf_counter()
    from bot.config import Settings
    from bot.discord.client import StationmasterBot
    from bot.moderator import Moderator

    print(f"importing the bot (discord.py, engine, render views): {time.perf_counter() - before:.2f} s")

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "games.db"
        started = time.perf_counter()
        await fill(db, games)
        print(f"filled {games} games of 459 actions in {time.perf_counter() - started:.1f} s "
              f"({db.stat().st_size / 1e6:.0f} MB)")
        async with FakeDiscord() as fake:
            with pointed_at(fake):
                for attempt in range(2):  # the second start has the database file in the page cache
                    before = time.perf_counter()
                    repo = await SqliteGameRepository.open(db)
                    moderator = Moderator(repo, images=False)
                    bot = StationmasterBot(Settings(db_path=str(db), guild_ids=(fake.guild.id,)), moderator)
                    async with running_bot(fake, bot):
                        connected = time.perf_counter() - before
                        jobs = len(await repo.list_reminder_dues())
                        print(f"start {attempt + 1}: connected in {connected:.2f} s with {jobs} reminders planned, "
                              f"RSS {rss_mb():.0f} MB")
                        if attempt == 1:
                            before = time.perf_counter()
                            for game_id in range(1, touch + 1):
                                await moderator.sessions.get(game_id)
                            print(f"touched {touch} games in {time.perf_counter() - before:.1f} s: "
                                  f"RSS {rss_mb():.0f} MB")
                    await repo.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--touch", type=int, default=50)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    asyncio.run(run(args.games, args.touch))


if __name__ == "__main__":
    main()

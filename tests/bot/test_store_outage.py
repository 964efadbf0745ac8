"""The database going away (issue 31, item 9): a PostgreSQL server stopped and started again
under a running `stationmaster play` and a running `stationmaster bot` (the real discord.py
client against the test's fake Discord), both on one game.

Moves in flight when the server stops, and every command while it is down, are answered "the
game store is unavailable; try again in a moment"; neither process ends or prints a traceback;
once the server is back both go on (their connection pools reconnect), the reminder that fell
due meanwhile is posted once, the bot's change feed listens again, and the store holds exactly
the moves that were acknowledged.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from fakediscord import FakeDiscord
from live_processes import Terminal, hold_game_lock, lock_waiters, no_traceback, until
from multiproc_helpers import WAIT, BotProcesses, reminders_in, waiting_games
from pg_server import PostgresServer, ServerUnavailable

from storage import open_repository

UNAVAILABLE = "The game store is unavailable; try again in a moment."


@pytest.fixture
def own_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, since the test stops it."""
    try:
        server = PostgresServer.start()
    except ServerUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    if server.external_url is not None:
        pytest.fail("this test stops and starts its PostgreSQL server, which a server given by "
                    "STATIONMASTER_TEST_POSTGRES_URL cannot be", pytrace=False)
    yield server
    server.stop()


async def reminder_due_soon(conn: asyncpg.Connection, game_id: int, seconds: float) -> int:
    """Make the game's first reminder fall due ``seconds`` from now (its position last changed a
    quarter hour, its first reminder's delay, before that); returns the due time."""
    due = int(time.time() + seconds) + 1
    await conn.execute("UPDATE games SET updated_at = $1 WHERE id = $2", due - 900, game_id)
    await conn.execute("UPDATE reminder_due SET due_at = $1, claimed_by = NULL, claim_until = NULL"
                       " WHERE game_id = $2", due, game_id)
    return due


async def test_a_database_restart_under_a_terminal_and_a_bot(fake_discord: FakeDiscord, tmp_path: Path,
                                                             own_server: PostgresServer) -> None:
    fake = fake_discord
    url = own_server.url("postgres")
    (channel,) = await waiting_games(url, fake, fake.guild, count=1, first_due_in=3600, spacing=0)
    users = {u.username: u for u in fake.guild.members.values()}
    bots = BotProcesses(fake, tmp_path, url, [fake.guild])
    bot_log = tmp_path / "bot.log"
    await bots.start(log=bot_log)
    terminal = await Terminal.start("--game", "1", "--db", url)
    try:
        await terminal.expect("18Texas game #1 (active)")
        await terminal.expect("alice bids $50 for BBBCRC", await terminal.send("@alice /bid company:BBBCRC price:50"))

        # Two moves in flight (waiting for the game, which another session holds) when the server stops.
        holder = await hold_game_lock(url, 1)
        typed = await terminal.send("@bob /bid company:GRRRC price:80")
        clicked = await fake.invoke_slash(users["bob"], "bid", options={"company": "GRRRC", "price": 80},
                                          channel=channel)
        await lock_waiters(url, 1, count=2)
        due = await reminder_due_soon(holder, 1, seconds=1)
        own_server.halt()
        holder.terminate()
        await terminal.expect(f"error: {UNAVAILABLE}", typed)
        answer = (await clicked.wait_message(timeout=WAIT)).content
        assert UNAVAILABLE in answer, (answer, bot_log.read_text()[-4000:])

        # While it is down: every command is answered, nothing ends.
        await terminal.expect(f"error: {UNAVAILABLE}", await terminal.send("@bob /bid company:GRRRC price:80"))
        await terminal.expect(f"error: {UNAVAILABLE}", await terminal.send("/game status"))
        status = await fake.invoke_slash(users["carol"], "game", "status", channel=channel)
        assert UNAVAILABLE in (await status.wait_message(timeout=WAIT)).content
        assert terminal.process.returncode is None and all(p.returncode is None for p in bots.running)
        await asyncio.sleep(max(0.0, due + 0.5 - time.time()))  # the reminder falls due in the outage

        own_server.resume()
        # The reminder that fell due meanwhile goes out once, and the change feed listens again.
        await fake.wait_for(lambda: reminders_in(fake, channel), timeout=WAIT, what="the reminder due in the outage")
        await until(lambda: "change feed: reconnected" in bot_log.read_text(), WAIT, lambda: bot_log.read_text())
        await terminal.expect("bob bids $80 for GRRRC", await terminal.send("@bob /bid company:GRRRC price:80"))
        move = await fake.invoke_slash(users["carol"], "bid", options={"company": "BBBCRC", "price": 55},
                                       channel=channel)
        await fake.wait_for(lambda: any("carol bids $55 for BBBCRC" in m.content for m in fake.messages_in(channel)),
                            timeout=WAIT, what="carol's bid in the thread")
        assert move.record.failure is None
        (reminder,) = reminders_in(fake, channel)
        assert f"<@{users['bob'].id}>" in reminder.content, reminder.content

        assert await terminal.finish() == 0
    finally:
        await terminal.kill()
        await bots.stop_all()
    no_traceback(terminal.text, terminal.errors, bot_log.read_text())
    repo = await open_repository(url)
    try:
        stored: list[dict[str, Any]] = [a.action for a in (await repo.load_game(1)).actions]
    finally:
        await repo.close()
    assert [(a["type"], a["company"], a["price"]) for a in stored] == [
        ("bid", "BBBCRC", 50), ("bid", "GRRRC", 80), ("bid", "BBBCRC", 55)]

"""A process that holds a game and freezes (issue 31, item 10): a bot process takes a game's
lock as a move does and is stopped with SIGSTOP. A move typed in `stationmaster play` and one
sent to `stationmaster bot` (the real discord.py client against the test's fake Discord), both
on the same PostgreSQL database, wait a few seconds for the game, then tell the player the
game is busy; nothing is stored, neither process ends or prints a traceback, and once the
frozen process is gone the same move is made.
"""

from __future__ import annotations

import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from live_processes import Terminal, no_traceback
from multiproc_helpers import (
    WAIT,
    BotProcesses,
    Worker,
    create_database,
    drop_database,
    waiting_games,
)

from storage import open_repository
from storage.postgres import LOCK_WAIT

BUSY = f"Game #1 is busy: another process has held it for more than {LOCK_WAIT:g} s (it may be stuck)"


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


async def stored_moves(url: str) -> list[tuple[str, str, int]]:
    repo = await open_repository(url)
    try:
        return [(a.action["type"], a.action["company"], a.action["price"])
                for a in (await repo.load_game(1)).actions]
    finally:
        await repo.close()


async def test_moves_wait_a_few_seconds_for_a_frozen_holder_then_hear_the_game_is_busy(
        fake_discord: FakeDiscord, tmp_path: Path, pg_url: str) -> None:
    fake = fake_discord
    (channel,) = await waiting_games(pg_url, fake, fake.guild, count=1, first_due_in=3600, spacing=0)
    alice = next(u for u in fake.guild.members.values() if u.username == "alice")
    bots = BotProcesses(fake, tmp_path, pg_url, [fake.guild])
    bot_log = tmp_path / "bot.log"
    await bots.start(log=bot_log)
    terminal = await Terminal.start("--game", "1", "--db", pg_url)
    holder = await Worker.start(pg_url, 1)
    try:
        await terminal.expect("18Texas game #1 (active)")
        assert await holder.ask({"hold": True}) == {"held": True}
        holder.process.send_signal(signal.SIGSTOP)

        began = time.monotonic()
        typed = await terminal.send("@alice /bid company:BBBCRC price:50")
        clicked = await fake.invoke_slash(alice, "bid", options={"company": "BBBCRC", "price": 50}, channel=channel)
        answer = await terminal.expect(BUSY, typed)
        assert (await clicked.wait_message(timeout=WAIT)).content.startswith(BUSY)
        waited = time.monotonic() - began
        # Bounded (with room for a busy machine), and not refused at once.
        assert LOCK_WAIT - 0.5 < waited < LOCK_WAIT + WAIT, waited
        assert answer.startswith("error: " + BUSY) and "alice bids" not in answer, answer
        assert await stored_moves(pg_url) == []
        assert terminal.process.returncode is None and all(p.returncode is None for p in bots.running)

        # The frozen process dies (its connection, and the game's lock with it, go): moves go on.
        holder.process.send_signal(signal.SIGCONT)
        await holder.kill()
        await terminal.expect("alice bids $50 for BBBCRC", await terminal.send("@alice /bid company:BBBCRC price:50"))
        bob = next(u for u in fake.guild.members.values() if u.username == "bob")
        move = await fake.invoke_slash(bob, "bid", options={"company": "GRRRC", "price": 80}, channel=channel)
        await fake.wait_for(lambda: any("bob bids $80 for GRRRC" in m.content for m in fake.messages_in(channel)),
                            timeout=WAIT, what="bob's bid in the thread")
        assert move.record.failure is None
        assert await terminal.finish() == 0
    finally:
        if holder.process.returncode is None:
            holder.process.send_signal(signal.SIGCONT)
            await holder.kill()
        await terminal.kill()
        await bots.stop_all()
    no_traceback(terminal.text, terminal.errors, bot_log.read_text())
    assert await stored_moves(pg_url) == [("bid", "BBBCRC", 50), ("bid", "GRRRC", 80)]

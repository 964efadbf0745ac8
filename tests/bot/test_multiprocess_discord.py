"""`stationmaster bot` processes sharing one PostgreSQL database, each a real discord.py
client (an AutoShardedBot) against the FakeDiscord of the test (issue 14).

- Reminders fire exactly once over three processes while processes are SIGKILLed and
  replaced: a reminder claimed by a process that died is taken over when its claim runs out,
  and one it had already sent is not posted again (the message nonce Discord enforces).
- Sharding: each process runs one shard of two; a guild's commands reach the process holding
  its shard, and that process alone sends the guild's reminders.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from multiproc_helpers import (
    LEASE,
    WAIT,
    BotProcesses,
    create_database,
    drop_database,
    reminders_in,
    waiting_games,
)

from storage import open_repository


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


async def test_reminders_fire_exactly_once_over_three_processes_with_sigkills(
        fake_discord: FakeDiscord, tmp_path: Path, pg_url: str) -> None:
    fake = fake_discord
    channels = await waiting_games(pg_url, fake, fake.guild, count=10, first_due_in=3.0, spacing=0.7)
    bots = BotProcesses(fake, tmp_path, pg_url, [fake.guild])
    rng = random.Random(14)
    try:
        for _ in range(3):
            await bots.start()
        # While the reminders fall due, kill a process now and then (never between two
        # statements it chose) and start another in its place.
        for _ in range(4):
            await asyncio.sleep(rng.uniform(0.8, 1.6))
            await bots.kill(rng.choice(bots.running))
            await bots.start()
        await fake.wait_for(lambda: all(reminders_in(fake, c) for c in channels), timeout=WAIT,
                            what="a reminder in every game")
        await asyncio.sleep(2 * LEASE + 1)  # any claim left by a killed process is taken over by now
        counts = [len(reminders_in(fake, c)) for c in channels]
        assert counts == [1] * len(channels), counts
        repo = await open_repository(pg_url)
        try:
            for game_id in range(1, len(channels) + 1):
                (state,) = await repo.list_reminder_states(game_id)  # the player to act, pinged once
                assert state.ping_count == 1, state
        finally:
            await repo.close()
    finally:
        await bots.stop_all()


async def test_each_process_serves_the_guilds_of_its_shard(fake_discord: FakeDiscord, tmp_path: Path,
                                                           pg_url: str) -> None:
    fake = fake_discord
    guilds = [fake.add_guild(f"shard {n} guild", shard=(n, 2)) for n in range(2)]
    games = [await waiting_games(pg_url, fake, guild, count=1, first_due_in=0.0, spacing=0.0)
             for guild in guilds]
    (first,), (second,) = games
    bots = BotProcesses(fake, tmp_path, pg_url, guilds)
    try:
        await bots.start(shard_count=2, shard_ids=[0])
        (session,) = [s for s in fake.gateway.sessions if s.identified.is_set()]
        assert session.shard == (0, 2)
        alice = next(u for u in guilds[0].members.values() if u.username == "alice")
        status = await (await fake.invoke_slash(alice, "game", "status", channel=first)).wait_message(timeout=WAIT)
        assert "18Texas game #1 (active)" in status.content
        await fake.wait_for(lambda: reminders_in(fake, first), timeout=WAIT, what="shard 0's reminder")
        await asyncio.sleep(2.0)  # the other guild's game is due too, but no process holds shard 1
        assert not reminders_in(fake, second)

        await bots.start(shard_count=2, shard_ids=[1])
        assert sorted(s.shard for s in fake.gateway.sessions if s.identified.is_set()) == [(0, 2), (1, 2)]
        await fake.wait_for(lambda: reminders_in(fake, second), timeout=WAIT, what="shard 1's reminder")
        bob = next(u for u in guilds[1].members.values() if u.username == "bob")
        handle = await fake.invoke_slash(bob, "game", "status", channel=second)
        assert fake.gateway.newest_session(guilds[1].id).shard == (1, 2)  # routed to shard 1
        assert "18Texas game #2 (active)" in (await handle.wait_message(timeout=WAIT)).content
        assert [len(reminders_in(fake, c)) for c in (first, second)] == [1, 1]
    finally:
        await bots.stop_all()


class _CrashAfterSending:
    """The store as seen by a process that dies right after a reminder went out: recording
    the ping fails once, so the claim is neither recorded nor settled."""

    def __init__(self, repo: Any) -> None:
        self._repo, self.failed = repo, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self._repo, name)

    async def record_reminder(self, *args: Any, **kwargs: Any) -> Any:
        if not self.failed:
            self.failed = True
            raise ConnectionError("the process died here")
        return await self._repo.record_reminder(*args, **kwargs)


async def test_a_reminder_sent_just_before_a_crash_is_not_posted_again(fake_discord: FakeDiscord,
                                                                       tmp_path: Path) -> None:
    """The claim runs out and the reminder is taken over; the second send carries the same
    nonce, and Discord answers with the first message instead of posting another."""
    from fakediscord import running_bot

    from bot.config import Settings
    from bot.discord.client import StationmasterBot
    from bot.moderator import Moderator

    fake = fake_discord
    url = f"sqlite:///{tmp_path / 'bot.db'}"
    (channel,) = await waiting_games(url, fake, fake.guild, count=1, first_due_in=0.0, spacing=0.0)
    repo = await open_repository(url)
    try:
        bot = StationmasterBot(Settings(database_url=url, guild_ids=(fake.guild.id,), images=False),
                               Moderator(repo, images=False), reminder_poll_seconds=0.2, reminder_lease_seconds=1)
        crashing = _CrashAfterSending(repo)
        bot.reminders.repo = crashing
        async with running_bot(fake, bot):
            await fake.wait_for(lambda: crashing.failed and reminders_in(fake, channel), timeout=WAIT,
                                what="the first attempt")
            await fake.wait_for(lambda: fake.nonces.reused, timeout=WAIT, what="the second attempt")
            await fake.wait_for(lambda: not bot.reminders.stored.get(1, 0) <= time.time(), timeout=WAIT,
                                what="the reminder settled")
            assert len(reminders_in(fake, channel)) == 1
            (state,) = await repo.list_reminder_states(1)
            assert state.ping_count == 1
    finally:
        await repo.close()

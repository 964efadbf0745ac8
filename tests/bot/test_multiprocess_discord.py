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
import signal
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeChannel, FakeDiscord, FakeGuild
from multiproc_helpers import ROOT, create_database, drop_database, environment

from storage import GameSettings, NewGame, NewSeat, open_repository

BOT_PROCESS = Path(__file__).with_name("bot_process.py")
LEASE = 2  # seconds a claimed reminder stays with its process
WAIT = 30.0
FIRST_AFTER = 0.25  # hours: the shortest first reminder a game may have


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


class BotProcesses:
    """`stationmaster bot --config CONFIG` processes pointed at the fake."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path, url: str, guilds: list[FakeGuild]) -> None:
        self.fake, self.tmp_path, self.url, self.guilds = fake, tmp_path, url, guilds
        self.running: list[asyncio.subprocess.Process] = []

    def config(self, shard_count: int | None, shard_ids: list[int] | None) -> Path:
        lines = ["[bot]", f'database_url = "{self.url}"', "images = false",
                 f"guild_ids = [{', '.join(str(g.id) for g in self.guilds)}]"]
        if shard_count is not None:
            lines.append(f"shard_count = {shard_count}")
        if shard_ids is not None:
            lines.append(f"shard_ids = {shard_ids}")
        path = self.tmp_path / f"config-{len(list(self.tmp_path.glob('config-*')))}.toml"
        path.write_text("\n".join(lines) + "\n")
        return path

    async def start(self, shard_count: int | None = None, shard_ids: list[int] | None = None
                    ) -> asyncio.subprocess.Process:
        before = len([s for s in self.fake.gateway.sessions if s.identified.is_set()])
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(BOT_PROCESS), self.fake.api_url, self.fake.ws_url,
            str(self.config(shard_count, shard_ids)), "0.2", str(LEASE),
            cwd=ROOT, env={**environment(), "DISCORD_TOKEN": self.fake.token})
        self.running.append(process)
        await self.fake.wait_for(
            lambda: len([s for s in self.fake.gateway.sessions if s.identified.is_set()]) > before
            or process.returncode is not None, timeout=WAIT, what="the bot process on the gateway")
        assert process.returncode is None, f"the bot process exited with {process.returncode}"
        return process

    async def kill(self, process: asyncio.subprocess.Process) -> None:
        process.send_signal(signal.SIGKILL)
        await process.wait()
        self.running.remove(process)

    async def stop_all(self) -> None:
        for process in list(self.running):
            process.send_signal(signal.SIGTERM)
        for process in list(self.running):
            try:
                await asyncio.wait_for(process.wait(), 10)
            except TimeoutError:
                process.kill()
                await process.wait()
        self.running.clear()


async def waiting_games(url: str, fake: FakeDiscord, guild: FakeGuild, count: int, first_due_in: float,
                        spacing: float) -> list[FakeChannel]:
    """``count`` new 18Texas games in ``guild``, each in a channel of its own, whose first
    reminders fall due ``first_due_in`` seconds from now and every ``spacing`` seconds after."""
    players = [fake.add_user(name, guild=guild) for name in ("alice", "bob", "carol")]
    stamp = [0]
    repo = await open_repository(url, clock=lambda: stamp[0])
    channels = []
    try:
        for number in range(count):
            channel = fake.add_text_channel(f"game-{number}", guild=guild)
            # Its position last changed a quarter hour (less the delay) before now.
            stamp[0] = int(time.time() + first_due_in + number * spacing - FIRST_AFTER * 3600)
            await repo.create_game(
                NewGame("18Texas", 100 + number, status="active", guild_id=guild.id, thread_id=channel.id),
                [NewSeat(n, user.username, user.id) for n, user in enumerate(players, 1)],
                GameSettings(reminder_first_after_hours=FIRST_AFTER, reminder_repeat_hours=24.0))
            channels.append(channel)
    finally:
        await repo.close()
    return channels


def reminders_in(fake: FakeDiscord, channel: FakeChannel) -> list[Any]:
    return [m for m in fake.messages_in(channel) if m.author.id == fake.bot_user.id
            and m.content.startswith("Reminder: ")]


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

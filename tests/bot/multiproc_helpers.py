"""Helpers of the multi-process tests: a database of their own on the test PostgreSQL server,
bot processes (tests/bot/moderator_worker.py) spoken to over pipes, `stationmaster bot`
processes pointed at the test's fake Discord, and games waiting for a reminder."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import asyncpg
from fakediscord import FakeChannel, FakeDiscord, FakeGuild

from storage import GameSettings, NewGame, NewSeat, open_repository

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("moderator_worker.py")
BOT_PROCESS = Path(__file__).with_name("bot_process.py")
ANSWER_WAIT = 60.0  # seconds a process may take to answer (a replay on a busy machine)
LEASE = 2  # seconds a claimed reminder stays with its bot process
WAIT = 30.0  # seconds a bot process may take to come up or answer
FIRST_AFTER = 0.25  # hours: the shortest first reminder a game may have


async def create_database(server: Any) -> tuple[str, str]:
    """(name, URL) of a new empty database on the test server."""
    name = f"multiproc_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return name, server.url(name)


async def drop_database(server: Any, name: str) -> None:
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def environment() -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    return env


class Worker:
    """One bot process running the Moderator on the shared database."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    @classmethod
    async def start(cls, url: str, game_id: int) -> Worker:
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(WORKER), url, str(game_id), cwd=ROOT, env=environment(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        worker = cls(process)
        assert await worker.read() == {"ready": True}
        return worker

    async def send(self, request: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write((json.dumps(request) + "\n").encode())
        await self.process.stdin.drain()

    async def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = await asyncio.wait_for(self.process.stdout.readline(), ANSWER_WAIT)
        if not line:
            raise AssertionError(f"the bot process {self.process.pid} ended (exit {self.process.returncode})")
        answer: dict[str, Any] = json.loads(line)
        return answer

    async def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        await self.send(request)
        return await self.read()

    async def kill(self) -> list[dict[str, Any]]:
        """SIGKILL; returns the answers it had written before it died (acknowledged too)."""
        self.process.send_signal(signal.SIGKILL)
        assert self.process.stdout is not None
        rest = await asyncio.wait_for(self.process.stdout.read(), ANSWER_WAIT)
        await self.process.wait()
        return [json.loads(line) for line in rest.decode().splitlines() if line.strip()]

    async def stop(self) -> None:
        if self.process.returncode is None:
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                await asyncio.wait_for(self.process.wait(), 10)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()


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

    async def start(self, shard_count: int | None = None, shard_ids: list[int] | None = None,
                    log: Path | None = None) -> asyncio.subprocess.Process:
        """A bot process on the gateway; ``log``: a file for what it writes to stderr."""
        before = len([s for s in self.fake.gateway.sessions if s.identified.is_set()])
        errors = open(log, "wb") if log is not None else None  # noqa: SIM115 (the child keeps it)
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable, str(BOT_PROCESS), self.fake.api_url, self.fake.ws_url,
                str(self.config(shard_count, shard_ids)), "0.2", str(LEASE),
                cwd=ROOT, env={**environment(), "DISCORD_TOKEN": self.fake.token}, stderr=errors)
        finally:
            if errors is not None:
                errors.close()
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

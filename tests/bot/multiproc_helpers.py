"""Helpers of the multi-process tests: a database of their own on the test PostgreSQL server,
and bot processes (tests/bot/moderator_worker.py) spoken to over pipes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import uuid
from pathlib import Path
from typing import Any

import asyncpg

ROOT = Path(__file__).resolve().parents[2]
WORKER = Path(__file__).with_name("moderator_worker.py")
ANSWER_WAIT = 60.0  # seconds a process may take to answer (a replay on a busy machine)


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

"""Real processes for the tests of what the store does to the front doors (a database that
stops and comes back, a game held by a frozen process): `stationmaster play` spoken to over
pipes, a PostgreSQL server of the test's own (it is stopped and started again), and a
connection that holds a game's lock as another process would."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import asyncpg
from multiproc_helpers import ROOT, environment

from storage.pg_migrate import GAME_LOCK_NAMESPACE

WAIT = 30.0  # seconds a process may take to answer on a busy machine
STATIONMASTER = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]


@dataclass
class Terminal:
    """A `stationmaster play` process reading lines from a pipe; its output is collected as
    it comes, so a test can wait for an answer and then look at everything it printed."""

    process: asyncio.subprocess.Process
    out: bytearray = field(default_factory=bytearray)
    err: bytearray = field(default_factory=bytearray)
    _readers: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def start(cls, *args: str) -> Terminal:
        process = await asyncio.create_subprocess_exec(
            *STATIONMASTER, "play", "--images", "none", *args, cwd=ROOT, env=environment(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        terminal = cls(process)
        assert process.stdout is not None and process.stderr is not None
        terminal._readers = [asyncio.create_task(terminal._collect(process.stdout, terminal.out)),
                             asyncio.create_task(terminal._collect(process.stderr, terminal.err))]
        return terminal

    @staticmethod
    async def _collect(stream: asyncio.StreamReader, into: bytearray) -> None:
        while chunk := await stream.read(4096):
            into.extend(chunk)

    @property
    def text(self) -> str:
        return self.out.decode(errors="replace")

    @property
    def errors(self) -> str:
        return self.err.decode(errors="replace")

    async def send(self, line: str) -> int:
        """Type a line; returns where its answer starts in ``text``."""
        mark = len(self.text)
        assert self.process.stdin is not None
        self.process.stdin.write((line + "\n").encode())
        await self.process.stdin.drain()
        return mark

    async def expect(self, words: str, after: int = 0, timeout: float = WAIT) -> str:
        """The output from ``after`` on, once it holds ``words``."""
        await until(lambda: words in self.text[after:], timeout,
                    lambda: f"{words!r} from `stationmaster play` (it printed {self.text[after:]!r}, "
                            f"stderr {self.errors[-2000:]!r})")
        return self.text[after:]

    async def finish(self, timeout: float = WAIT) -> int:
        """End the input (Ctrl-D) and wait for the process; returns its exit status."""
        assert self.process.stdin is not None
        self.process.stdin.close()
        code = await asyncio.wait_for(self.process.wait(), timeout)
        await asyncio.gather(*self._readers)
        return code

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()
        for reader in self._readers:
            reader.cancel()


async def until(condition: Callable[[], object], timeout: float, what: Callable[[], str]) -> None:
    """Wait (polling) until ``condition()`` holds; fail naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what()}")
        await asyncio.sleep(0.05)


async def hold_game_lock(url: str, game_id: int) -> asyncpg.Connection:
    """A connection holding the game's lock, as a process making a move holds it."""
    conn = await asyncpg.connect(url)
    await conn.execute("SELECT pg_advisory_lock($1, $2)", GAME_LOCK_NAMESPACE, game_id)
    return conn


async def lock_waiters(url: str, game_id: int, count: int, timeout: float = WAIT) -> None:
    """Wait until ``count`` sessions wait for the game's lock (their moves are in flight)."""
    conn = await asyncpg.connect(url)
    try:
        async def waiting() -> int:
            return int(await conn.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                " AND classid = $1 AND objid = $2", GAME_LOCK_NAMESPACE, game_id))

        deadline = time.monotonic() + timeout
        while (found := await waiting()) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{found} of {count} moves waited for game {game_id}'s lock")
            await asyncio.sleep(0.05)
    finally:
        await conn.close()


def no_traceback(*outputs: str) -> None:
    for output in outputs:
        assert "Traceback" not in output, output[-3000:]


def pids_alive(*pids: int) -> list[int]:
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        alive.append(pid)
    return alive

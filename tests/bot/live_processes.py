"""Real processes for the tests of what the store does to the front doors (a database that
stops and comes back, a game held by a frozen process): `stationmaster play` spoken to over
pipes, a PostgreSQL server of the test's own (it is stopped and started again), and a
connection that holds a game's lock as another process would."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
from multiproc_helpers import ROOT, environment

from bot.console_parse import parse_line
from bot.model import Actor
from bot.moderator import Moderator, plain_mention
from storage import open_repository
from storage.pg_migrate import GAME_LOCK_NAMESPACE

WAIT = 60.0  # seconds a process may take to answer on a busy machine
TABLE = Actor(user_id=None, name="", manager=True)
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
    async def start(cls, *args: str, images: str = "none") -> Terminal:
        process = await asyncio.create_subprocess_exec(
            *STATIONMASTER, "play", "--images", images, *args, cwd=ROOT, env=environment(),
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


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a process, from /proc (Linux); None once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), fields[0]


def descendants(pid: int) -> dict[int, str]:
    """The processes below ``pid`` (children, theirs...), with their command lines."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(stat[0], []).append(int(entry.name))
    found: dict[int, str] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            try:
                found[child] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            except OSError:
                continue
            todo.append(child)
    return found


def running(pids: list[int]) -> list[int]:
    """Those of ``pids`` still running (a zombie has ended: only its exit status is left)."""
    return [pid for pid in pids if (stat := _stat(pid)) is not None and stat[1] != "Z"]


async def fixture_game_before(url: str, lines: list[str]) -> int:
    """The 18Texas fixture 65394's game started as `stationmaster play` starts it, with its
    first moves (``lines``, as fixture_script types them) made."""
    repo = await open_repository(url)
    try:
        moderator = Moderator(repo, images=False, mention=plain_mention)
        created = await moderator.create_game(TABLE, "18Texas", seed=65394, site_rules=True,
                                              players=[f"Player {n}" for n in range(1, 5)])
        assert created.game_id is not None, created.text
        assert (await moderator.start(created.game_id, TABLE, shuffle=False)).reply.ok
        for line in lines:
            parsed = parse_line(line)
            assert parsed is not None and parsed[0] is not None
            outcome = await moderator.act(created.game_id, Actor(None, parsed[0], True), parsed[1])
            assert outcome.committed, (line, outcome.reply.text)
        return created.game_id
    finally:
        await repo.close()

"""The SQLite implementation of GameRepository, through aiosqlite (the SQL itself is shared
with PostgreSQL in ``storage.sql_repository``).

One repository owns one connection. Durability choices (why an acknowledged move survives a
crash): WAL journal, ``synchronous=FULL`` (NORMAL may lose the last commits on power loss),
every write inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, and a method returns only after its
COMMIT did.

Several processes on one file: ``BEGIN IMMEDIATE`` lets one writer in at a time, so the
seq-checked append is the serialisation between processes; ``game_lock`` only orders the
tasks of this process. The change feed polls ``games.change_no``, which each write sets to
the file's next number inside its write lock, so a poll misses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from os import PathLike
from typing import Any

import aiosqlite

from storage.errors import GameBusy, StorageError, StoreUnusable
from storage.migrate import migrate
from storage.models import GameChange
from storage.repository import ChangeFeed
from storage.sql_base import Clock, Row, Tx
from storage.sql_base import now as _now
from storage.sql_repository import SqlGameRepository
from storage.sqlite_file import StoreFileError, check_path, check_store, store_error


async def _enable_wal(conn: aiosqlite.Connection, timeout: float) -> None:
    """Switch the file to WAL (persistent, so usually already done).

    Switching needs an exclusive lock and SQLite reports "database is locked" at once,
    without its busy handler, when another connection is opening the same new file; so
    retry until ``timeout``."""
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        try:
            async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
                row = await cursor.fetchone()
            if row is not None and str(row[0]).lower() == "wal":
                return
            raise StorageError(f"could not switch the database to WAL (mode {row})")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.1)


class _SqliteTx(Tx):
    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        async with self._conn.execute(sql, args) as cursor:
            return int(cursor.rowcount)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)

    async def one(self, sql: str, *args: Any) -> Row | None:
        async with self._conn.execute(sql, args) as cursor:
            row: Row | None = await cursor.fetchone()
            # Drain the cursor: a RETURNING statement only finishes its writes once stepped
            # to the end.
            await cursor.fetchall()
            return row

    async def all(self, sql: str, *args: Any) -> list[Row]:
        async with self._conn.execute(sql, args) as cursor:
            return list(await cursor.fetchall())


@contextlib.contextmanager
def _translated(busy_timeout: float) -> Iterator[None]:
    """SQLite's words for a damaged, read-only or locked file, as the store's errors."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        text = str(exc)
        if text.startswith(("no such table", "no such column", "table ")):
            raise StoreUnusable.damaged(text) from exc
        if "readonly database" in text:
            raise StoreUnusable.read_only(text) from exc
        if "database is locked" in text:
            raise GameBusy(None, busy_timeout) from exc
        raise


class SqliteGameRepository(SqlGameRepository):
    # Computed inside the write lock (BEGIN IMMEDIATE), so numbers follow commit order.
    NEXT_CHANGE_NO = "(SELECT COALESCE(MAX(change_no), 0) + 1 FROM games)"
    INTEGRITY_ERRORS = (sqlite3.IntegrityError,)

    def __init__(
        self, conn: aiosqlite.Connection, *, clock: Clock = _now, busy_timeout: float = 30.0
    ) -> None:
        super().__init__(clock)
        self._conn = conn
        self._busy_timeout = busy_timeout
        self._path: str | None = None
        self._game_locks: dict[int, asyncio.Lock] = {}
        # aiosqlite runs one connection's statements in order, but two tasks sharing the
        # connection could interleave statements of their transactions; this lock keeps
        # each transaction whole.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(
        cls,
        path: str | PathLike[str],
        *,
        busy_timeout: float = 30.0,
        clock: Clock = _now,
        run_migrations: bool = True,
    ) -> SqliteGameRepository:
        """Open (creating if needed) the database file and bring its schema up to date.

        Raises StoreFileError, naming the file, for one that is not a Stationmaster store (a
        folder, a device, random bytes, a damaged or another program's database); nothing is
        written to such a file."""
        where = os.fspath(path)
        check_path(where, create=True)
        # isolation_level=None: no implicit transactions; we issue BEGIN/COMMIT ourselves.
        # timeout: how long a writer waits for another connection's write lock.
        try:
            conn = await aiosqlite.connect(where, isolation_level=None, timeout=busy_timeout)
        except sqlite3.Error as error:
            raise store_error(where, error) or StoreFileError(f"cannot open the database {where}: {error}") \
                from None
        try:
            conn.row_factory = sqlite3.Row
            await check_store(conn, where)
            await _enable_wal(conn, busy_timeout)
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            if run_migrations:
                await migrate(conn)
        except sqlite3.Error as error:
            await conn.close()
            raise store_error(where, error) or error from None
        except BaseException:
            await conn.close()
            raise
        repo = cls(conn, clock=clock, busy_timeout=busy_timeout)
        repo._path = str(path)
        return repo

    async def close(self) -> None:
        await self._conn.close()

    # -- transactions -----------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Tx]:
        with _translated(self._busy_timeout):
            async with self._locked(begin) as tx:
                yield tx

    @asynccontextmanager
    async def _locked(self, begin: str) -> AsyncIterator[Tx]:
        async with self._lock:
            await self._conn.execute(begin)
            try:
                yield _SqliteTx(self._conn)
                await self._conn.execute("COMMIT")
            except BaseException:
                # Also covers a failed COMMIT: never leave the shared connection mid-transaction.
                if self._conn.in_transaction:
                    try:
                        await self._conn.execute("ROLLBACK")
                    except sqlite3.OperationalError:
                        # A COMMIT whose caller was cancelled still runs in aiosqlite's thread,
                        # before this ROLLBACK: the transaction has ended, and the cancellation,
                        # not "no transaction is active", is what the caller must see.
                        if self._conn.in_transaction:
                            raise
                raise

    def _write(self) -> AbstractAsyncContextManager[Tx]:
        # IMMEDIATE takes the write lock at BEGIN, so the "last seq" we read cannot change
        # before our INSERT (a DEFERRED transaction could read, then lose the upgrade race).
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> AbstractAsyncContextManager[Tx]:
        # A read transaction gives the several SELECTs of a load one consistent snapshot.
        return self._transaction("BEGIN")

    # -- several processes on one file --------------------------------------------------
    @asynccontextmanager
    async def _hold_game(self, game_id: int) -> AsyncIterator[None]:
        lock = self._game_locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            yield

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Orders this process's tasks on one game. Between processes SQLite has no lock that
        outlives a transaction; there the write lock and the seq check serialise moves."""
        return self._hold_game(game_id)

    def change_feed(self, *, poll_interval: float = 0.5) -> ChangeFeed:
        if self._path is None:
            raise StorageError("a change feed needs a repository opened from a file")
        return _PollingFeed(self._path, poll_interval)


class _PollingFeed(ChangeFeed):
    """Looks for games whose change number passed the last one seen, on its own connection
    (so polling never waits behind this process's writes)."""

    def __init__(self, path: str, interval: float) -> None:
        super().__init__()
        self._path, self._interval = path, interval
        self._conn: aiosqlite.Connection | None = None
        self._task: asyncio.Task[None] | None = None
        self._seen = 0

    async def start(self) -> None:
        self._conn = await aiosqlite.connect(self._path, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        async with self._conn.execute("SELECT COALESCE(MAX(change_no), 0) FROM games") as cursor:
            row = await cursor.fetchone()
        self._seen = int(row[0]) if row is not None else 0
        self._task = asyncio.create_task(self._poll())

    async def _poll(self) -> None:
        assert self._conn is not None
        while True:
            await asyncio.sleep(self._interval)
            try:
                async with self._conn.execute(
                    "SELECT id, change_no FROM games WHERE change_no > ? ORDER BY change_no",
                    (self._seen,),
                ) as cursor:
                    rows = await cursor.fetchall()
            except sqlite3.OperationalError:
                continue  # locked or busy for a moment: the next look catches up
            for game_id, change_no in rows:
                self._put(GameChange(int(game_id)))
                self._seen = max(self._seen, int(change_no))

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._conn is not None:
            await self._conn.close()

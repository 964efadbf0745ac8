"""The PostgreSQL implementation of GameRepository, through asyncpg and its connection pool
(the SQL itself is shared with SQLite in ``storage.sql_repository``).

Several bot processes may share one database:
- every write starts by updating the game's row, which takes its row lock: writes to one
  game queue there, and the seq check that follows always sees the latest commit;
- ``game_lock`` holds a session advisory lock on the game while a move is validated and
  committed; the repository's calls inside the lock run on that same connection, so a
  held lock never waits for a second connection from the pool;
- a trigger announces each committed change of a game with NOTIFY; ``change_feed`` LISTENs;
- ``claim_due_reminders`` takes due rows with ``FOR UPDATE SKIP LOCKED``.
The server may go away (stopped, restarted, the network cut): every call then raises
``StoreUnavailable`` and the pool makes new connections once the server is back. No wait for
a lock lasts longer than ``lock_wait`` seconds (a process frozen while holding a game):
``GameBusy`` then.
Player ids are JSON scalars (jsonb) so that 8923 and "8923" stay different, as in SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from storage.errors import GameBusy, GameNotFound, StorageError, StoreUnavailable, StoreUnusable
from storage.models import GameChange
from storage.pg_migrate import GAME_LOCK_NAMESPACE, migrate
from storage.repository import ChangeFeed
from storage.sql_base import Clock, Row, Tx
from storage.sql_base import now as _now
from storage.sql_repository import SqlGameRepository

log = logging.getLogger(__name__)

CHANGE_CHANNEL = "stationmaster_games"
_INT4_MAX = 2**31 - 1
LOCK_WAIT = 5.0  # seconds a command waits for a game (or a row) another process holds
CONNECT_TIMEOUT = 10.0  # seconds to make a connection to a server that does not answer

# The server is gone or going: stopped, restarting, crashed, or out of connections.
_GONE = (
    OSError,  # refused, reset, timed out (TimeoutError is an OSError)
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.TooManyConnectionsError,
)


def _closed(conn: asyncpg.Connection) -> bool:
    """Whether a pooled connection's session has ended. asyncpg hands a connection that closed
    under it back to the pool by itself, after which every call on it, ``is_closed`` too,
    raises InterfaceError: that also means it is gone."""
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:
        return True


def _lost(exc: BaseException, conn: asyncpg.Connection | None) -> bool:
    """Whether an error means the server cannot be reached (rather than a refused statement)."""
    if isinstance(exc, _GONE):
        return True
    if isinstance(exc, asyncpg.exceptions.InternalClientError):
        # A statement sent while asyncpg is still taking in the server's goodbye (a session
        # ended while idle): "cannot switch to state ...". The connection is closing.
        return True
    # asyncpg says "connection is closed" as an InterfaceError, which also reports misuse.
    return isinstance(exc, asyncpg.InterfaceError) and (conn is None or _closed(conn))


def _unavailable(exc: BaseException, *, in_doubt: bool = False) -> StoreUnavailable:
    detail = str(exc).strip() or type(exc).__name__
    return StoreUnavailable(f"PostgreSQL: {detail}", in_doubt=in_doubt)


@functools.lru_cache(maxsize=256)
def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (our SQL has no '?' in literals)."""
    counter = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


def _row_count(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 3``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


async def _setup_connection(conn: asyncpg.Connection) -> None:
    # jsonb holds player ids: decoded to the int or str they were. json columns (actions,
    # options) stay text, exactly as written.
    await conn.set_type_codec(
        "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
    )


class _PgTx(Tx):
    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, *args: Any) -> int:
        return _row_count(await self._conn.execute(_numbered(sql), *args))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            await self._conn.executemany(_numbered(sql), rows)

    async def one(self, sql: str, *args: Any) -> Row | None:
        row: Row | None = await self._conn.fetchrow(_numbered(sql), *args)
        return row

    async def all(self, sql: str, *args: Any) -> list[Row]:
        return list(await self._conn.fetch(_numbered(sql), *args))


@dataclass
class _Pinned:
    """The connection holding a game lock, lent to the repository calls made inside it."""

    repo: PostgresGameRepository
    conn: asyncpg.Connection
    guard: asyncio.Lock


_PINNED: ContextVar[_Pinned | None] = ContextVar("stationmaster_pg_pinned", default=None)


class PostgresGameRepository(SqlGameRepository):
    NEXT_CHANGE_NO = "nextval('games_change_no_seq')"
    CLAIM_LOCK = " FOR UPDATE SKIP LOCKED"
    INTEGRITY_ERRORS = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(
        self, pool: asyncpg.Pool, dsn: str, *, clock: Clock = _now, lock_wait: float = LOCK_WAIT
    ) -> None:
        super().__init__(clock)
        self._pool = pool
        self._dsn = dsn
        self._local_locks: dict[int, asyncio.Lock] = {}
        self.lock_wait = lock_wait

    @classmethod
    async def open(
        cls,
        dsn: str,
        *,
        clock: Clock = _now,
        min_size: int = 0,
        max_size: int = 10,
        run_migrations: bool = True,
        lock_wait: float = LOCK_WAIT,
    ) -> PostgresGameRepository:
        """Connect a pool to ``postgresql://...`` and bring the schema up to date.

        ``min_size`` 0: no floor of connections is kept, because asyncpg restores a floor in
        the background and logs each failed attempt with a traceback while the server is
        down; a connection is made when a command needs one."""
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=min_size, max_size=max_size, init=_setup_connection,
                timeout=CONNECT_TIMEOUT,
                # Every lock wait of ours (a game's advisory lock, a row another transaction
                # writes) ends after lock_wait with LockNotAvailableError.
                # (0 would mean no limit: at least a millisecond.)
                server_settings={"lock_timeout": str(max(1, int(lock_wait * 1000)))},
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        try:
            connected = False
            async with pool.acquire() as conn:  # the first connection: is the server there?
                connected = True
                if run_migrations:
                    await migrate(conn)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            await pool.close()
            if not connected or _lost(exc, None):
                raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
            raise StorageError(f"cannot use the PostgreSQL database: {exc}") from exc
        except BaseException:
            await pool.close()
            raise
        return cls(pool, dsn, clock=clock, lock_wait=lock_wait)

    async def close(self) -> None:
        await self._pool.close()

    # -- connections and transactions ---------------------------------------------------
    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        """The connection for a repository call: the one holding the game lock if the call is
        made inside it, else one from the pool. Errors of a lost server or a lock waited out
        come out as the store's errors."""
        pinned = _PINNED.get()
        if pinned is not None and pinned.repo is self:
            async with pinned.guard:
                with self._translated(lambda: pinned.conn):
                    yield pinned.conn
            return
        with self._translated(lambda: None):
            conn = await self._pool.acquire()
        try:
            with self._translated(lambda: conn):
                yield conn
        finally:
            await self._give_back(conn)

    async def _give_back(self, conn: asyncpg.Connection, unlock: int | None = None) -> None:
        """Return a connection to the pool (unlocking game ``unlock`` first). A server gone
        meanwhile is not the caller's concern here: what it did stands or failed already (a
        commit in doubt said so), its locks went with its session, and the pool drops the
        connection."""
        try:
            try:
                # If this is cancelled, the pool's reset of the connection on release
                # (pg_advisory_unlock_all) still frees the lock.
                if unlock is not None and not _closed(conn):
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)", GAME_LOCK_NAMESPACE, unlock)
            finally:
                await self._pool.release(conn)
        except Exception as exc:
            if not _lost(exc, conn):
                raise
            log.debug("a connection to PostgreSQL was lost as it was given back: %s", exc)

    @contextlib.contextmanager
    def _translated(self, conn: Callable[[], asyncpg.Connection | None]) -> Iterator[None]:
        """The driver's errors for a lost server, a lock waited out, a missing table or a user
        who may only read, as the store's (``conn``: the connection in use, if any yet)."""
        try:
            yield
        except Exception as exc:
            if _lost(exc, conn()):
                raise _unavailable(exc) from exc
            if isinstance(exc, asyncpg.exceptions.LockNotAvailableError):
                raise GameBusy(None, self.lock_wait) from exc
            if isinstance(exc, asyncpg.UndefinedTableError | asyncpg.UndefinedColumnError):
                raise StoreUnusable.damaged(str(exc)) from exc
            if isinstance(exc, asyncpg.InsufficientPrivilegeError | asyncpg.ReadOnlySQLTransactionError):
                raise StoreUnusable.read_only(str(exc)) from exc
            raise

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        # READ COMMITTED: after waiting for a game's row lock, each later statement sees the
        # commit that released it.
        async with self._connection() as conn:
            committing = False
            try:
                async with conn.transaction():
                    yield _PgTx(conn)
                    committing = True
            except Exception as exc:
                if committing and _lost(exc, conn):
                    # The COMMIT was sent, or was about to be: it may have landed.
                    raise _unavailable(exc, in_doubt=True) from exc
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        async with self._connection() as conn, conn.transaction(
            isolation="repeatable_read", readonly=True
        ):
            yield _PgTx(conn)

    @asynccontextmanager
    async def _query(self) -> AsyncIterator[Tx]:
        async with self._connection() as conn:
            yield _PgTx(conn)

    # -- several processes on one database ----------------------------------------------
    @asynccontextmanager
    async def _hold_game(self, game_id: int) -> AsyncIterator[None]:
        if not 0 <= game_id <= _INT4_MAX:
            raise GameNotFound(game_id)
        # Tasks of this process queue in memory, so waiting never ties up a pooled connection.
        local = self._local_locks.setdefault(game_id, asyncio.Lock())
        async with local:
            with self._translated(lambda: None):
                conn = await self._pool.acquire()
            try:
                with self._translated(lambda: conn):
                    # Waits at most lock_wait (the connection's lock_timeout).
                    await conn.execute(
                        "SELECT pg_advisory_lock($1, $2)", GAME_LOCK_NAMESPACE, game_id
                    )
            except GameBusy as busy:
                await self._give_back(conn)
                raise GameBusy(game_id, self.lock_wait) from busy
            except BaseException:
                await self._give_back(conn)
                raise
            token = _PINNED.set(_Pinned(self, conn, asyncio.Lock()))
            try:
                yield  # the command's own errors pass as they are
            finally:
                _PINNED.reset(token)
                await self._give_back(conn, unlock=game_id)

    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """A session advisory lock on the game, held on one pooled connection; a process that
        dies loses its connection and with it the lock."""
        return self._hold_game(game_id)

    def change_feed(self, *, poll_interval: float = 0.5) -> ChangeFeed:
        """LISTEN on a connection of its own; ``poll_interval`` is the wait before
        reconnecting after that connection was lost."""
        return _ListenFeed(self._dsn, poll_interval)


class _ListenFeed(ChangeFeed):
    def __init__(self, dsn: str, retry_interval: float) -> None:
        super().__init__()
        self._dsn, self._retry = dsn, retry_interval
        self._conn: asyncpg.Connection | None = None
        self._reconnect: asyncio.Task[None] | None = None
        self._closed = False

    async def start(self) -> None:
        try:
            await self._connect()
        except Exception as exc:
            if _lost(exc, None):
                raise _unavailable(exc) from exc
            raise

    async def _connect(self) -> None:
        conn = await asyncpg.connect(self._dsn, timeout=CONNECT_TIMEOUT)
        await conn.add_listener(CHANGE_CHANNEL, self._notified)
        conn.add_termination_listener(self._lost)
        self._conn = conn

    def _notified(self, conn: object, pid: int, channel: str, payload: str) -> None:
        try:
            self._put(GameChange(int(payload)))
        except ValueError:
            log.warning("ignored a %s notification with payload %r", channel, payload)

    def _lost(self, conn: object) -> None:
        if not self._closed and self._reconnect is None:
            self._reconnect = asyncio.get_running_loop().create_task(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        log.warning("change feed: the connection to PostgreSQL was lost; reconnecting")
        delay = self._retry
        while not self._closed:
            await asyncio.sleep(delay)
            try:
                await self._connect()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.debug("change feed: reconnecting to PostgreSQL failed: %s", exc)
                delay = min(delay * 2, 5.0)  # a server down for long is not hammered
                continue
            log.warning("change feed: reconnected to PostgreSQL")
            self._reconnect = None
            # Changes made while we were away were not heard: say so.
            self._put(GameChange(None))
            return

    async def close(self) -> None:
        self._closed = True
        if self._reconnect is not None:
            self._reconnect.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reconnect
        if self._conn is not None and not self._conn.is_closed():
            await self._conn.close()

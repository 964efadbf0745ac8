"""The SQLite implementation of GameRepository, through aiosqlite.

One repository owns one connection. Durability choices (why an acknowledged move survives a
crash): WAL journal, ``synchronous=FULL`` (NORMAL may lose the last commits on power loss),
every write inside ``BEGIN IMMEDIATE`` ... ``COMMIT``, and a method returns only after its
COMMIT did.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from os import PathLike
from types import TracebackType
from typing import Any

import aiosqlite

from storage import _rows
from storage.errors import GameNotFound, SeqConflict, StorageError
from storage.migrate import migrate
from storage.models import (
    GameRecord,
    GameSettings,
    GameStatus,
    LoadedGame,
    NewGame,
    NewSeat,
    PlayerId,
    ReminderState,
    SeatRecord,
    StoredAction,
    TrainOffer,
)
from storage.repository import ActionInput, GameRepository

Clock = Callable[[], int]


def _now() -> int:
    return int(time.time())


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


class SqliteGameRepository(GameRepository):
    def __init__(self, conn: aiosqlite.Connection, *, clock: Clock = _now) -> None:
        self._conn = conn
        self._clock = clock
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
        """Open (creating if needed) the database file and bring its schema up to date."""
        # isolation_level=None: no implicit transactions; we issue BEGIN/COMMIT ourselves.
        # timeout: how long a writer waits for another connection's write lock.
        conn = await aiosqlite.connect(path, isolation_level=None, timeout=busy_timeout)
        try:
            conn.row_factory = sqlite3.Row
            await _enable_wal(conn, busy_timeout)
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            if run_migrations:
                await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, clock=clock)

    async def close(self) -> None:
        await self._conn.close()

    async def __aenter__(self) -> SqliteGameRepository:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- transactions -----------------------------------------------------------------
    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute(begin)
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException:
                # Also covers a failed COMMIT: never leave the shared connection mid-transaction.
                if self._conn.in_transaction:
                    await self._conn.execute("ROLLBACK")
                raise

    def _write(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        # IMMEDIATE takes the write lock at BEGIN, so the "last seq" we read cannot change
        # before our INSERT (a DEFERRED transaction could read, then lose the upgrade race).
        return self._transaction("BEGIN IMMEDIATE")

    def _read(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        # A read transaction gives the several SELECTs of a load one consistent snapshot.
        return self._transaction("BEGIN")

    async def _one(self, conn: aiosqlite.Connection, sql: str, args: Sequence[Any]) -> Any:
        async with conn.execute(sql, args) as cursor:
            return await cursor.fetchone()

    async def _all(self, conn: aiosqlite.Connection, sql: str, args: Sequence[Any]) -> list[Any]:
        async with conn.execute(sql, args) as cursor:
            return list(await cursor.fetchall())

    async def _game_row(self, conn: aiosqlite.Connection, game_id: int) -> Any:
        row = await self._one(conn, "SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return row

    async def _touch(self, conn: aiosqlite.Connection, game_id: int) -> None:
        cursor = await conn.execute(
            "UPDATE games SET updated_at = ? WHERE id = ?", (self._clock(), game_id)
        )
        if cursor.rowcount == 0:
            raise GameNotFound(game_id)

    # -- games ------------------------------------------------------------------------
    async def create_game(
        self,
        game: NewGame,
        seats: Sequence[NewSeat] = (),
        settings: GameSettings | None = None,
        actions: Sequence[tuple[ActionInput, int | None]] = (),
    ) -> int:
        _rows.check_status(game.status)
        options = json.dumps([str(option) for option in game.options])
        texts = [(_rows.action_text(action), actor) for action, actor in actions]
        now = self._clock()
        try:
            return await self._insert_game(game, options, seats, settings, texts, now)
        except sqlite3.IntegrityError as exc:
            raise StorageError(f"game refused by the database: {exc}") from exc

    async def _insert_game(
        self,
        game: NewGame,
        options: str,
        seats: Sequence[NewSeat],
        settings: GameSettings | None,
        texts: list[tuple[str, int | None]],
        now: int,
    ) -> int:
        async with self._write() as conn:
            cursor = await conn.execute(
                "INSERT INTO games (title, seed, options, status, guild_id, channel_id,"
                " thread_id, creator_user_id, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.title,
                    game.seed,
                    options,
                    game.status,
                    game.guild_id,
                    game.channel_id,
                    game.thread_id,
                    game.creator_user_id,
                    now,
                    now,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await conn.executemany(
                "INSERT INTO seats (game_id, seat, player_id, discord_user_id, display_name)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, number, seat.player_id, seat.discord_user_id, seat.display_name)
                    for number, seat in enumerate(seats, start=1)
                ],
            )
            await self._put_settings(conn, game_id, settings or GameSettings())
            await conn.executemany(
                "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (game_id, seq, text, actor, now)
                    for seq, (text, actor) in enumerate(texts, start=1)
                ],
            )
        return game_id

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._read() as conn:
            return _rows.game(await self._game_row(conn, game_id))

    async def list_games(
        self, *, guild_id: int | None = None, statuses: Sequence[GameStatus] | None = None
    ) -> list[GameRecord]:
        sql, args = "SELECT * FROM games WHERE 1", []
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        if statuses is not None:
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            args.extend(_rows.check_status(s) for s in statuses)
        async with self._read() as conn:
            return [_rows.game(r) for r in await self._all(conn, sql + " ORDER BY id", args)]

    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        async with self._read() as conn:
            row = await self._one(
                conn, "SELECT * FROM games WHERE thread_id = ? ORDER BY id DESC", (thread_id,)
            )
        return None if row is None else _rows.game(row)

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        _rows.check_status(status)
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await conn.execute("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    async def set_location(
        self, game_id: int, *, guild_id: int | None, channel_id: int | None, thread_id: int | None
    ) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await conn.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id = ?",
                (guild_id, channel_id, thread_id, game_id),
            )

    async def load_game(self, game_id: int) -> LoadedGame:
        async with self._read() as conn:
            game = _rows.game(await self._game_row(conn, game_id))
            seats = await self._seats(conn, game_id)
            settings = await self._settings(conn, game_id)
            actions = await self._actions(conn, game_id, 0)
        return LoadedGame(game=game, seats=seats, settings=settings, actions=actions)

    # -- seats ------------------------------------------------------------------------
    async def _seats(self, conn: aiosqlite.Connection, game_id: int) -> list[SeatRecord]:
        rows = await self._all(
            conn, "SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [_rows.seat(r) for r in rows]

    async def _seat(self, conn: aiosqlite.Connection, game_id: int, seat: int) -> SeatRecord:
        row = await self._one(
            conn, "SELECT * FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat)
        )
        if row is None:
            raise StorageError(f"game {game_id} has no seat {seat}")
        return _rows.seat(row)

    async def list_seats(self, game_id: int) -> list[SeatRecord]:
        async with self._read() as conn:
            await self._game_row(conn, game_id)
            return await self._seats(conn, game_id)

    async def add_seat(self, game_id: int, seat: NewSeat) -> SeatRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            row = await self._one(
                conn,
                "SELECT COALESCE(MAX(seat), 0) + 1 FROM seats WHERE game_id = ?",
                (game_id,),
            )
            number = row[0]
            try:
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, player_id, discord_user_id, display_name)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game_id, number, seat.player_id, seat.discord_user_id, seat.display_name),
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"game {game_id} already has player {seat.player_id!r}") from exc
            return await self._seat(conn, game_id, number)

    async def replace_seat_user(
        self, game_id: int, seat: int, discord_user_id: int, display_name: str
    ) -> SeatRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await self._seat(conn, game_id, seat)
            await conn.execute(
                "UPDATE seats SET discord_user_id = ?, display_name = ?, replaced = 1,"
                " left_game = 0 WHERE game_id = ? AND seat = ?",
                (discord_user_id, display_name, game_id, seat),
            )
            return await self._seat(conn, game_id, seat)

    async def mark_seat_left(self, game_id: int, seat: int) -> SeatRecord:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            await self._seat(conn, game_id, seat)
            await conn.execute(
                "UPDATE seats SET left_game = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
            )
            return await self._seat(conn, game_id, seat)

    async def start_game(self, game_id: int, seating: Sequence[tuple[int | None, str]]) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            seats = await self._seats(conn, game_id)
            if len(seating) != len(seats):
                raise StorageError(f"game {game_id} has {len(seats)} seats, not {len(seating)}")
            for number, (user_id, name) in enumerate(seating, 1):
                await conn.execute(
                    "UPDATE seats SET discord_user_id = ?, display_name = ? WHERE game_id = ? AND seat = ?",
                    (user_id, name, game_id, number),
                )
            await conn.execute("UPDATE games SET status = 'active' WHERE id = ?", (game_id,))

    # -- actions ----------------------------------------------------------------------
    async def _last_seq(self, conn: aiosqlite.Connection, game_id: int) -> int:
        row = await self._one(
            conn, "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?", (game_id,)
        )
        return int(row[0])

    async def _actions(
        self, conn: aiosqlite.Connection, game_id: int, after_seq: int
    ) -> list[StoredAction]:
        rows = await self._all(
            conn,
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after_seq),
        )
        return [_rows.action(r) for r in rows]

    async def append_action(
        self, game_id: int, expected_seq: int, action_json: ActionInput, actor: int | None
    ) -> StoredAction:
        text = _rows.action_text(action_json)
        now = self._clock()
        async with self._write() as conn:
            await self._touch(conn, game_id)
            last = await self._last_seq(conn, game_id)
            if expected_seq != last + 1:
                raise SeqConflict(game_id, expected_seq, last)
            await conn.execute(
                "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, expected_seq, text, actor, now),
            )
        return StoredAction(game_id, expected_seq, json.loads(text), actor, now)

    async def last_seq(self, game_id: int) -> int:
        async with self._read() as conn:
            await self._game_row(conn, game_id)
            return await self._last_seq(conn, game_id)

    async def list_actions(self, game_id: int, *, after_seq: int = 0) -> list[StoredAction]:
        async with self._read() as conn:
            await self._game_row(conn, game_id)
            return await self._actions(conn, game_id, after_seq)

    # -- settings and reminders -------------------------------------------------------
    async def _settings(self, conn: aiosqlite.Connection, game_id: int) -> GameSettings:
        row = await self._one(conn, "SELECT * FROM game_settings WHERE game_id = ?", (game_id,))
        return _rows.settings(row)

    async def _put_settings(
        self, conn: aiosqlite.Connection, game_id: int, settings: GameSettings
    ) -> None:
        await conn.execute(
            "INSERT INTO game_settings (game_id, reminder_first_after_hours,"
            " reminder_repeat_hours, quiet_start_hour, quiet_end_hour, quiet_time_zone,"
            " undo_policy) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET"
            " reminder_first_after_hours = excluded.reminder_first_after_hours,"
            " reminder_repeat_hours = excluded.reminder_repeat_hours,"
            " quiet_start_hour = excluded.quiet_start_hour,"
            " quiet_end_hour = excluded.quiet_end_hour,"
            " quiet_time_zone = excluded.quiet_time_zone,"
            " undo_policy = excluded.undo_policy",
            (
                game_id,
                settings.reminder_first_after_hours,
                settings.reminder_repeat_hours,
                settings.quiet_start_hour,
                settings.quiet_end_hour,
                settings.quiet_time_zone,
                settings.undo_policy,
            ),
        )

    async def get_settings(self, game_id: int) -> GameSettings:
        async with self._read() as conn:
            await self._game_row(conn, game_id)
            return await self._settings(conn, game_id)

    async def update_settings(self, game_id: int, settings: GameSettings) -> None:
        async with self._write() as conn:
            await self._touch(conn, game_id)
            try:
                await self._put_settings(conn, game_id, settings)
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"invalid settings: {exc}") from exc

    async def record_reminder(
        self, game_id: int, player_id: PlayerId, at: int | None = None
    ) -> ReminderState:
        at = self._clock() if at is None else at
        async with self._write() as conn:
            await self._game_row(conn, game_id)
            try:
                row = await self._one(
                    conn,
                    "INSERT INTO reminder_state (game_id, player_id, last_ping_at, ping_count)"
                    " VALUES (?, ?, ?, 1) ON CONFLICT (game_id, player_id) DO UPDATE SET"
                    " last_ping_at = excluded.last_ping_at, ping_count = ping_count + 1"
                    " RETURNING *",
                    (game_id, player_id, at),
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(f"game {game_id} has no player {player_id!r}") from exc
            return _rows.reminder(row)

    async def reset_reminder(self, game_id: int, player_id: PlayerId) -> None:
        async with self._write() as conn:
            await conn.execute(
                "DELETE FROM reminder_state WHERE game_id = ? AND player_id = ?",
                (game_id, player_id),
            )

    async def list_reminder_states(self, game_id: int | None = None) -> list[ReminderState]:
        sql, args = "SELECT * FROM reminder_state", []
        if game_id is not None:
            sql, args = sql + " WHERE game_id = ?", [game_id]
        async with self._read() as conn:
            rows = await self._all(conn, sql + " ORDER BY game_id, player_id", args)
        return [_rows.reminder(r) for r in rows]

    # -- pending train offers (rule 12.6 consent) -------------------------------------
    async def put_train_offer(self, offer: TrainOffer) -> TrainOffer:
        now = self._clock()
        async with self._write() as conn:
            await self._touch(conn, offer.game_id)
            try:
                row = await self._one(
                    conn,
                    "INSERT INTO train_offers (game_id, seq, action, buyer_user_id,"
                    " seller_player_id, created_at) VALUES (?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq,"
                    " action = excluded.action, buyer_user_id = excluded.buyer_user_id,"
                    " seller_player_id = excluded.seller_player_id,"
                    " created_at = excluded.created_at RETURNING *",
                    (offer.game_id, offer.seq, _rows.action_text(offer.action),
                     offer.buyer_user_id, offer.seller_player_id, now),
                )
            except sqlite3.IntegrityError as exc:
                raise StorageError(
                    f"game {offer.game_id} has no player {offer.seller_player_id!r}"
                ) from exc
            return _rows.train_offer(row)

    async def get_train_offer(self, game_id: int) -> TrainOffer | None:
        async with self._read() as conn:
            row = await self._one(conn, "SELECT * FROM train_offers WHERE game_id = ?", (game_id,))
        return None if row is None else _rows.train_offer(row)

    async def clear_train_offer(self, game_id: int) -> None:
        async with self._write() as conn:
            await conn.execute("DELETE FROM train_offers WHERE game_id = ?", (game_id,))

"""The base of the SQL that SQLite and PostgreSQL share (``storage.sql_repository``): the
dialect hooks, transactions, the statements several parts use, and readers of rows inside a
transaction."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from storage import _rows
from storage.errors import GameNotFound, StorageError
from storage.models import GameSettings, SeatRecord, StoredAction
from storage.repository import GameRepository

Clock = Callable[[], int]
Row = _rows.Row


def now() -> int:
    return int(time.time())


class Tx(ABC):
    """One open transaction (or, from ``_query``, one autocommitted connection)."""

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> int:
        """Run a statement; return the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def one(self, sql: str, *args: Any) -> Row | None: ...

    @abstractmethod
    async def all(self, sql: str, *args: Any) -> list[Row]: ...


INSERT_GAME = (
    "INSERT INTO games (title, seed, options, status, guild_id, channel_id, thread_id,"
    " creator_user_id, created_at, updated_at, change_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {})"
)
INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, player_id, discord_user_id, display_name, replaced,"
    " left_game) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) VALUES (?, ?, ?, ?, ?)"
)
UPSERT_SETTINGS = (
    "INSERT INTO game_settings (game_id, reminder_first_after_hours, reminder_repeat_hours,"
    " quiet_start_hour, quiet_end_hour, quiet_time_zone, undo_policy)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
    " reminder_first_after_hours = excluded.reminder_first_after_hours,"
    " reminder_repeat_hours = excluded.reminder_repeat_hours,"
    " quiet_start_hour = excluded.quiet_start_hour, quiet_end_hour = excluded.quiet_end_hour,"
    " quiet_time_zone = excluded.quiet_time_zone, undo_policy = excluded.undo_policy"
)
UPSERT_OFFER = (
    "INSERT INTO train_offers (game_id, seq, action, buyer_user_id, seller_player_id,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
    " seq = excluded.seq, action = excluded.action, buyer_user_id = excluded.buyer_user_id,"
    " seller_player_id = excluded.seller_player_id, created_at = excluded.created_at"
    " RETURNING *"
)
INSERT_REMINDER = (
    "INSERT INTO reminder_state (game_id, player_id, last_ping_at, ping_count) VALUES (?, ?, ?, ?)"
)
INSERT_END_VOTE = (
    "INSERT INTO end_votes (game_id, player_id, seq, created_at) VALUES (?, ?, ?, ?)"
)
INSERT_REMINDER_DUE = (
    "INSERT INTO reminder_due (game_id, due_at, claimed_by, claim_until) VALUES (?, ?, ?, ?)"
)


class SqlBase(GameRepository):
    """What every part of the shared SQL needs: the dialect, transactions and row readers."""

    # The next value of games.change_no, the store-wide counter a change feed follows.
    NEXT_CHANGE_NO: str
    # Appended to the SELECT that picks due reminders (row locks on PostgreSQL).
    CLAIM_LOCK: str = ""
    # The driver's exceptions for a violated constraint, foreign key or trigger.
    INTEGRITY_ERRORS: tuple[type[Exception], ...]

    def __init__(self, clock: Clock = now) -> None:
        self._clock = clock

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction that sees the latest commits of every connection."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Tx]:
        """A read transaction: its SELECTs see one consistent snapshot."""

    def _query(self) -> AbstractAsyncContextManager[Tx]:
        """For a single SELECT, which needs no transaction of its own."""
        return self._read()

    # -- helpers --------------------------------------------------------------------------
    async def _game_row(self, tx: Tx, game_id: int) -> Row:
        row = await tx.one("SELECT * FROM games WHERE id = ?", game_id)
        if row is None:
            raise GameNotFound(game_id)
        return row

    async def _touch(self, tx: Tx, game_id: int) -> None:
        """Mark the game changed now. As the first statement of a write it also takes the
        game's row lock (PostgreSQL), so writers of one game queue here."""
        changed = await tx.execute(
            f"UPDATE games SET updated_at = ?, change_no = {self.NEXT_CHANGE_NO} WHERE id = ?",
            self._clock(),
            game_id,
        )
        if changed == 0:
            raise GameNotFound(game_id)

    async def _seats(self, tx: Tx, game_id: int) -> list[SeatRecord]:
        rows = await tx.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [_rows.seat(r) for r in rows]

    async def _seat(self, tx: Tx, game_id: int, seat: int) -> SeatRecord:
        row = await tx.one("SELECT * FROM seats WHERE game_id = ? AND seat = ?", game_id, seat)
        if row is None:
            raise StorageError(f"game {game_id} has no seat {seat}")
        return _rows.seat(row)

    async def _last_seq(self, tx: Tx, game_id: int) -> int:
        row = await tx.one(
            "SELECT COALESCE(MAX(seq), 0) AS last FROM actions WHERE game_id = ?", game_id
        )
        assert row is not None
        return int(row["last"])

    async def _actions(self, tx: Tx, game_id: int, after_seq: int) -> list[StoredAction]:
        rows = await tx.all(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", game_id, after_seq
        )
        return [_rows.action(r) for r in rows]

    async def _settings(self, tx: Tx, game_id: int) -> GameSettings:
        return _rows.settings(await tx.one("SELECT * FROM game_settings WHERE game_id = ?", game_id))

    async def _put_settings(self, tx: Tx, game_id: int, settings: GameSettings) -> None:
        await tx.execute(
            UPSERT_SETTINGS, game_id, settings.reminder_first_after_hours,
            settings.reminder_repeat_hours, settings.quiet_start_hour, settings.quiet_end_hour,
            settings.quiet_time_zone, settings.undo_policy,
        )

"""The SQL that SQLite and PostgreSQL share: every repository method written once.

A backend supplies transactions (``_write``, ``_read``, ``_query``) yielding a ``Tx`` that
runs statements written with ``?`` placeholders, plus the few expressions the two dialects
spell differently (class attributes below). Booleans are written TRUE/FALSE, which SQLite
reads as 1/0.
"""

from __future__ import annotations

import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from storage import _rows
from storage.errors import GameNotFound, SeqConflict, StorageError
from storage.models import (
    GameDump,
    GameRecord,
    GameSettings,
    GameStatus,
    LoadedGame,
    NewGame,
    NewSeat,
    PlayerId,
    ReminderDue,
    ReminderState,
    SeatRecord,
    StoredAction,
    TrainOffer,
)
from storage.repository import ActionInput, GameRepository

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


_INSERT_GAME = (
    "INSERT INTO games (title, seed, options, status, guild_id, channel_id, thread_id,"
    " creator_user_id, created_at, updated_at, change_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {})"
)
_INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, player_id, discord_user_id, display_name, replaced,"
    " left_game) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) VALUES (?, ?, ?, ?, ?)"
)
_UPSERT_SETTINGS = (
    "INSERT INTO game_settings (game_id, reminder_first_after_hours, reminder_repeat_hours,"
    " quiet_start_hour, quiet_end_hour, quiet_time_zone, undo_policy)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
    " reminder_first_after_hours = excluded.reminder_first_after_hours,"
    " reminder_repeat_hours = excluded.reminder_repeat_hours,"
    " quiet_start_hour = excluded.quiet_start_hour, quiet_end_hour = excluded.quiet_end_hour,"
    " quiet_time_zone = excluded.quiet_time_zone, undo_policy = excluded.undo_policy"
)
_UPSERT_OFFER = (
    "INSERT INTO train_offers (game_id, seq, action, buyer_user_id, seller_player_id,"
    " created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET"
    " seq = excluded.seq, action = excluded.action, buyer_user_id = excluded.buyer_user_id,"
    " seller_player_id = excluded.seller_player_id, created_at = excluded.created_at"
    " RETURNING *"
)
_INSERT_REMINDER = (
    "INSERT INTO reminder_state (game_id, player_id, last_ping_at, ping_count) VALUES (?, ?, ?, ?)"
)
_INSERT_REMINDER_DUE = (
    "INSERT INTO reminder_due (game_id, due_at, claimed_by, claim_until) VALUES (?, ?, ?, ?)"
)


class SqlGameRepository(GameRepository):
    """Everything but connections and transactions, which the backend subclass provides."""

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

    # -- games ----------------------------------------------------------------------------
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
        stamp = self._clock()
        try:
            async with self._write() as tx:
                row = await tx.one(
                    _INSERT_GAME.format(self.NEXT_CHANGE_NO) + " RETURNING id",
                    game.title, game.seed, options, game.status, game.guild_id, game.channel_id,
                    game.thread_id, game.creator_user_id, stamp, stamp,
                )
                assert row is not None
                game_id = int(row["id"])
                await tx.executemany(_INSERT_SEAT, [
                    (game_id, number, seat.player_id, seat.discord_user_id, seat.display_name,
                     False, False)
                    for number, seat in enumerate(seats, start=1)
                ])
                await self._put_settings(tx, game_id, settings or GameSettings())
                await tx.executemany(_INSERT_ACTION, [
                    (game_id, seq, text, actor, stamp)
                    for seq, (text, actor) in enumerate(texts, start=1)
                ])
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game refused by the database: {exc}") from exc
        return game_id

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._query() as tx:
            return _rows.game(await self._game_row(tx, game_id))

    async def list_games(
        self, *, guild_id: int | None = None, statuses: Sequence[GameStatus] | None = None
    ) -> list[GameRecord]:
        sql, args = "SELECT * FROM games WHERE TRUE", list[Any]()
        if guild_id is not None:
            sql += " AND guild_id = ?"
            args.append(guild_id)
        if statuses is not None:
            if not statuses:
                return []
            sql += f" AND status IN ({', '.join('?' * len(statuses))})"
            args.extend(_rows.check_status(s) for s in statuses)
        async with self._query() as tx:
            return [_rows.game(r) for r in await tx.all(sql + " ORDER BY id", *args)]

    async def list_game_ids(self) -> list[int]:
        async with self._query() as tx:
            return [int(r["id"]) for r in await tx.all("SELECT id FROM games ORDER BY id")]

    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None:
        async with self._query() as tx:
            row = await tx.one("SELECT * FROM games WHERE thread_id = ? ORDER BY id DESC", thread_id)
        return None if row is None else _rows.game(row)

    async def set_status(self, game_id: int, status: GameStatus) -> None:
        _rows.check_status(status)
        async with self._write() as tx:
            await self._touch(tx, game_id)
            await tx.execute("UPDATE games SET status = ? WHERE id = ?", status, game_id)

    async def set_location(
        self, game_id: int, *, guild_id: int | None, channel_id: int | None, thread_id: int | None
    ) -> None:
        async with self._write() as tx:
            await self._touch(tx, game_id)
            await tx.execute(
                "UPDATE games SET guild_id = ?, channel_id = ?, thread_id = ? WHERE id = ?",
                guild_id, channel_id, thread_id, game_id,
            )

    async def load_game(self, game_id: int) -> LoadedGame:
        async with self._read() as tx:
            game = _rows.game(await self._game_row(tx, game_id))
            seats = await self._seats(tx, game_id)
            settings = await self._settings(tx, game_id)
            actions = await self._actions(tx, game_id, 0)
        return LoadedGame(game=game, seats=seats, settings=settings, actions=actions)

    # -- seats ----------------------------------------------------------------------------
    async def _seats(self, tx: Tx, game_id: int) -> list[SeatRecord]:
        rows = await tx.all("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [_rows.seat(r) for r in rows]

    async def _seat(self, tx: Tx, game_id: int, seat: int) -> SeatRecord:
        row = await tx.one("SELECT * FROM seats WHERE game_id = ? AND seat = ?", game_id, seat)
        if row is None:
            raise StorageError(f"game {game_id} has no seat {seat}")
        return _rows.seat(row)

    async def list_seats(self, game_id: int) -> list[SeatRecord]:
        async with self._read() as tx:
            await self._game_row(tx, game_id)
            return await self._seats(tx, game_id)

    async def add_seat(self, game_id: int, seat: NewSeat) -> SeatRecord:
        try:
            async with self._write() as tx:
                await self._touch(tx, game_id)
                row = await tx.one(
                    "SELECT COALESCE(MAX(seat), 0) + 1 AS next FROM seats WHERE game_id = ?", game_id
                )
                assert row is not None
                number = int(row["next"])
                await tx.execute(
                    _INSERT_SEAT, game_id, number, seat.player_id, seat.discord_user_id,
                    seat.display_name, False, False,
                )
                return await self._seat(tx, game_id, number)
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game_id} already has player {seat.player_id!r}") from exc

    async def replace_seat_user(
        self, game_id: int, seat: int, discord_user_id: int, display_name: str
    ) -> SeatRecord:
        async with self._write() as tx:
            await self._touch(tx, game_id)
            await self._seat(tx, game_id, seat)
            await tx.execute(
                "UPDATE seats SET discord_user_id = ?, display_name = ?, replaced = TRUE,"
                " left_game = FALSE WHERE game_id = ? AND seat = ?",
                discord_user_id, display_name, game_id, seat,
            )
            return await self._seat(tx, game_id, seat)

    async def mark_seat_left(self, game_id: int, seat: int) -> SeatRecord:
        async with self._write() as tx:
            await self._touch(tx, game_id)
            await self._seat(tx, game_id, seat)
            await tx.execute(
                "UPDATE seats SET left_game = TRUE WHERE game_id = ? AND seat = ?", game_id, seat
            )
            return await self._seat(tx, game_id, seat)

    async def start_game(self, game_id: int, seating: Sequence[tuple[int | None, str]]) -> None:
        async with self._write() as tx:
            await self._touch(tx, game_id)
            seats = await self._seats(tx, game_id)
            if len(seating) != len(seats):
                raise StorageError(f"game {game_id} has {len(seats)} seats, not {len(seating)}")
            for number, (user_id, name) in enumerate(seating, 1):
                await tx.execute(
                    "UPDATE seats SET discord_user_id = ?, display_name = ?"
                    " WHERE game_id = ? AND seat = ?",
                    user_id, name, game_id, number,
                )
            await tx.execute("UPDATE games SET status = 'active' WHERE id = ?", game_id)

    # -- actions --------------------------------------------------------------------------
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

    async def append_action(
        self, game_id: int, expected_seq: int, action_json: ActionInput, actor: int | None
    ) -> StoredAction:
        text = _rows.action_text(action_json)
        stamp = self._clock()
        async with self._write() as tx:
            await self._touch(tx, game_id)
            last = await self._last_seq(tx, game_id)
            if expected_seq != last + 1:
                raise SeqConflict(game_id, expected_seq, last)
            await tx.execute(_INSERT_ACTION, game_id, expected_seq, text, actor, stamp)
        return StoredAction(game_id, expected_seq, json.loads(text), actor, stamp)

    async def last_seq(self, game_id: int) -> int:
        async with self._query() as tx:
            row = await tx.one(
                "SELECT (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = games.id)"
                " AS last FROM games WHERE id = ?",
                game_id,
            )
        if row is None:
            raise GameNotFound(game_id)
        return int(row["last"])

    async def game_head(self, game_id: int) -> tuple[GameRecord, int]:
        async with self._query() as tx:
            row = await tx.one(
                "SELECT *, (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = games.id)"
                " AS last_seq FROM games WHERE id = ?",
                game_id,
            )
        if row is None:
            raise GameNotFound(game_id)
        return _rows.game(row), int(row["last_seq"])

    async def list_actions(self, game_id: int, *, after_seq: int = 0) -> list[StoredAction]:
        async with self._read() as tx:
            await self._game_row(tx, game_id)
            return await self._actions(tx, game_id, after_seq)

    # -- settings -------------------------------------------------------------------------
    async def _settings(self, tx: Tx, game_id: int) -> GameSettings:
        return _rows.settings(await tx.one("SELECT * FROM game_settings WHERE game_id = ?", game_id))

    async def _put_settings(self, tx: Tx, game_id: int, settings: GameSettings) -> None:
        await tx.execute(
            _UPSERT_SETTINGS, game_id, settings.reminder_first_after_hours,
            settings.reminder_repeat_hours, settings.quiet_start_hour, settings.quiet_end_hour,
            settings.quiet_time_zone, settings.undo_policy,
        )

    async def get_settings(self, game_id: int) -> GameSettings:
        async with self._read() as tx:
            await self._game_row(tx, game_id)
            return await self._settings(tx, game_id)

    async def update_settings(self, game_id: int, settings: GameSettings) -> None:
        try:
            async with self._write() as tx:
                await self._touch(tx, game_id)
                await self._put_settings(tx, game_id, settings)
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"invalid settings: {exc}") from exc

    # -- reminders ------------------------------------------------------------------------
    async def _reminder_write(self, game_id: int, player_id: PlayerId, sql: str, *args: Any) -> Row:
        """One reminder upsert with RETURNING, refusing a player the game does not seat."""
        try:
            async with self._write() as tx:
                await self._game_row(tx, game_id)
                row = await tx.one(sql, *args)
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game_id} has no player {player_id!r}") from exc
        assert row is not None
        return row

    async def record_reminder(
        self, game_id: int, player_id: PlayerId, at: int | None = None
    ) -> ReminderState:
        at = self._clock() if at is None else at
        row = await self._reminder_write(
            game_id, player_id,
            "INSERT INTO reminder_state (game_id, player_id, last_ping_at, ping_count)"
            " VALUES (?, ?, ?, 1) ON CONFLICT (game_id, player_id) DO UPDATE SET"
            " last_ping_at = excluded.last_ping_at,"
            " ping_count = reminder_state.ping_count + 1 RETURNING *",
            game_id, player_id, at,
        )
        return _rows.reminder(row)

    async def set_reminder_due(self, game_id: int, due_at: int | None) -> None:
        async with self._write() as tx:
            if due_at is None:
                await tx.execute("DELETE FROM reminder_due WHERE game_id = ?", game_id)
                return
            await self._game_row(tx, game_id)
            await tx.execute(
                "INSERT INTO reminder_due (game_id, due_at) VALUES (?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET due_at = excluded.due_at, claimed_by = NULL, claim_until = NULL",
                game_id, due_at,
            )

    async def list_reminder_dues(self) -> dict[int, int]:
        async with self._query() as tx:
            rows = await tx.all("SELECT game_id, due_at FROM reminder_due")
        return {int(row["game_id"]): int(row["due_at"]) for row in rows}

    async def claim_due_reminders(
        self, owner: str, *, lease_seconds: int = 300, limit: int = 100, now: int | None = None
    ) -> list[ReminderDue]:
        if not owner:
            raise StorageError("a reminder claim needs an owner name")
        at = self._clock() if now is None else now
        async with self._write() as tx:
            rows = await tx.all(
                "UPDATE reminder_due SET claimed_by = ?, claim_until = ?"
                " WHERE game_id IN (SELECT game_id FROM reminder_due"
                " WHERE due_at <= ? AND (claim_until IS NULL OR claim_until <= ?)"
                f" ORDER BY due_at, game_id LIMIT ?{self.CLAIM_LOCK}) RETURNING *",
                owner, at + lease_seconds, at, at, limit,
            )
        return sorted((_rows.reminder_due(r) for r in rows), key=lambda d: (d.due_at, d.game_id))

    async def complete_reminder(self, game_id: int, owner: str, *, next_due_at: int | None) -> bool:
        async with self._write() as tx:
            if next_due_at is None:
                done = await tx.execute(
                    "DELETE FROM reminder_due WHERE game_id = ? AND claimed_by = ?", game_id, owner
                )
            else:
                done = await tx.execute(
                    "UPDATE reminder_due SET due_at = ?, claimed_by = NULL, claim_until = NULL"
                    " WHERE game_id = ? AND claimed_by = ?",
                    next_due_at, game_id, owner,
                )
        return done == 1

    async def reset_reminder(self, game_id: int, player_id: PlayerId) -> None:
        async with self._write() as tx:
            await tx.execute(
                "DELETE FROM reminder_state WHERE game_id = ? AND player_id = ?", game_id, player_id
            )

    async def list_reminder_states(self, game_id: int | None = None) -> list[ReminderState]:
        sql, args = "SELECT * FROM reminder_state", list[Any]()
        if game_id is not None:
            sql, args = sql + " WHERE game_id = ?", [game_id]
        async with self._query() as tx:
            rows = await tx.all(sql, *args)
        # Sorted here: player ids mix integers and text, which the databases order differently.
        states = [_rows.reminder(r) for r in rows]
        return sorted(states, key=lambda s: (s.game_id, isinstance(s.player_id, str), s.player_id))

    # -- pending train offers -------------------------------------------------------------
    async def put_train_offer(self, offer: TrainOffer) -> TrainOffer:
        text = _rows.action_text(offer.action)
        stamp = self._clock()
        try:
            async with self._write() as tx:
                await self._touch(tx, offer.game_id)
                row = await tx.one(
                    _UPSERT_OFFER, offer.game_id, offer.seq, text, offer.buyer_user_id,
                    offer.seller_player_id, stamp,
                )
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(
                f"game {offer.game_id} has no player {offer.seller_player_id!r}"
            ) from exc
        assert row is not None
        return _rows.train_offer(row)

    async def get_train_offer(self, game_id: int) -> TrainOffer | None:
        async with self._query() as tx:
            row = await tx.one("SELECT * FROM train_offers WHERE game_id = ?", game_id)
        return None if row is None else _rows.train_offer(row)

    async def clear_train_offer(self, game_id: int) -> None:
        async with self._write() as tx:
            if await tx.execute("DELETE FROM train_offers WHERE game_id = ?", game_id):
                # Other processes showing the offer must hear it is gone; updated_at (the
                # reminders' "position changed" time) stays.
                await tx.execute(
                    f"UPDATE games SET change_no = {self.NEXT_CHANGE_NO} WHERE id = ?", game_id
                )

    # -- copying whole stores -------------------------------------------------------------
    async def dump_game(self, game_id: int) -> GameDump:
        async with self._read() as tx:
            game = _rows.game(await self._game_row(tx, game_id))
            seats = await self._seats(tx, game_id)
            settings = await self._settings(tx, game_id)
            actions = await self._actions(tx, game_id, 0)
            reminders = await tx.all("SELECT * FROM reminder_state WHERE game_id = ?", game_id)
            due = await tx.one("SELECT * FROM reminder_due WHERE game_id = ?", game_id)
            offer = await tx.one("SELECT * FROM train_offers WHERE game_id = ?", game_id)
        return GameDump(
            game=game,
            seats=seats,
            settings=settings,
            actions=actions,
            reminders=sorted(
                (_rows.reminder(r) for r in reminders),
                key=lambda s: (isinstance(s.player_id, str), s.player_id),
            ),
            reminder_due=None if due is None else _rows.reminder_due(due),
            train_offer=None if offer is None else _rows.train_offer(offer),
        )

    async def restore_game(self, dump: GameDump) -> None:
        game = dump.game
        _rows.check_status(game.status)
        try:
            async with self._write() as tx:
                if await tx.one("SELECT id FROM games WHERE id = ?", game.id) is not None:
                    raise StorageError(f"the store already has a game with id {game.id}")
                await tx.execute(
                    _INSERT_GAME.replace("INSERT INTO games (", "INSERT INTO games (id, ")
                    .replace("VALUES (", "VALUES (?, ")
                    .format(self.NEXT_CHANGE_NO),
                    game.id, game.title, game.seed, json.dumps(list(game.options)), game.status,
                    game.guild_id, game.channel_id, game.thread_id, game.creator_user_id,
                    game.created_at, game.updated_at,
                )
                await tx.executemany(_INSERT_SEAT, [
                    (game.id, s.seat, s.player_id, s.discord_user_id, s.display_name, s.replaced,
                     s.left)
                    for s in dump.seats
                ])
                await self._put_settings(tx, game.id, dump.settings)
                await tx.executemany(_INSERT_ACTION, [
                    (game.id, a.seq, _rows.action_text(a.action), a.actor_user_id, a.created_at)
                    for a in dump.actions
                ])
                await tx.executemany(_INSERT_REMINDER, [
                    (game.id, r.player_id, r.last_ping_at, r.ping_count) for r in dump.reminders
                ])
                if (due := dump.reminder_due) is not None:
                    await tx.execute(
                        _INSERT_REMINDER_DUE, game.id, due.due_at, due.claimed_by, due.claim_until
                    )
                if (offer := dump.train_offer) is not None:
                    await tx.execute(
                        _UPSERT_OFFER, game.id, offer.seq, _rows.action_text(offer.action),
                        offer.buyer_user_id, offer.seller_player_id, offer.created_at,
                    )
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game.id} refused by the database: {exc}") from exc

"""Reminder rows in the shared SQL: pings per player, and each game's next due reminder,
claimed by one process at a time."""

from __future__ import annotations

from typing import Any

from storage import _rows
from storage.errors import StorageError
from storage.models import (
    PlayerId,
    ReminderDue,
    ReminderState,
)
from storage.repository import ShardSet
from storage.sql_base import Row, SqlBase


class SqlReminders(SqlBase):
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
        self, owner: str, *, lease_seconds: int = 300, limit: int = 100, now: int | None = None,
        shards: ShardSet | None = None,
    ) -> list[ReminderDue]:
        if not owner:
            raise StorageError("a reminder claim needs an owner name")
        at = self._clock() if now is None else now
        where, args = "", list[Any]()
        if shards is not None:
            # Discord's shard of a guild: (guild_id >> 22) % shard_count.
            marks = ", ".join("?" * len(shards.ids))
            where = (" AND game_id IN (SELECT id FROM games WHERE guild_id IS NOT NULL"
                     f" AND (guild_id >> 22) % ? IN ({marks}))")
            args = [shards.count, *shards.ids]
        async with self._write() as tx:
            rows = await tx.all(
                "UPDATE reminder_due SET claimed_by = ?, claim_until = ?"
                " WHERE game_id IN (SELECT game_id FROM reminder_due"
                f" WHERE due_at <= ? AND (claim_until IS NULL OR claim_until <= ?){where}"
                f" ORDER BY due_at, game_id LIMIT ?{self.CLAIM_LOCK}) RETURNING *",
                owner, at + lease_seconds, at, at, *args, limit,
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

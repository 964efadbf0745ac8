"""Whole games as stored, for copying between stores (``stationmaster migrate``)."""

from __future__ import annotations

import json

from storage import _rows
from storage.errors import StorageError
from storage.models import (
    GameDump,
)
from storage.sql_base import (
    INSERT_ACTION,
    INSERT_END_VOTE,
    INSERT_GAME,
    INSERT_REMINDER,
    INSERT_REMINDER_DUE,
    INSERT_SEAT,
    UPSERT_OFFER,
    SqlBase,
)


class SqlDump(SqlBase):
    async def dump_game(self, game_id: int) -> GameDump:
        async with self._read() as tx:
            game = _rows.game(await self._game_row(tx, game_id))
            seats = await self._seats(tx, game_id)
            settings = await self._settings(tx, game_id)
            actions = await self._actions(tx, game_id, 0)
            reminders = await tx.all("SELECT * FROM reminder_state WHERE game_id = ?", game_id)
            due = await tx.one("SELECT * FROM reminder_due WHERE game_id = ?", game_id)
            offer = await tx.one("SELECT * FROM train_offers WHERE game_id = ?", game_id)
            votes = await tx.all("SELECT * FROM end_votes WHERE game_id = ?", game_id)
            away = await tx.all("SELECT * FROM away WHERE game_id = ?", game_id)
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
            end_votes=sorted(
                (_rows.end_vote(v) for v in votes),
                key=lambda v: (isinstance(v.player_id, str), v.player_id),
            ),
            away=sorted(
                (_rows.away(a) for a in away),
                key=lambda a: (isinstance(a.player_id, str), a.player_id),
            ),
        )

    async def restore_game(self, dump: GameDump) -> None:
        game = dump.game
        _rows.check_status(game.status)
        try:
            async with self._write() as tx:
                if await tx.one("SELECT id FROM games WHERE id = ?", game.id) is not None:
                    raise StorageError(f"the store already has a game with id {game.id}")
                await tx.execute(
                    INSERT_GAME.replace("INSERT INTO games (", "INSERT INTO games (id, ")
                    .replace("VALUES (", "VALUES (?, ")
                    .format(self.NEXT_CHANGE_NO),
                    game.id, game.title, game.seed, json.dumps(list(game.options)), game.status,
                    game.guild_id, game.channel_id, game.thread_id, game.creator_user_id,
                    game.created_at, game.updated_at,
                )
                await tx.executemany(INSERT_SEAT, [
                    (game.id, s.seat, s.player_id, s.discord_user_id, s.display_name, s.replaced,
                     s.left)
                    for s in dump.seats
                ])
                await self._put_settings(tx, game.id, dump.settings)
                await tx.executemany(INSERT_ACTION, [
                    (game.id, a.seq, _rows.action_text(a.action), a.actor_user_id, a.created_at)
                    for a in dump.actions
                ])
                await tx.executemany(INSERT_REMINDER, [
                    (game.id, r.player_id, r.last_ping_at, r.ping_count) for r in dump.reminders
                ])
                if (due := dump.reminder_due) is not None:
                    await tx.execute(
                        INSERT_REMINDER_DUE, game.id, due.due_at, due.claimed_by, due.claim_until
                    )
                if (offer := dump.train_offer) is not None:
                    await tx.execute(
                        UPSERT_OFFER, game.id, offer.seq, _rows.action_text(offer.action),
                        offer.buyer_user_id, offer.seller_player_id, offer.created_at,
                    )
                await tx.executemany(INSERT_END_VOTE, [
                    (game.id, v.player_id, v.seq, v.created_at) for v in dump.end_votes
                ])
                await tx.executemany(
                    "INSERT INTO away (game_id, player_id, until_at, passes) VALUES (?, ?, ?, ?)",
                    [(game.id, a.player_id, a.until_at, json.dumps(list(a.passes))) for a in dump.away],
                )
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game.id} refused by the database: {exc}") from exc

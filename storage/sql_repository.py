"""The SQL that SQLite and PostgreSQL share: every repository method written once (games,
seats, actions, settings and offers here; reminders in ``sql_reminders``, whole-game copies in
``sql_dump``).

A backend supplies transactions (``_write``, ``_read``, ``_query``) yielding a ``Tx`` that
runs statements written with ``?`` placeholders, plus the few expressions the two dialects
spell differently (class attributes of ``sql_base.SqlBase``). Booleans are written
TRUE/FALSE, which SQLite reads as 1/0.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage import _rows
from storage.errors import GameNotFound, SeqConflict, StorageError
from storage.models import (
    Away,
    EndVote,
    GameRecord,
    GameSettings,
    GameStatus,
    LoadedGame,
    NewGame,
    NewSeat,
    PlayerId,
    SeatRecord,
    StoredAction,
    TrainOffer,
)
from storage.repository import ActionInput
from storage.sql_base import (
    INSERT_ACTION,
    INSERT_GAME,
    INSERT_SEAT,
    UPSERT_OFFER,
    Row,
)
from storage.sql_dump import SqlDump
from storage.sql_reminders import SqlReminders


class SqlGameRepository(SqlReminders, SqlDump):
    """Every repository method; a backend subclass adds connections and transactions."""

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
                    INSERT_GAME.format(self.NEXT_CHANGE_NO) + " RETURNING id",
                    game.title, game.seed, options, game.status, game.guild_id, game.channel_id,
                    game.thread_id, game.creator_user_id, stamp, stamp,
                )
                assert row is not None
                game_id = int(row["id"])
                await tx.executemany(INSERT_SEAT, [
                    (game_id, number, seat.player_id, seat.discord_user_id, seat.display_name,
                     False, False)
                    for number, seat in enumerate(seats, start=1)
                ])
                await self._put_settings(tx, game_id, settings or GameSettings())
                await tx.executemany(INSERT_ACTION, [
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
                    INSERT_SEAT, game_id, number, seat.player_id, seat.discord_user_id,
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
            await tx.execute(INSERT_ACTION, game_id, expected_seq, text, actor, stamp)
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

    # -- pending train offers -------------------------------------------------------------
    async def put_train_offer(self, offer: TrainOffer) -> TrainOffer:
        text = _rows.action_text(offer.action)
        stamp = self._clock()
        try:
            async with self._write() as tx:
                await self._touch(tx, offer.game_id)
                row = await tx.one(
                    UPSERT_OFFER, offer.game_id, offer.seq, text, offer.buyer_user_id,
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

    # -- /game end agreements -------------------------------------------------------------
    async def agree_to_end(self, game_id: int, player_id: PlayerId, seq: int) -> list[EndVote]:
        stamp = self._clock()
        try:
            async with self._write() as tx:
                # The game row first: concurrent agreements queue there (PostgreSQL's row
                # lock), so the last of them sees every other; other processes hear of it.
                if not await tx.execute(
                    f"UPDATE games SET change_no = {self.NEXT_CHANGE_NO} WHERE id = ?", game_id
                ):
                    raise GameNotFound(game_id)
                await tx.execute("DELETE FROM end_votes WHERE game_id = ? AND seq <> ?", game_id, seq)
                await tx.execute(
                    "INSERT INTO end_votes (game_id, player_id, seq, created_at) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (game_id, player_id) DO NOTHING",
                    game_id, player_id, seq, stamp,
                )
                rows = await tx.all("SELECT * FROM end_votes WHERE game_id = ?", game_id)
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game_id} has no player {player_id!r}") from exc
        return _sorted_votes(rows)

    async def list_end_votes(self, game_id: int) -> list[EndVote]:
        async with self._query() as tx:
            rows = await tx.all("SELECT * FROM end_votes WHERE game_id = ?", game_id)
        return _sorted_votes(rows)

    async def clear_end_votes(self, game_id: int) -> None:
        async with self._write() as tx:
            await tx.execute("DELETE FROM end_votes WHERE game_id = ?", game_id)

    # -- players away (/auto away) ---------------------------------------------------------
    async def set_away(self, game_id: int, player_id: PlayerId, until_at: int | None) -> None:
        try:
            async with self._write() as tx:
                if not await tx.execute(
                    f"UPDATE games SET change_no = {self.NEXT_CHANGE_NO} WHERE id = ?", game_id
                ):
                    raise GameNotFound(game_id)
                if until_at is None:
                    await tx.execute("DELETE FROM away WHERE game_id = ? AND player_id = ?", game_id, player_id)
                else:
                    await tx.execute(
                        "INSERT INTO away (game_id, player_id, until_at) VALUES (?, ?, ?)"
                        " ON CONFLICT (game_id, player_id) DO UPDATE SET until_at = excluded.until_at",
                        game_id, player_id, until_at,
                    )
        except self.INTEGRITY_ERRORS as exc:
            raise StorageError(f"game {game_id} has no player {player_id!r}") from exc

    async def list_away(self, game_id: int) -> list[Away]:
        async with self._query() as tx:
            rows = await tx.all("SELECT * FROM away WHERE game_id = ?", game_id)
        away = [_rows.away(r) for r in rows]
        return sorted(away, key=lambda a: (isinstance(a.player_id, str), a.player_id))

    async def note_away_pass(self, game_id: int, player_id: PlayerId, seq: int) -> None:
        async with self._write() as tx:
            row = await tx.one("SELECT passes FROM away WHERE game_id = ? AND player_id = ?", game_id, player_id)
            if row is not None:
                passes = [*json.loads(row["passes"]), seq]
                await tx.execute("UPDATE away SET passes = ? WHERE game_id = ? AND player_id = ?",
                                 json.dumps(passes), game_id, player_id)

    async def take_away_passes(self, game_id: int, player_id: PlayerId) -> tuple[int, ...]:
        async with self._write() as tx:
            row = await tx.one("SELECT passes FROM away WHERE game_id = ? AND player_id = ?", game_id, player_id)
            if row is None:
                return ()
            await tx.execute("UPDATE away SET passes = '[]' WHERE game_id = ? AND player_id = ?", game_id, player_id)
        return tuple(json.loads(row["passes"]))

    # -- copying whole stores -------------------------------------------------------------


def _sorted_votes(rows: Sequence[Row]) -> list[EndVote]:
    # Player ids mix integers and text, which the databases order differently.
    votes = [_rows.end_vote(r) for r in rows]
    return sorted(votes, key=lambda v: (isinstance(v.player_id, str), v.player_id))

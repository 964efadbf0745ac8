"""Conversions between database rows and the storage dataclasses, for every backend.

A row is anything indexed by column name (``sqlite3.Row``, ``asyncpg.Record``); both
backends store the same Python values: JSON columns as text, player ids as int or str. A row
that is not what Stationmaster writes (added or edited by hand: SQLite keeps any value in any
column) raises ``StoreUnusable`` naming it, instead of failing somewhere later.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, cast

from storage.errors import StorageError, StoreUnusable
from storage.models import (
    GAME_STATUSES,
    Away,
    EndVote,
    GameRecord,
    GameSettings,
    GameStatus,
    ReminderDue,
    ReminderState,
    SeatRecord,
    StoredAction,
    TrainOffer,
)
from untrusted import json_text


def action_text(action: Mapping[str, Any] | str) -> str:
    """Canonical JSON text of one action object; refuses anything that is not an object
    with a ``type`` so a bad caller cannot poison the log."""
    try:
        if isinstance(action, str):
            value = json_text.loads(action)
        else:
            value = dict(action)
            json_text.check_value(value)
    except json_text.UnsafeJSON as exc:
        raise StorageError(f"action refused: {exc}") from None
    if not isinstance(value, dict) or not isinstance(value.get("type"), str):
        raise StorageError("an action must be a JSON object with a string 'type'")
    # allow_nan=False: SQLite's json_valid rejects NaN, and so does every other JSON reader.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


class Row(Protocol):
    def __getitem__(self, key: str, /) -> Any: ...


def check_status(status: str) -> GameStatus:
    if status not in GAME_STATUSES:
        raise StorageError(f"unknown game status {status!r}")
    return cast(GameStatus, status)


def _whole(row: Row, column: str, where: str, *, optional: bool = False) -> Any:
    value = row[column]
    if optional and value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise StoreUnusable.damaged(f"{where} has {column} {str(value)[:40]!r}, not a whole number")
    return value


def _text(row: Row, column: str, where: str) -> str:
    value = row[column]
    if not isinstance(value, str):
        raise StoreUnusable.damaged(f"{where} has {column} {str(value)[:40]!r}, not text")
    return value


def _json(row: Row, column: str, where: str) -> Any:
    try:
        return json.loads(row[column])
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreUnusable.damaged(f"{where}: its {column} is not JSON that can be read "
                                    f"({type(exc).__name__})") from None


def game(row: Row) -> GameRecord:
    where = f"the row of game {str(row['id'])[:20]}"
    options = _json(row, "options", where)
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise StoreUnusable.damaged(f"{where} has options that are not a list of names")
    status = _text(row, "status", where)
    if status not in GAME_STATUSES:
        raise StoreUnusable.damaged(f"{where} has the unknown status {status[:40]!r}")
    return GameRecord(
        id=_whole(row, "id", where),
        title=_text(row, "title", where),
        seed=_whole(row, "seed", where),
        options=tuple(options),
        status=cast(GameStatus, status),
        guild_id=_whole(row, "guild_id", where, optional=True),
        channel_id=_whole(row, "channel_id", where, optional=True),
        thread_id=_whole(row, "thread_id", where, optional=True),
        creator_user_id=_whole(row, "creator_user_id", where, optional=True),
        created_at=_whole(row, "created_at", where),
        updated_at=_whole(row, "updated_at", where),
        change_no=_whole(row, "change_no", where),
    )


def seat(row: Row) -> SeatRecord:
    where = f"seat {str(row['seat'])[:20]} of game {row['game_id']}"
    player_id = row["player_id"]
    if isinstance(player_id, bool) or not isinstance(player_id, int | str):
        raise StoreUnusable.damaged(f"{where} has the player id {str(player_id)[:40]!r}")
    return SeatRecord(
        game_id=row["game_id"],
        seat=_whole(row, "seat", where),
        player_id=player_id,
        discord_user_id=_whole(row, "discord_user_id", where, optional=True),
        display_name=_text(row, "display_name", where),
        replaced=bool(row["replaced"]),
        left=bool(row["left_game"]),
    )


def settings(row: Row | None) -> GameSettings:
    if row is None:
        return GameSettings()
    return GameSettings(
        reminder_first_after_hours=row["reminder_first_after_hours"],
        reminder_repeat_hours=row["reminder_repeat_hours"],
        quiet_start_hour=row["quiet_start_hour"],
        quiet_end_hour=row["quiet_end_hour"],
        quiet_time_zone=row["quiet_time_zone"],
        undo_policy=row["undo_policy"],
    )


def action(row: Row) -> StoredAction:
    return StoredAction(
        game_id=row["game_id"],
        seq=row["seq"],
        action=_json(row, "action", f"move {row['seq']} of game {row['game_id']}"),
        actor_user_id=row["actor_user_id"],
        created_at=row["created_at"],
    )


def reminder(row: Row) -> ReminderState:
    return ReminderState(
        game_id=row["game_id"],
        player_id=row["player_id"],
        last_ping_at=row["last_ping_at"],
        ping_count=row["ping_count"],
    )


def reminder_due(row: Row) -> ReminderDue:
    return ReminderDue(
        game_id=row["game_id"],
        due_at=row["due_at"],
        claimed_by=row["claimed_by"],
        claim_until=row["claim_until"],
    )


def train_offer(row: Row) -> TrainOffer:
    return TrainOffer(
        game_id=row["game_id"],
        seq=row["seq"],
        action=_json(row, "action", f"the train offer of game {row['game_id']}"),
        buyer_user_id=row["buyer_user_id"],
        seller_player_id=row["seller_player_id"],
        created_at=row["created_at"],
    )


def away(row: Row) -> Away:
    return Away(
        game_id=row["game_id"],
        player_id=row["player_id"],
        until_at=row["until_at"],
        passes=tuple(json.loads(row["passes"])),
    )


def end_vote(row: Row) -> EndVote:
    return EndVote(
        game_id=row["game_id"],
        player_id=row["player_id"],
        seq=row["seq"],
        created_at=row["created_at"],
    )

"""Conversions between database rows and the storage dataclasses, for every backend.

A row is anything indexed by column name (``sqlite3.Row``, ``asyncpg.Record``); both
backends store the same Python values: JSON columns as text, player ids as int or str.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol, cast

from storage.errors import StorageError
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


def game(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"],
        title=row["title"],
        seed=row["seed"],
        options=tuple(json.loads(row["options"])),
        status=check_status(row["status"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        creator_user_id=row["creator_user_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        change_no=row["change_no"],
    )


def seat(row: Row) -> SeatRecord:
    return SeatRecord(
        game_id=row["game_id"],
        seat=row["seat"],
        player_id=row["player_id"],
        discord_user_id=row["discord_user_id"],
        display_name=row["display_name"],
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
        action=json.loads(row["action"]),
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
        action=json.loads(row["action"]),
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

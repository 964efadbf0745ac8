"""Stationmaster's game store: an append-only action log per game, in SQLite or PostgreSQL.

Open a store with ``await open_repository(url)`` (``sqlite:///path`` or ``postgresql://...``)
and program against ``GameRepository``.
"""

from storage.errors import (
    GameBusy,
    GameNotFound,
    ImportRefused,
    MigrationError,
    SeqConflict,
    StorageError,
    StoreUnavailable,
    StoreUnusable,
)
from storage.models import (
    Away,
    EndVote,
    GameChange,
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
from storage.replay import replay
from storage.repository import ChangeFeed, GameRepository, ShardSet
from storage.sqlite import SqliteGameRepository
from storage.transfer import export_document, import_document
from storage.urls import open_repository, parse_database_url

__all__ = [
    "Away",
    "EndVote",
    "ChangeFeed",
    "GameChange",
    "GameBusy",
    "GameDump",
    "GameNotFound",
    "GameRecord",
    "GameRepository",
    "GameSettings",
    "GameStatus",
    "ImportRefused",
    "LoadedGame",
    "MigrationError",
    "NewGame",
    "NewSeat",
    "PlayerId",
    "ReminderDue",
    "ReminderState",
    "SeatRecord",
    "SeqConflict",
    "ShardSet",
    "SqliteGameRepository",
    "StorageError",
    "StoreUnavailable",
    "StoreUnusable",
    "StoredAction",
    "TrainOffer",
    "export_document",
    "import_document",
    "open_repository",
    "parse_database_url",
    "replay",
]

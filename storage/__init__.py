"""Stationmaster's game store: an append-only action log per game, in SQLite.

Open a store with ``await SqliteGameRepository.open(path)``; program against
``GameRepository`` so another backend can replace it.
"""

from storage.errors import (
    GameNotFound,
    ImportRefused,
    MigrationError,
    SeqConflict,
    StorageError,
)
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
from storage.replay import replay
from storage.repository import GameRepository
from storage.sqlite import SqliteGameRepository
from storage.transfer import export_document, import_document

__all__ = [
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
    "ReminderState",
    "SeatRecord",
    "SeqConflict",
    "SqliteGameRepository",
    "StorageError",
    "StoredAction",
    "TrainOffer",
    "export_document",
    "import_document",
    "replay",
]

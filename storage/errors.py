"""Errors the storage layer raises; the bot turns them into messages for players."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error raised on purpose by storage."""


class MigrationError(StorageError):
    """The schema could not be brought up to date (the database is left as it was)."""


class GameNotFound(StorageError):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"no game with id {game_id}")
        self.game_id = game_id


class SeqConflict(StorageError):
    """Another command appended to this game first: reload and try again."""

    def __init__(self, game_id: int, expected_seq: int, last_seq: int) -> None:
        super().__init__(
            f"game {game_id}: expected to write action {expected_seq} but the log already "
            f"ends at action {last_seq} (someone moved first)"
        )
        self.game_id = game_id
        self.expected_seq = expected_seq
        self.last_seq = last_seq


class ImportRefused(StorageError):
    """A game document was refused; nothing was written."""

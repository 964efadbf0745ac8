"""Errors the storage layer raises; the bot turns them into messages for players."""

from __future__ import annotations

from untrusted.quote import shortened


class StorageError(Exception):
    """Base class of every error raised on purpose by storage."""


class MigrationError(StorageError):
    """The schema could not be brought up to date (the database is left as it was)."""


class StoreUnavailable(StorageError):
    """The database cannot be reached now (its server stopped or is restarting, the network
    is cut). Nothing was written, unless ``in_doubt``: the connection was lost while a commit
    was under way, so the write may or may not have landed (reading the game again tells)."""

    def __init__(self, detail: str, *, in_doubt: bool = False) -> None:
        super().__init__(f"the game store is unavailable ({detail})")
        self.detail = detail
        self.in_doubt = in_doubt


class GameBusy(StorageError):
    """Another process held the game (or the row being written) for longer than the store
    waits (a process frozen while holding it, say); nothing was written."""

    def __init__(self, game_id: int | None, seconds: float) -> None:
        what = f"game {game_id}" if game_id is not None else "a game"
        super().__init__(f"{what} is busy: another process has held it for more than {seconds:g} s")
        self.game_id = game_id
        self.seconds = seconds


class StoreUnusable(StorageError):
    """The store cannot do this as it is: a table or column is missing (dropped by hand), a
    stored row cannot be read, or the database user may only read. The message names what."""

    @classmethod
    def damaged(cls, what: str) -> StoreUnusable:
        """A table, column or row that is not what Stationmaster wrote (edited by hand?)."""
        return cls(f"the store is damaged: {what} (changed by hand?); restore the database from a "
                   "backup, or export the games that still read and import them into a new one")

    @classmethod
    def read_only(cls, detail: str) -> StoreUnusable:
        return cls(f"the database may only be read here ({detail}): games can be looked at and "
                   "exported, not changed")


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
    """A game document was refused; nothing was written. The message may quote the document's
    values, so it is cut where it is made (as the engine's refusals are)."""

    def __init__(self, message: str) -> None:
        super().__init__(shortened(message))

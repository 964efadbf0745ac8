"""The storage interface the Moderator uses. SQLite implements it (``storage.sqlite``), and so
does PostgreSQL (``storage.postgres``) for several bot processes sharing one database;
``storage.urls.open_repository`` picks one from a database URL."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any

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

# An action to write: the action object or its JSON text, and the Discord user who sent it.
ActionInput = Mapping[str, Any] | str


@dataclass(frozen=True, slots=True)
class ShardSet:
    """Some of a bot's Discord shards: a guild belongs to shard ``(guild_id >> 22) % count``
    (Discord's rule), and a process serves only the guilds of the shards it holds."""

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or any(not 0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {self.ids} do not fit a count of {self.count}")

    def holds(self, guild_id: int | None) -> bool:
        return guild_id is not None and (guild_id >> 22) % self.count in self.ids


class _Closes(ABC):
    """``async with`` closes it on the way out."""

    @abstractmethod
    async def close(self) -> None: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


class ChangeFeed(_Closes):
    """Committed changes to games, from the moment the feed is entered (``async with``).

    Iterate it (``async for change in feed``) or ``await feed.get()``. A process's own
    writes are reported too: compare the stored seq with the one in memory before reloading.
    """

    def __init__(self) -> None:
        self._queue: asyncio.Queue[GameChange] = asyncio.Queue()

    @abstractmethod
    async def start(self) -> None:
        """Begin watching (called by ``__aenter__``)."""

    async def get(self) -> GameChange:
        return await self._queue.get()

    def _put(self, change: GameChange) -> None:
        self._queue.put_nowait(change)

    async def __aenter__(self) -> ChangeFeed:
        await self.start()
        return self

    def __aiter__(self) -> ChangeFeed:
        return self

    async def __anext__(self) -> GameChange:
        return await self.get()


class GameRepository(_Closes):
    """Games, seats, settings, reminder state and the append-only action log.

    Every write is one transaction. Nothing ever updates or deletes an action: undo and
    redo are appended as ``undo``/``redo`` actions like any other move.
    """

    async def __aenter__(self) -> GameRepository:
        return self

    # -- games ------------------------------------------------------------------------
    @abstractmethod
    async def create_game(
        self,
        game: NewGame,
        seats: Sequence[NewSeat] = (),
        settings: GameSettings | None = None,
        actions: Sequence[tuple[ActionInput, int | None]] = (),
    ) -> int:
        """Create a game with its seats, settings and (for imports) its first actions,
        all in one transaction; return the new game id."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord:
        """Raise GameNotFound if there is no such game."""

    @abstractmethod
    async def list_games(
        self, *, guild_id: int | None = None, statuses: Sequence[GameStatus] | None = None
    ) -> list[GameRecord]: ...

    @abstractmethod
    async def find_game_by_thread(self, thread_id: int) -> GameRecord | None: ...

    @abstractmethod
    async def set_status(self, game_id: int, status: GameStatus) -> None: ...

    @abstractmethod
    async def set_location(
        self, game_id: int, *, guild_id: int | None, channel_id: int | None, thread_id: int | None
    ) -> None:
        """Record where the game is played (the bot creates one thread per game)."""

    @abstractmethod
    async def load_game(self, game_id: int) -> LoadedGame:
        """The game row, seats, settings and the whole action list in seq order."""

    # -- seats ------------------------------------------------------------------------
    @abstractmethod
    async def list_seats(self, game_id: int) -> list[SeatRecord]: ...

    @abstractmethod
    async def add_seat(self, game_id: int, seat: NewSeat) -> SeatRecord:
        """Add a seat after the last one (while the game is being set up)."""

    @abstractmethod
    async def replace_seat_user(
        self, game_id: int, seat: int, discord_user_id: int, display_name: str
    ) -> SeatRecord:
        """Give a seat to another Discord user; the player id in the actions stays."""

    @abstractmethod
    async def mark_seat_left(self, game_id: int, seat: int) -> SeatRecord: ...

    @abstractmethod
    async def start_game(self, game_id: int, seating: Sequence[tuple[int | None, str]]) -> None:
        """Seat players in order (seat 1 first: Discord user id and display name) and mark the
        game active, in one transaction; seats keep their player ids."""

    # -- actions ----------------------------------------------------------------------
    @abstractmethod
    async def append_action(
        self, game_id: int, expected_seq: int, action_json: ActionInput, actor: int | None
    ) -> StoredAction:
        """Append if ``expected_seq`` is the log's last seq + 1, checked inside the write
        transaction; otherwise raise SeqConflict carrying the current last seq."""

    @abstractmethod
    async def last_seq(self, game_id: int) -> int:
        """The seq of the game's last stored action (0 for none): one indexed lookup, cheap
        enough to run before every command to tell whether a game held in memory is stale."""

    @abstractmethod
    async def game_head(self, game_id: int) -> tuple[GameRecord, int]:
        """The game row and its log's last seq, read together: a process that caches games
        compares them with its copy to notice moves made by another process."""

    @abstractmethod
    async def list_actions(self, game_id: int, *, after_seq: int = 0) -> list[StoredAction]: ...

    # -- settings and reminders -------------------------------------------------------
    @abstractmethod
    async def get_settings(self, game_id: int) -> GameSettings: ...

    @abstractmethod
    async def update_settings(self, game_id: int, settings: GameSettings) -> None: ...

    @abstractmethod
    async def record_reminder(
        self, game_id: int, player_id: PlayerId, at: int | None = None
    ) -> ReminderState:
        """Note that a player was pinged (count + 1, last ping time = ``at`` or now)."""

    @abstractmethod
    async def reset_reminder(self, game_id: int, player_id: PlayerId) -> None:
        """The player acted: forget their pings."""

    @abstractmethod
    async def list_reminder_states(self, game_id: int | None = None) -> list[ReminderState]:
        """All reminder rows (of one game, or of every game to rebuild the scheduler)."""

    @abstractmethod
    async def set_reminder_due(self, game_id: int, due_at: int | None) -> None:
        """Store when the game's next reminder is due (Unix seconds), or forget it (None)."""

    @abstractmethod
    async def list_reminder_dues(self) -> dict[int, int]:
        """Every stored due time, by game id (the scheduler is rebuilt from these)."""

    # -- pending train offers (rule 12.6 consent) -------------------------------------
    @abstractmethod
    async def put_train_offer(self, offer: TrainOffer) -> TrainOffer:
        """Record the game's pending offer, replacing any earlier one (one per game);
        returns it with the stored creation time."""

    @abstractmethod
    async def get_train_offer(self, game_id: int) -> TrainOffer | None: ...

    @abstractmethod
    async def clear_train_offer(self, game_id: int) -> None:
        """The offer was answered or has lapsed: forget it (no error if there is none)."""

    # -- /game end agreements ---------------------------------------------------------
    @abstractmethod
    async def agree_to_end(self, game_id: int, player_id: PlayerId, seq: int) -> list[EndVote]:
        """Record that the player agrees to end the game while its log ends at ``seq``,
        forgetting agreements given at any other seq, in one transaction that queues behind
        every other write to the game; return the agreements now standing (at ``seq``)."""

    @abstractmethod
    async def list_end_votes(self, game_id: int) -> list[EndVote]: ...

    @abstractmethod
    async def clear_end_votes(self, game_id: int) -> None:
        """Forget the game's agreements (no error if there are none)."""

    # -- players away (/auto away) -----------------------------------------------------------
    @abstractmethod
    async def set_away(self, game_id: int, player_id: PlayerId, until_at: int | None) -> None:
        """The player is away until ``until_at`` (the passes made for them not yet told are
        kept), or back (None: the record goes). Other processes hear of it (the change number)."""

    @abstractmethod
    async def list_away(self, game_id: int) -> list[Away]: ...

    @abstractmethod
    async def note_away_pass(self, game_id: int, player_id: PlayerId, seq: int) -> None:
        """The bot passed for the player, away, at ``seq`` (nothing if they are not away)."""

    @abstractmethod
    async def take_away_passes(self, game_id: int, player_id: PlayerId) -> tuple[int, ...]:
        """The seqs of the passes made for the player not yet told of, forgotten once taken."""

    # -- several processes on one store ---------------------------------------------------
    @abstractmethod
    def game_lock(self, game_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the game while a move is validated and committed, so two commands for one
        game run one after the other, in this process and (where the backend can) in every
        other process on the same store. The seq-checked append stays the guarantee; the
        lock only spares the loser a wasted validation."""

    @abstractmethod
    def change_feed(self, *, poll_interval: float = 0.5) -> ChangeFeed:
        """A feed of committed game changes made through any connection to this store
        (``poll_interval``: seconds between looks, where the backend must poll)."""

    @abstractmethod
    async def claim_due_reminders(
        self, owner: str, *, lease_seconds: int = 300, limit: int = 100, now: int | None = None,
        shards: ShardSet | None = None,
    ) -> list[ReminderDue]:
        """Take up to ``limit`` game reminders due by ``now`` that nobody holds (or whose
        holder's claim has run out) for ``owner`` until ``now + lease_seconds``. However many
        processes call this at once, each due reminder goes to exactly one of them.
        (``set_reminder_due`` plans anew and drops any claim.) With ``shards``, only games of
        the guilds those Discord shards serve are taken."""

    @abstractmethod
    async def complete_reminder(self, game_id: int, owner: str, *, next_due_at: int | None) -> bool:
        """Settle the game's due reminder that ``owner`` claimed: plan the next one (None:
        none) and release the claim. False, changing nothing, if ``owner`` no longer holds it
        (another process took it over, or it was planned anew): then send nothing. Settling
        before sending, as the bot records a ping before it goes out, means a crash between
        the two loses that ping rather than sending it twice."""

    # -- copying whole stores -------------------------------------------------------------
    @abstractmethod
    async def list_game_ids(self) -> list[int]: ...

    @abstractmethod
    async def dump_game(self, game_id: int) -> GameDump:
        """Every row of the game, as stored, read in one consistent snapshot."""

    @abstractmethod
    async def restore_game(self, dump: GameDump) -> None:
        """Write a dumped game with its own id, times and flags, in one transaction; refuses
        (StorageError, nothing written) if the store already has a game with that id."""

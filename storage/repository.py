"""The storage interface the Moderator uses. SQLite implements it (``storage.sqlite``); a
PostgreSQL implementation can be added for a sharded bot without touching callers."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

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

# An action to write: the action object or its JSON text, and the Discord user who sent it.
ActionInput = Mapping[str, Any] | str


class GameRepository(ABC):
    """Games, seats, settings, reminder state and the append-only action log.

    Every write is one transaction. Nothing ever updates or deletes an action: undo and
    redo are appended as ``undo``/``redo`` actions like any other move.
    """

    @abstractmethod
    async def close(self) -> None: ...

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
    async def last_seq(self, game_id: int) -> int: ...

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

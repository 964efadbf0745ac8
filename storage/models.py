"""Values the repository returns: frozen dataclasses, never raw database rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

GameStatus = Literal["setup", "active", "paused", "finished", "abandoned"]
GAME_STATUSES: frozenset[str] = frozenset({"setup", "active", "paused", "finished", "abandoned"})

# Player ids are whatever the actions use as "entity": 18xx.games user ids (int) or names.
PlayerId = int | str


@dataclass(frozen=True, slots=True)
class NewGame:
    title: str
    seed: int
    options: tuple[str, ...] = ()
    status: GameStatus = "setup"
    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    creator_user_id: int | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    title: str
    seed: int
    options: tuple[str, ...]
    status: GameStatus
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    creator_user_id: int | None
    created_at: int
    updated_at: int
    # The store-wide number of the game's last change (any write to the game: a move, a seat,
    # a setting, an offer). A process compares it with the one it holds to notice another
    # process's change; copies of a game get new numbers, so equality ignores it.
    change_no: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class NewSeat:
    player_id: PlayerId
    display_name: str
    discord_user_id: int | None = None


@dataclass(frozen=True, slots=True)
class SeatRecord:
    game_id: int
    seat: int  # 1-based, in player order
    player_id: PlayerId
    discord_user_id: int | None
    display_name: str
    replaced: bool
    left: bool


@dataclass(frozen=True, slots=True)
class GameSettings:
    reminder_first_after_hours: float = 24.0
    reminder_repeat_hours: float = 24.0
    quiet_start_hour: int | None = None
    quiet_end_hour: int | None = None
    quiet_time_zone: str = "UTC"
    undo_policy: str = "own_last_action"


@dataclass(frozen=True, slots=True)
class StoredAction:
    game_id: int
    seq: int
    action: dict[str, Any]  # the 18xx.games action object, exactly as appended
    actor_user_id: int | None
    created_at: int


@dataclass(frozen=True, slots=True)
class ReminderState:
    game_id: int
    player_id: PlayerId
    last_ping_at: int | None
    ping_count: int


@dataclass(frozen=True, slots=True)
class ReminderDue:
    """When a game's next reminder is due (Unix seconds). A process that takes the due
    reminder holds it as ``claimed_by`` until ``claim_until``; a claim whose time has passed
    may be taken by another process, so a reminder survives its claimer dying."""

    game_id: int
    due_at: int
    claimed_by: str | None = None
    claim_until: int | None = None


@dataclass(frozen=True, slots=True)
class TrainOffer:
    """A train purchase waiting for the selling president's consent (rule 12.6).

    ``seq`` is the game's last action seq when the offer was made: once the log has moved
    past it, the offer has lapsed."""

    game_id: int
    seq: int
    action: dict[str, Any]  # the buy_train action to append if the seller accepts
    buyer_user_id: int | None
    seller_player_id: PlayerId
    created_at: int = 0


@dataclass(frozen=True, slots=True)
class EndVote:
    """A player's agreement to end the game now (``/game end``), given when the log ended
    at ``seq``: it counts only while the log is still there."""

    game_id: int
    player_id: PlayerId
    seq: int
    created_at: int = 0


@dataclass(frozen=True, slots=True)
class Away:
    """A player away until ``until_at``: the bot passes for them where passing is the only
    sensible choice; ``passes`` are the seqs of the passes it made that they have not been told of."""

    game_id: int
    player_id: PlayerId
    until_at: int
    passes: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class GameChange:
    """A committed change to a game, seen by a change feed.

    ``game_id`` None means the feed may have missed changes (its connection was lost and
    re-made): every game a process holds in memory is to be checked again."""

    game_id: int | None


@dataclass(frozen=True, slots=True)
class GameDump:
    """Every stored row of one game, exactly as stored (ids, times and flags included):
    what ``stationmaster migrate`` copies from one store to another."""

    game: GameRecord
    seats: list[SeatRecord]
    settings: GameSettings
    actions: list[StoredAction]
    reminders: list[ReminderState]
    reminder_due: ReminderDue | None
    train_offer: TrainOffer | None
    end_votes: list[EndVote] = field(default_factory=list)
    away: list[Away] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class LoadedGame:
    """Everything needed to rebuild a game: replay ``actions`` through the engine."""

    game: GameRecord
    seats: list[SeatRecord]
    settings: GameSettings
    actions: list[StoredAction] = field(default_factory=list)

    @property
    def last_seq(self) -> int:
        return self.actions[-1].seq if self.actions else 0

    def players(self) -> list[dict[str, Any]]:
        """The engine's / 18xx.games' player list, in seat order."""
        return [{"id": s.player_id, "name": s.display_name} for s in self.seats]

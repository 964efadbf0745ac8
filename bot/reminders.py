"""Reminders: ping whoever must act when they have not moved for a while.

The database is the truth (RoboDanny's reminder pattern): when the position last changed
(the game's ``updated_at``, touched by every append), each player's last ping
(``reminder_state``) and the game's settings give the next due time by a pure function,
stored per game (``reminder_due``) after every change.

Any number of bot processes may share the store. Each polls for due reminders and claims
them (``claim_due_reminders``: each goes to exactly one process, and only to one holding the
Discord shard of the game's guild); a claim runs out after ``lease_seconds``, so a reminder
claimed by a process that died is taken over. A claimed reminder is sent, then the pings are
recorded and the claim settled with the next due time. The message carries a nonce made of
the game and the due time, which Discord enforces: if a process dies after sending but before
settling, the process taking the reminder over sends the same nonce and Discord returns the
first message instead of posting a second. So each reminder is posted once, however many
processes run and whichever dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from bot.coming_back import LIMIT
from bot.config import REMINDER_HOURS, hours_problem, zone_problem
from bot.offers import answering_seat
from bot.replies import acting_seats
from bot.store_trouble import log_failure
from storage import GameSettings, ReminderDue, ReminderState, SeatRecord, ShardSet

if TYPE_CHECKING:
    from bot.moderator import Moderator

log = logging.getLogger(__name__)

MAX_TIMESTAMP = 253_402_300_799  # 9999-12-31T23:59:59Z, the last moment a datetime holds

# send(game_id, text, user ids to ping, nonce): the nonce is the same for every attempt at one
# reminder (at most 25 characters, as Discord takes), so that Discord posts it once.
Sender = Callable[[int, str, tuple[int, ...], str], Awaitable[None]]


def in_quiet_hours(moment: datetime, settings: GameSettings) -> bool:
    start, end = settings.quiet_start_hour, settings.quiet_end_hour
    if start is None or end is None or start == end:
        return False
    hour = moment.hour
    return start <= hour < end if start < end else hour >= start or hour < end


def out_of_quiet_hours(when: int, settings: GameSettings) -> int:
    """`when`, or the end of the quiet hours it falls in."""
    local = datetime.fromtimestamp(when, ZoneInfo(settings.quiet_time_zone))
    if not in_quiet_hours(local, settings):
        return when
    assert settings.quiet_end_hour is not None
    end = local.replace(hour=settings.quiet_end_hour, minute=0, second=0, microsecond=0)
    if end <= local:
        end += timedelta(days=1)
    return int(end.timestamp())


def usable(settings: GameSettings) -> GameSettings:
    """The settings, with any stored value outside the allowed ranges (an older version, or
    a hand-edited database) replaced by the nearest allowed one, so no game can stop the
    scheduler."""
    values: dict[str, Any] = {}
    for key in REMINDER_HOURS:
        low, high = REMINDER_HOURS[key]
        value = getattr(settings, f"reminder_{key}")
        if hours_problem(key, value) is not None:
            finite = isinstance(value, int | float) and math.isfinite(value)
            values[f"reminder_{key}"] = min(max(float(value), low), high) if finite else 24.0
    for key in ("quiet_start_hour", "quiet_end_hour"):
        hour = getattr(settings, key)
        if hour is not None and (not isinstance(hour, int) or not 0 <= hour <= 23):
            values["quiet_start_hour"] = values["quiet_end_hour"] = None
    if zone_problem(settings.quiet_time_zone) is not None:
        values["quiet_time_zone"] = "UTC"
    return replace(settings, **values) if values else settings


def next_due(settings: GameSettings, since: int, state: ReminderState | None) -> int:
    """When to ping a player who has had to act since `since` (Unix seconds)."""
    settings = usable(settings)
    if state is not None and state.last_ping_at is not None and state.last_ping_at >= since:
        due = state.last_ping_at + settings.reminder_repeat_hours * 3600
    else:
        due = since + settings.reminder_first_after_hours * 3600
    return out_of_quiet_hours(int(round(due)), settings)


def process_name() -> str:
    """Who holds a claim: host, process id and a random part (process ids are reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"


class ReminderService:
    """Finds the due reminders this process is to send, and plans each game's next one."""

    def __init__(self, moderator: Moderator, send: Sender, clock: Callable[[], float] = time.time, *,
                 shards: ShardSet | None = None, poll_seconds: float = 30.0, lease_seconds: int = 60,
                 owner: str | None = None) -> None:
        self.moderator = moderator
        self.repo = moderator.repo
        self.send = send
        self.clock = clock
        self.shards = shards
        self.poll_seconds = poll_seconds
        # Shorter than the few minutes in which Discord enforces a message nonce.
        self.lease_seconds = lease_seconds
        self.owner = owner or process_name()
        self.sent: list[tuple[int, tuple[int, ...]]] = []  # (game, users) of each reminder sent
        self.stored: dict[int, int | None] = {}  # the due time this process last wrote per game
        self._soonest: int | None = None  # the earliest due time this process planned
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def start(self) -> None:
        """Plan the active games of this process's shards that have no due time stored
        (imported from the command line...), without loading any game, then look for due
        reminders every ``poll_seconds`` (sooner when a game planned here falls due)."""
        try:
            await self._plan_unplanned()
        except Exception as error:  # the store's trouble must not keep the bot from starting
            log_failure(log, "planning the reminders of unplanned games failed", error)
        self._task = asyncio.create_task(self._run(), name="stationmaster-reminders")

    async def _plan_unplanned(self) -> None:
        dues = await self.repo.list_reminder_dues()
        self.stored.update(dues)
        for record in await self.repo.list_games(statuses=["active"]):
            if record.id in dues or (self.shards is not None and not self.shards.holds(record.guild_id)):
                continue
            try:
                settings = await self.repo.get_settings(record.id)
                await self._store(record.id, next_due(settings, record.updated_at, None))
            except Exception as error:
                log_failure(log, f"cannot plan reminders for game {record.id}; it gets none until it changes", error)

    async def stop(self, timeout: float = 10.0) -> None:
        """Stop looking for reminders; one being sent is finished first (up to ``timeout``),
        so that a stop between sending and settling does not leave it to be sent again."""
        task, self._task = self._task, None
        if task is None:
            return
        self._stopping = True
        self.wake()
        try:
            await asyncio.wait_for(task, timeout)
        except (TimeoutError, asyncio.CancelledError):
            pass

    def wake(self) -> None:
        """Look for due reminders now (a game's due time may have changed)."""
        self._wake.set()

    async def _run(self) -> None:
        while not self._stopping:
            try:
                await self.tick()
            except Exception as error:  # the store is unreachable for a moment: try again later
                log_failure(log, "looking for due reminders failed", error)
            if self._stopping:
                return
            timeout = self.poll_seconds
            if self._soonest is not None:
                timeout = min(timeout, max(0.0, self._soonest - self.clock()))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout)

    async def tick(self) -> int:
        """Claim the reminders due now and send them; returns how many were claimed."""
        now = int(self.clock())
        if self._soonest is not None and self._soonest <= now:
            self._soonest = None
        claims = await self.repo.claim_due_reminders(self.owner, lease_seconds=self.lease_seconds, now=now,
                                                     shards=self.shards)
        for claim in claims:
            if self._stopping:  # the rest of the claims run out and another process takes them
                break
            await self.fire(claim)
        return len(claims)

    async def due(self, game_id: int) -> list[tuple[int, SeatRecord]]:
        """(due time, seat) for each player who must act in an active game."""
        record = await self.repo.get_game(game_id)
        if record.status != "active":
            return []
        session = await self.moderator.sessions.get(game_id)
        if session.game is None or session.game.finished:
            return []
        settings = await self.repo.get_settings(game_id)
        pings = {str(s.player_id): s for s in await self.repo.list_reminder_states(game_id)}
        seller = answering_seat(session)
        waiting_on = [seller] if seller is not None else acting_seats(session.game.state, session.seats)
        return [(next_due(settings, record.updated_at, pings.get(str(seat.player_id))), seat)
                for seat in waiting_on]

    async def schedule(self, game_id: int) -> None:
        """Store a game's next due time; called whenever a game changes. A game that cannot be
        planned is logged and left out: it must not stop the others."""
        try:
            due = await self.due(game_id)
            await self._store(game_id, min((t for t, _ in due), default=None))
        except Exception as error:
            log_failure(log, f"cannot plan reminders for game {game_id}; it gets none until it changes", error)

    async def _store(self, game_id: int, when: int | None) -> None:
        if self.stored.get(game_id, -1) != when:
            await self.repo.set_reminder_due(game_id, when)
            self.stored[game_id] = when
        self._note(when)

    def _note(self, when: int | None) -> None:
        if when is not None and (self._soonest is None or when < self._soonest):
            self._soonest = min(max(when, 0), MAX_TIMESTAMP)
            self.wake()

    async def fire(self, claim: ReminderDue) -> None:
        """Send a claimed reminder (if anyone is still due), then settle the claim."""
        game_id = claim.game_id
        try:
            async with self.moderator.sessions.lock(game_id):  # not while a move is being made
                now = int(self.clock())
                seats = [seat for when, seat in await self.due(game_id) if when <= now]
                text = ""
                if seats:
                    session = await self.moderator.sessions.get(game_id)
                    assert session.game is not None
                    turn, _ = self.moderator.turn_text(session, session.game.state)
                    runs = await self.moderator.proposal_words(session)
                    text = f"Reminder: game #{game_id} is waiting.\n{turn}" + (f"\n{runs}" if runs else "")
                    away = await self.moderator.coming_back.digests(session, seats, LIMIT - len(text) - 1)
                    text = "\n".join([text, *away])
            users = tuple(s.discord_user_id for s in seats if s.discord_user_id is not None)
            if text:
                # Sent before anything is settled; a second attempt (this claim taken over
                # after a crash) carries the same nonce, and Discord posts it only once.
                await self.send(game_id, text, users, f"r{game_id}.{claim.due_at}")
                self.sent.append((game_id, users))
                for seat in seats:
                    await self.repo.record_reminder(game_id, seat.player_id, now)
            when = min((t for t, _ in await self.due(game_id)), default=None)
            if await self.repo.complete_reminder(game_id, self.owner, next_due_at=when):
                self.stored[game_id] = when
                self._note(when)
        except Exception as error:  # the claim runs out and the reminder is tried again then
            log_failure(log, f"reminder for game {game_id} failed", error)

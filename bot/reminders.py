"""Reminders: ping whoever must act when they have not moved for a while.

The database is the truth (RoboDanny's reminder pattern): when the position last changed
(the game's ``updated_at``, touched by every append), each player's last ping
(``reminder_state``) and the game's settings give the next due time by a pure function.
The APScheduler jobs (one per game) are only a cache of those times, rebuilt after every
move and, at start, from the due times stored then (so start-up replays no game), so a
restart neither loses a reminder (a due one fires at once) nor repeats one (a ping is
recorded before it is sent).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.config import REMINDER_HOURS, hours_problem, zone_problem
from bot.consent import answering_seat
from bot.replies import acting_seats
from storage import GameSettings, ReminderState, SeatRecord

if TYPE_CHECKING:
    from bot.moderator import Moderator

log = logging.getLogger(__name__)

MAX_TIMESTAMP = 253_402_300_799  # 9999-12-31T23:59:59Z, the last moment a datetime holds

# send(game_id, text, user ids to ping)
Sender = Callable[[int, str, tuple[int, ...]], Awaitable[None]]


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


class ReminderService:
    """Keeps one scheduler job per active game at its next due reminder."""

    def __init__(self, moderator: Moderator, send: Sender, clock: Callable[[], float] = time.time) -> None:
        self.moderator = moderator
        self.repo = moderator.repo
        self.send = send
        self.clock = clock
        self.scheduler = AsyncIOScheduler(timezone=UTC)
        self.sent: list[tuple[int, tuple[int, ...]]] = []  # (game, users) of each reminder sent
        self.stored: dict[int, int | None] = {}  # the due time last written for each game

    async def start(self) -> None:
        """Start the scheduler and plan every active game from the stored due times, without
        loading any game (a game is replayed only when its reminder fires)."""
        self.scheduler.start()
        dues = await self.repo.list_reminder_dues()
        self.stored.update(dues)
        for record in await self.repo.list_games(statuses=["active"]):
            try:
                when = dues.get(record.id)
                if when is None:  # never planned by the bot (imported from the command line...)
                    settings = await self.repo.get_settings(record.id)
                    when = next_due(settings, record.updated_at, None)
                self._plan(record.id, when)
            except Exception:
                log.exception("cannot plan reminders for game %s; it gets none until it changes", record.id)

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def job_id(self, game_id: int) -> str:
        return f"remind:{game_id}"

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
        """(Re)plan a game's job; called at start and whenever a game changes. A game that
        cannot be planned is logged and left out: it must not stop the others."""
        try:
            await self._schedule(game_id)
        except Exception:
            log.exception("cannot plan reminders for game %s; it gets none until it changes", game_id)

    async def _schedule(self, game_id: int) -> None:
        if not self.scheduler.running:
            return
        due = await self.due(game_id)
        when = min((t for t, _ in due), default=None)
        if when is None:
            if self.scheduler.get_job(self.job_id(game_id)) is not None:
                self.scheduler.remove_job(self.job_id(game_id))
        else:
            self._plan(game_id, when)
        if self.stored.get(game_id) != when:
            await self.repo.set_reminder_due(game_id, when)
            self.stored[game_id] = when

    def _plan(self, game_id: int, when: int) -> None:
        """A job firing at `when` (Unix seconds); an early one is harmless, as `fire` checks."""
        run_date = datetime.fromtimestamp(min(max(when, 0), MAX_TIMESTAMP), UTC)
        # misfire_grace_time=None: a reminder that fell due while the bot was down still fires.
        self.scheduler.add_job(self.fire, "date", run_date=run_date, args=[game_id], id=self.job_id(game_id),
                               replace_existing=True, misfire_grace_time=None, coalesce=True)

    async def fire(self, game_id: int) -> None:
        try:
            async with self.moderator.sessions.lock(game_id):  # not while a move is being made
                now = int(self.clock())
                seats = [seat for when, seat in await self.due(game_id) if when <= now]
                for seat in seats:
                    # Recorded before sending: a crash now loses this ping rather than repeating it.
                    await self.repo.record_reminder(game_id, seat.player_id, now)
                text = ""
                if seats:
                    session = await self.moderator.sessions.get(game_id)
                    assert session.game is not None
                    turn, _ = self.moderator.turn_text(session, session.game.state)
                    text = f"Reminder: game #{game_id} is waiting.\n{turn}"
            users = tuple(s.discord_user_id for s in seats if s.discord_user_id is not None)
            if text:
                self.sent.append((game_id, users))
                await self.send(game_id, text, users)
        except Exception:
            log.exception("reminder for game %s failed", game_id)
        finally:
            await self.schedule(game_id)

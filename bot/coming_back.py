"""Coming back to a game: what happened while you were away, the board at an earlier moment,
the story in charts, and your games at a glance.

A part of the Moderator, handed the sessions and the store. The engine answers every question
from the game's history (`engine.history`: one replay of the log, kept and grown with the
game); this part only chooses when to ask and how to post the answer. The histories of the
games asked about most recently are kept (HISTORIES of them), and so are the views of
positions of the past (MOMENTS); the pictures drawn from them are kept by `bot.drawing`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from bot import drawing
from bot import pictures as pics
from bot.model import Actor, Picture, Reply
from bot.replies import whose_turn
from bot.sessions import Session, Sessions
from engine.errors import GameError
from engine.history import History
from engine.legal import legal_moves
from engine.moments import Moment, resolve, short_title, state_at, suggestions
from engine.since import Digest, since
from engine.story import KINDS, chart
from storage import GameRepository, SeatRecord
from storage.replay import engine_document

log = logging.getLogger(__name__)

HISTORIES = 16  # games whose history is kept (about 1 to 3 MB each for a long 18USA game)
MOMENTS = 32  # positions of the past kept as their views, for a picture asked for again
REPLY_WAIT = 0.3  # seconds a move's reply waits for a long game's first replay before it goes without
AUTOCOMPLETE_WAIT = 1.0  # Discord waits 3 s for suggestions
LIMIT = 1900  # characters of one message given to digests (Discord's limit is 2,000)
PING_LEAST = 300  # the room a ping's digest gets even where the move's reply is long
MINE_LIMIT = 1900
CHART_NAMES = {"values": "players' value", "prices": "share prices", "revenue": "revenue"}


class Kept(OrderedDict[Any, Any]):
    """The most recently used `size` entries (least recently used dropped first)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def get_kept(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: Any, value: Any) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


def player_key(seat: SeatRecord) -> str:
    """The engine's key of a seat's player."""
    return str(seat.player_id)


class ComingBack:
    def __init__(self, sessions: Sessions, repo: GameRepository) -> None:
        self.sessions = sessions
        self.repo = repo
        self._histories = Kept(HISTORIES)
        self._views = Kept(MOMENTS)
        self._locks: dict[int, asyncio.Lock] = {}
        self._building: dict[int, asyncio.Task[History]] = {}  # replays running, by game
        # The terminal: everyone at it saw every move, so a ping there says in one line what the
        # moves since the player's last did to their cash and holdings, where they changed them.
        self.one_line = False

    # --- the history of a game ----------------------------------------------------------------
    async def history(self, session: Session, wait: float | None = None) -> History | None:
        """The game's history up to the session's last stored action: the kept one grown by the
        new actions, or replayed (in a thread) when none is kept or an undo changed the past.
        A replay runs on by itself: `wait` is how long to wait for it (None: until it is done),
        and None is returned when it is not done by then (a move's reply does not wait a
        second for a long game's first replay; the next ping finds it kept)."""
        game_id = session.game_id
        loaded = replace(session.loaded, actions=list(session.actions))
        raw = [stored.action for stored in loaded.actions]
        grown = await self._grown(game_id, raw)
        if grown is not None:
            return grown
        task = self._building.get(game_id)
        if task is None:
            task = asyncio.create_task(self._build(game_id, loaded))
            self._building[game_id] = task
            task.add_done_callback(lambda done: self._built(game_id, done))
        try:
            await (asyncio.shield(task) if wait is None else asyncio.wait_for(asyncio.shield(task), wait))
        except TimeoutError:
            return None
        return await self._grown(game_id, raw)

    async def _grown(self, game_id: int, raw: list[dict[str, Any]]) -> History | None:
        """The kept history brought up to `raw`, or None when none is kept that `raw` continues."""
        async with self._lock(game_id):
            kept: History | None = self._histories.get_kept(game_id)
            if kept is None or not kept.matches(raw):
                return None
            if len(kept.raw_actions) != len(raw) or kept.raw_actions[-1:] != raw[-1:]:
                await asyncio.to_thread(kept.extend, raw)
            return kept

    async def _build(self, game_id: int, loaded: Any) -> History:
        async with self._lock(game_id):
            document = engine_document(loaded)
            history = await asyncio.to_thread(History.of_document, document, list(loaded.game.options))
            self._histories.keep(game_id, history)
            for key in [key for key in self._views if key[0] == game_id]:
                del self._views[key]  # positions of a past an undo changed
            return history

    def _built(self, game_id: int, task: asyncio.Task[History]) -> None:
        self._building.pop(game_id, None)
        if not task.cancelled() and task.exception() is not None:
            log.error("the history of game %s could not be made: %s", game_id, task.exception())
        for held in [held for held in self._locks if held not in self._histories and held not in self._building]:
            if not self._locks[held].locked():
                del self._locks[held]

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _looked_up(self, game_id: int, actor: Actor | None) -> tuple[Session, SeatRecord | None, str | None]:
        """The game's session, the actor's seat in it, and why it has no position to look at."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            return session, session.seat_of(actor) if actor is not None else None, _not_playing(session)

    async def _history_now(self, session: Session) -> History:
        history = await self.history(session)
        assert history is not None  # waited for
        return history

    # --- while you were away --------------------------------------------------------------------
    async def digests(self, session: Session, seats: list[SeatRecord], room: int,
                      after_move: bool = False, wait: float | None = None) -> list[str]:
        """What happened since each seat's player last moved, for the pings of a reply or a
        reminder: one text per seat that missed anything, together within `room` characters
        (at least PING_LEAST). `after_move`: the reply to a move already shows that move, so a
        digest of it alone is left out. `wait`: how long a game's first replay may hold the
        ping (see `history`). Never raises: a ping goes out without its digest rather than not
        at all."""
        if session.game is None or not seats:
            return []
        try:
            history = await self.history(session, wait)
            if history is None:
                return []
            found: list[tuple[SeatRecord, Digest]] = []
            for seat in seats:
                digest = since(history, player_key(seat))
                only_this_move = after_move and [h.index for h in digest.happenings] == [len(history.entries) - 1]
                if digest.happenings and not only_this_move:
                    found.append((seat, digest))
            share = max(PING_LEAST, room) // max(1, len(found))
            headings = [(digest, f"{seat.display_name}, while you were away") for seat, digest in found]
            if self.one_line:  # the news at the table is what the moves did to the player
                return [digest.headline(heading) for digest, heading in headings if digest.changed_for_the_player]
            return [digest.text(share - 1, heading=heading) for digest, heading in headings]
        except Exception:
            log.exception("the digest of game %s could not be made", session.game_id)
            return []

    async def since(self, game_id: int, actor: Actor) -> Reply:
        """/game since: the caller's digest, for them alone."""
        session, seat, problem = await self._looked_up(game_id, actor)
        if problem is not None:
            return Reply.error(problem, game_id)
        if seat is None:
            return Reply.error("You have no seat in this game: /game since tells a player what happened "
                               "since their last move. /game log shows the latest moves.", game_id)
        history = await self._history_now(session)
        digest = since(history, player_key(seat))
        return Reply(digest.text(LIMIT), private=True, game_id=game_id, seq=session.seq)

    # --- the board at an earlier moment ------------------------------------------------------------
    async def pictures_at(self, game_id: int, which: tuple[str, ...], at: str, actor: Actor) -> Reply:
        """The map, market and/or table at the moment `at` names, each titled with it."""
        if not pics.RENDER:
            return Reply.error("Pictures are not available on this bot (render is not installed).", game_id)
        session, seat, problem = await self._looked_up(game_id, actor)
        if problem is not None:
            return Reply.error(problem, game_id)
        history = await self._history_now(session)
        try:
            moment = resolve(history, at, player_key(seat) if seat is not None else None)
        except GameError as error:
            return Reply.error(f"{error}.", game_id)
        key = (game_id, moment.count, moment.actions is not None)
        views = self._views.get_kept(key)
        if views is None:
            views = await asyncio.to_thread(_views_at, history, moment)
            self._views.keep(key, views)
        drawn = await drawing.draw(views, which)
        names = ", ".join(name for name in pics.PICTURES if name in which)
        return Reply(f"Game #{game_id}: {names}, {moment.label}.", game_id=game_id, seq=session.seq,
                     pictures=drawn)

    async def moment_choices(self, game_id: int, typed: str) -> list[str]:
        """Autocomplete for `at:`: "my last move" and this game's rounds, the latest first
        (read-only, without the game's lock)."""
        session = await self.sessions.get(game_id)
        if _not_playing(session) is not None:
            return []
        history = await self.history(session, wait=AUTOCOMPLETE_WAIT)
        return suggestions(history, typed) if history is not None else []

    # --- the story in charts ----------------------------------------------------------------------
    async def chart(self, game_id: int, kind: str) -> Reply:
        """/game chart: one chart of the game so far."""
        if kind not in KINDS:
            return Reply.error(f"There is no chart {kind!r}; charts: {', '.join(KINDS)}.", game_id)
        session, _, problem = await self._looked_up(game_id, None)
        if problem is not None:
            return Reply.error(problem, game_id)
        drawn = await self.charts(session, (kind,))
        return Reply(f"Game #{game_id}: {CHART_NAMES[kind]}.", game_id=game_id, seq=session.seq, pictures=drawn)

    async def charts(self, session: Session, kinds: tuple[str, ...] = KINDS) -> list[Picture]:
        """The charts of a game, drawn in the picture workers."""
        history = await self._history_now(session)
        made = await asyncio.to_thread(lambda: [(f"chart-{kind}", chart(history, kind)) for kind in kinds])
        return await drawing.draw_named(made)

    # --- your games at a glance --------------------------------------------------------------------
    async def mine(self, actor: Actor, guild_id: int | None, everyone: bool = False) -> Reply:
        """/game mine: the caller's unfinished games on this server (in the terminal, every
        unfinished game of its database: everyone there plays every seat), those where it is
        their turn first, the longest waiting first, each with what they must do there."""
        records = await self.repo.list_games(guild_id=guild_id, statuses=("active", "paused", "setup"))
        now = int(time.time())
        rows: list[tuple[bool, int, str]] = []
        for record in records:
            async with self.sessions.lock(record.id):
                session = await self.sessions.get(record.id)
                seat = session.seat_of(actor)
                if seat is None and not everyone:
                    continue
                rows.append(_mine_row(session, seat, everyone, now))
        if not rows:
            where = "in this database" if everyone else "on this server"
            return Reply(f"You have no unfinished game {where}. /game new starts one.", private=True)
        rows.sort(key=lambda row: (not row[0], row[1]))
        lines = [f"Your games ({len(rows)}), yours to play first, the longest waiting first:"]
        for number, (_, _, line) in enumerate(rows):
            more = f"… and {len(rows) - number} more."
            if sum(len(text) + 1 for text in lines) + len(line) + len(more) + 2 > MINE_LIMIT:
                lines.append(more)
                break
            lines.append(line)
        return Reply("\n".join(lines), private=True)


def _views_at(history: History, moment: Moment) -> pics.Views:
    """The views of the position at a moment, each titled with it."""
    from render.at_moment import map_at, market_at, table_at

    views = pics.views_of(state_at(history, moment))
    assert views is not None
    return pics.Views(map_at(views.map, moment.label), market_at(views.market, moment.label),
                      table_at(views.table, moment.label))


def _not_playing(session: Session) -> str | None:
    if session.broken is not None:
        return session.broken
    if session.game is None:
        return "The game has not started yet."
    return None


def _mine_row(session: Session, seat: SeatRecord | None, everyone: bool, now: int) -> tuple[bool, int, str]:
    """(the caller's turn, when the wait began, the line) for one game."""
    record = session.loaded.game
    where = f"<#{record.thread_id}>" if record.thread_id else f"game #{record.id}"
    head = f"**#{record.id} {record.title}** in {where}"
    waited = _ago(now - record.updated_at)
    if session.broken is not None:
        return False, record.updated_at, f"{head}: cannot be replayed (/game status)"
    if session.game is None:
        return False, record.updated_at, f"{head}: waiting to start ({len(session.seats)} seated)"
    state = session.game.state
    rnd = short_title(state.round_title())
    paused = " (paused)" if record.status == "paused" else ""
    text, acting = whose_turn(state, legal_moves(state), session.seats, lambda s: s.display_name)
    mine = [line for line in text.splitlines() if seat is not None and line.startswith(f"{seat.display_name} — ")]
    if everyone:
        return bool(acting), record.updated_at, f"{head}, {rnd}{paused}, waiting {waited}: {'; '.join(text.splitlines())}"
    if seat is not None and seat in acting and mine:
        todo = "; ".join(line.split(" — ", 1)[1] for line in mine)
        return True, record.updated_at, f"{head}, {rnd}{paused}: **your turn** for {waited}: {todo}"
    others = ", ".join(s.display_name for s in acting) or "nobody"
    return False, record.updated_at, f"{head}, {rnd}{paused}: waiting for {others} ({waited})"


def _ago(seconds: int) -> str:
    if seconds < 3600:
        return f"{max(seconds, 0) // 60} min"
    if seconds < 48 * 3600:
        return f"{seconds // 3600} h"
    return f"{seconds // 86400} days"

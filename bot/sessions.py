"""Games in memory: the stored game, its engine position, and one lock per game.

The database is the truth, shared by every bot process (and `stationmaster play`/`import`).
A session is a cache of it (rebuilt by replaying the log) that is checked against the store
before each use: when the stored log or status moved on (another process made a move) it is
replayed again; when only the game's change number moved (a seat, a setting, a train offer,
an end agreement) those are read again without a replay. It is also thrown away after a
failed append or a seq conflict.

Every command on a game runs under that game's lock (``Sessions.lock``): the store's lock,
which on PostgreSQL holds the game in every process on the database, so commands on one game
never interleave their load, check, engine step and append anywhere.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from bot.model import Actor
from bot.pictures import Proposal, Views
from bot.replies import describe_action
from engine import Game, GameError, ReplayRefused, effective_actions, load_game, new_game
from engine.log import SITE_RULES, resolve_options, title_class
from storage import (
    Away,
    GameRecord,
    GameRepository,
    LoadedGame,
    SeatRecord,
    StoredAction,
    TrainOffer,
)
from storage.limits import name_key
from storage.replay import engine_document

log = logging.getLogger(__name__)


def resolved_options(title: str, site_rules: bool) -> tuple[str, ...]:
    """The explicit rule options stored with a game (site rules spelt out name by name)."""
    return tuple(resolve_options(title_class(title), [SITE_RULES] if site_rules else []))


def build_game(loaded: LoadedGame) -> Game | None:
    """Replay a stored game (None while it is being set up); raises GameError (ReplayRefused
    naming the action) when its log does not replay. CPU work: call in a thread."""
    if loaded.game.status == "setup":
        return None
    if not loaded.actions:
        return new_game(loaded.game.title, loaded.players(), loaded.game.seed, list(loaded.game.options))
    # The stored options are explicit, so they are passed as they are (load_game would
    # otherwise add the site rules, as for a log from the reference site).
    return load_game(engine_document(loaded), options=list(loaded.game.options))


def undoable(actions: list[StoredAction]) -> list[dict[str, Any]]:
    """The moves an undo counts back through: the log's effective actions, messages left out."""
    return [a for a in effective_actions([stored.action for stored in actions]) if a.get("type") != "message"]


def unreplayable(loaded: LoadedGame, error: GameError) -> str:
    """What players and the game's admin read about a stored game the engine no longer replays
    (a rules change refuses a stored move): which game and move, why, and the way out."""
    game_id = loaded.game.id
    if not isinstance(error, ReplayRefused) or not 0 <= error.index < len(loaded.actions):
        return f"Game #{game_id} cannot be set up again from its log: {error}. /game export saves its log."
    stored = loaded.actions[error.index]
    names = {str(seat.player_id): seat.display_name for seat in loaded.seats}
    kept = undoable(loaded.actions)
    steps = next((len(kept) - i for i, action in enumerate(kept) if action is stored.action), None)
    way_out = (f"the game's creator (or a server manager) can take it back with /game undo steps:{steps}"
               f" (it and the {steps - 1} move(s) after it)" if steps else "")
    return (f"Game #{game_id} cannot be replayed: its move {stored.seq} "
            f"({describe_action(stored.action, names)}) is refused by the rules now: {error.reason}. "
            f"No move can be made in it until that is settled: {way_out + '; ' if way_out else ''}"
            "/game export saves its log as it is.")


def replay_with(loaded: LoadedGame, actions: list[StoredAction], extra: dict[str, Any]) -> Game:
    """The position after the stored actions and `extra` (an undo), replayed as a restart
    would replay it; raises GameError if `extra` changes nothing. CPU work: call in a thread."""
    raw = [a.action for a in actions]
    if effective_actions(raw) == effective_actions(raw + [extra]):
        raise GameError(f"there is nothing to {extra.get('type')}")
    document = engine_document(replace(loaded, actions=actions))
    document["actions"].append(extra)
    return load_game(document, options=list(loaded.game.options))


@dataclass
class Session:
    loaded: LoadedGame
    game: Game | None
    actions: list[StoredAction]
    max_action_id: int
    views: Views | None = None  # the last pictures drawn, to post market/table only when changed
    proposal: tuple[int, Proposal | None] | None = None  # (seq, best runs at that seq)
    extra: dict[str, Any] = field(default_factory=dict)
    offer: TrainOffer | None = None  # a train purchase waiting for the seller's consent (bot.consent)
    away: list[Away] = field(default_factory=list)  # players away (bot.standing_orders, /auto away)
    change_no: int = 0  # the store's change number of the game this copy reflects
    # Why the stored log does not replay (game is None then): told instead of every move.
    broken: str | None = None

    @property
    def game_id(self) -> int:
        return self.loaded.game.id

    @property
    def seq(self) -> int:
        return self.actions[-1].seq if self.actions else 0

    @property
    def seats(self) -> list[SeatRecord]:
        return self.loaded.seats

    def seat_of(self, actor: Actor) -> SeatRecord | None:
        """The actor's seat: by Discord user, or by name in the terminal (no user ids)."""
        for seat in self.seats:
            if actor.user_id is not None and seat.discord_user_id == actor.user_id:
                return seat
        if actor.user_id is None:
            wanted = name_key(actor.name)
            return next((s for s in self.seats if name_key(s.display_name) == wanted), None)
        return None

    def seat_named(self, text: str) -> SeatRecord | None:
        """A seat by number or by player name."""
        text = text.strip().lstrip("@")
        if text.isdigit():
            return next((s for s in self.seats if s.seat == int(text)), None)
        return next((s for s in self.seats if name_key(s.display_name) == name_key(text)), None)

    def is_admin(self, actor: Actor) -> bool:
        creator = self.loaded.game.creator_user_id
        return actor.manager or (creator is not None and actor.user_id == creator)


class Sessions:
    """The cache: the most recently used games (positions are replayed again when evicted)."""

    def __init__(self, repo: GameRepository, size: int = 200) -> None:
        self.repo = repo
        self.size = size
        self._cache: OrderedDict[int, Session] = OrderedDict()
        self._locks: dict[int, asyncio.Lock] = {}

    def _local(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    @asynccontextmanager
    async def lock(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game while a command reads, checks and commits: this process's tasks
        queue in memory first, then the store's game lock orders the processes."""
        async with self._local(game_id), self.repo.game_lock(game_id):
            yield

    def forget(self, game_id: int) -> None:
        self._cache.pop(game_id, None)

    def cached(self) -> list[int]:
        return list(self._cache)

    def held_seq(self, game_id: int) -> int | None:
        """The seq of the game as this process last read it (None if not in memory); the store
        is not asked."""
        session = self._cache.get(game_id)
        return None if session is None else session.seq

    async def get(self, game_id: int) -> Session:
        """The cached session brought up to date, or a fresh one from the database (raises
        GameNotFound)."""
        session = self._cache.get(game_id)
        if session is not None and not await self._current(session):
            self.forget(game_id)  # another process moved (or paused...) this game meanwhile
            session = None
        if session is not None:
            self._cache.move_to_end(game_id)
        else:
            loaded = await self.repo.load_game(game_id)
            broken = None
            try:
                game = await asyncio.to_thread(build_game, loaded)
            except GameError as error:  # this game is held; the others go on
                game, broken = None, unreplayable(loaded, error)
                log.error("game %s does not replay: %s", game_id, error)
            ids = [a.action.get("id") for a in loaded.actions]
            top = max([i for i in ids if isinstance(i, int)] + [len(ids)], default=0)
            offer = await self.repo.get_train_offer(game_id)
            away = await self.repo.list_away(game_id)
            session = Session(loaded, game, list(loaded.actions), top, offer=offer, away=away,
                              change_no=loaded.game.change_no, broken=broken)
            self._cache[game_id] = session
            while len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return session

    async def _current(self, session: Session) -> bool:
        """Whether the cached position still matches the database; brings the rest of the
        game (seats, settings, offer) up to date on the way when only those changed."""
        record, last_seq = await self.repo.game_head(session.game_id)
        if last_seq != session.seq or record.status != session.loaded.game.status:
            return False
        if record.change_no != session.change_no:
            await self._refresh(session, record)
        return True

    async def _refresh(self, session: Session, record: GameRecord) -> None:
        game_id = session.game_id
        seats = await self.repo.list_seats(game_id)
        settings = await self.repo.get_settings(game_id)
        session.offer = await self.repo.get_train_offer(game_id)
        session.away = await self.repo.list_away(game_id)
        session.loaded = replace(session.loaded, game=record, seats=seats, settings=settings)
        # Read after the number: a change made meanwhile shows as a newer number next time.
        session.change_no = record.change_no

    async def refresh(self, game_id: int) -> bool:
        """Replay a cached game now if another process moved it, so the next command does
        not wait for the replay; True if it did. Seats, settings and offers are left to the
        next command's check, as is a game not held in memory."""
        if game_id not in self._cache:
            return False
        async with self._local(game_id):  # not the store's lock: other processes go on
            session = self._cache.get(game_id)
            if session is None:
                return False
            record, last_seq = await self.repo.game_head(game_id)
            if last_seq == session.seq and record.status == session.loaded.game.status:
                return False
            self.forget(game_id)
            await self.get(game_id)
            return True

    async def reload(self, game_id: int) -> Session:
        self.forget(game_id)
        return await self.get(game_id)

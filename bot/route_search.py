"""The optimizer's proposed runs in words, and the longer search players may ask for.

After each move that leaves a company to run trains, the Moderator proposes the best runs the
optimizer finds within its budget (2 s by default, so that the reply comes at once). On a late
18USA map that answer is sometimes the best found rather than the proven best; ``/game routes``
lets a player give the optimizer longer (up to a minute), in a worker process of its own, so
that a long search never holds up another game's proposal. A better or newly proven answer
becomes the position's proposal: ``/run`` with no routes and the "Run for $..." button then run it.

Players should not have to know to ask: once the reply to a move with an unproven proposal is out
(the front door says so with ``Moderator.delivered``), FollowUps searches the same position longer
by itself and posts a better or newly proven answer in the game's channel (``Moderator.announce``).
The longer searches, asked for or not, take turns in that one worker.

A part of the Moderator: handed the games, the proposals and whether pictures are drawn.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Protocol

from bot import pictures as pics
from bot.drawing import changed_pictures
from bot.games import Games
from bot.model import Actor, Button, Reply
from bot.proposals import Proposals
from bot.routes_text import format_routes
from bot.sessions import Session, Sessions
from engine.attachments import attachment_words
from engine.core.game import BaseGame
from engine.legal import legal_moves

log = logging.getLogger(__name__)

DEFAULT_SECONDS = 20.0
MAX_SECONDS = 60.0  # a Discord reply may be deferred for 15 minutes; players wait far less happily
# How long a finished follow-up waits for the move's own reply to be out before it gives up
# posting (its answer still becomes the proposal): drawing and sending the pictures takes seconds.
DELIVERY_WAIT = 120.0

Announce = Callable[[Reply], Awaitable[None]]  # posts a reply in its game's channel


class KeepFound(Protocol):
    """RouteSearch.keep_found: keep a longer search's answer and say what it changes."""

    async def __call__(self, game_id: int, seq: int, state: BaseGame, found: pics.Proposal | None,
                       seconds: float, *, follow_up: bool = False) -> Reply | None: ...


def proposal_text(state: BaseGame, proposal: pics.Proposal) -> str:
    """The proposed runs in the very words ``/run routes:`` takes (every hex of each run, so a copy
    of them is those runs), then what each earns with what the proposal attaches to its train."""
    attached = attachment_words(state, proposal.corporation, proposal.runs)
    routes = proposal.action["routes"]
    earned = ", ".join(f"{r['train']} ${r['revenue']}{' with ' + attached[r['train']] if r['train'] in attached else ''}"
                       for r in routes)
    proven = "" if proposal.proven_optimal else \
        " (best found in the time allowed; /game routes searches longer)"
    return (f"Proposed runs for {proposal.corporation}: {format_routes(routes)} — {earned}, "
            f"total ${proposal.total}{proven}. Confirm with /run, or give other runs with /run routes:…")


def better(new: pics.Proposal | None, old: pics.Proposal | None) -> pics.Proposal | None:
    """The proposal to keep: the higher total, and at the same total the proven one."""
    if new is None:
        return old
    if old is None or new.total > old.total or new.total == old.total and new.proven_optimal:
        return new
    return old


class FollowUps:
    """The longer searches: those players ask for and those that follow an unproven proposal.

    One at a time (the optimizer's second worker has one process); a follow-up whose position
    the game has left by its turn is dropped unsearched. Memory: one snapshot per waiting
    follow-up, at most one per move made. A follow-up's news is posted through `announce`, which
    the front door sets; without it no follow-up is begun."""

    def __init__(self, seconds: float, sessions: Sessions, keep_found: KeepFound) -> None:
        self.seconds = seconds  # 0: no follow-ups
        self.sessions = sessions
        self.keep_found = keep_found
        self.announce: Announce | None = None
        self.turn = asyncio.Lock()  # held by the longer search that has the worker
        self.running: tuple[int, int] | None = None  # (game id, seq) of the follow-up searching now
        self._delivered: dict[tuple[int, int], asyncio.Event] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def begin(self, game_id: int, seq: int, state: BaseGame, corporation: str) -> None:
        """Search this position longer in the background (the state is a snapshot no one changes)."""
        if self.seconds <= 0 or self.announce is None or not pics.ROUTER or (game_id, seq) in self._delivered:
            return
        self._delivered[(game_id, seq)] = asyncio.Event()
        task = asyncio.get_running_loop().create_task(self._follow(game_id, seq, state, corporation))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def pending(self) -> int:
        """Follow-ups begun and not yet ended."""
        return len(self._tasks)

    def delivered(self, game_id: int, seq: int) -> None:
        """The reply for this position is out: a follow-up's answer may be posted after it."""
        event = self._delivered.get((game_id, seq))
        if event is not None:
            event.set()

    async def settled(self) -> None:
        """Wait until every follow-up begun so far has ended."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop the follow-ups. A longer search still running is abandoned with its worker process:
        otherwise the bot (or the terminal) would not exit until the search's seconds were up."""
        if self.turn.locked():
            # First: a task waiting on a search its process runs is not cancelled before it ends.
            pics.LONGER.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _follow(self, game_id: int, seq: int, state: BaseGame, corporation: str) -> None:
        try:
            async with self.turn:
                if (await self.sessions.get(game_id)).seq != seq:
                    return  # the game moved on while the follow-up waited for the worker
                self.running = (game_id, seq)
                try:
                    found = await pics.LONGER.propose(state, corporation, self.seconds)
                finally:
                    self.running = None
            reply = await self.keep_found(game_id, seq, state, found, self.seconds, follow_up=True)
            if reply is None:
                return
            await asyncio.wait_for(self._delivered[(game_id, seq)].wait(), DELIVERY_WAIT)
            if (await self.sessions.get(game_id)).seq == seq and self.announce is not None:
                await self.announce(reply)
        except (TimeoutError, asyncio.CancelledError):
            pass  # the move's reply never went out (or the bot stops): nothing to add to
        except Exception:  # a follow-up is a convenience; the proposal stands without it
            log.exception("follow-up route search failed in game %s at seq %s", game_id, seq)
        finally:
            self._delivered.pop((game_id, seq), None)


class RouteSearch:
    """`/game routes`, the follow-ups, and the proposal in words."""

    def __init__(self, games: Games, proposals: Proposals, follow_up_seconds: float, images: bool) -> None:
        self.games = games
        self.proposals = proposals
        self.images = images
        self.follow_ups = FollowUps(follow_up_seconds, games.sessions, self.keep_found)

    async def search_routes(self, game_id: int, actor: Actor, seconds: float = DEFAULT_SECONDS) -> Reply:
        """Search the operating company's best runs for `seconds`; keep the answer if it is
        better or newly proven. Any seated player may ask (the search costs a core for that long)."""
        if not 1 <= seconds <= MAX_SECONDS:
            return Reply.error(f"seconds must be from 1 to {MAX_SECONDS:g} (you gave {seconds:g}).", game_id)
        if not pics.ROUTER:
            return Reply.error("The route optimizer is not available on this bot; type the runs with /run routes:…",
                               game_id)
        sessions = self.games.sessions
        async with sessions.lock(game_id):
            session, _, refusal = await self.games.seated(game_id, actor)
            if refusal is not None:
                return refusal.reply
            assert session is not None and session.game is not None
            state = session.game.state.snapshot()
            seq = session.seq
            cached = self.proposals.kept(session, seq)
        move = next((m for m in legal_moves(state) if m["type"] == "run_routes"), None)
        if move is None:
            return Reply.error("No company is to run trains now: /game routes searches the best runs of the "
                               "company whose trains run next, when its president is to run them.", game_id)
        if cached is not None and cached.proven_optimal:
            return self._routes_reply(game_id, seq, state, cached, "Already proven the best runs:")
        searches = self.follow_ups
        if searches.running == (game_id, seq):
            return Reply.error(f"The optimizer is already searching these runs longer ({searches.seconds:g} s, "
                               "since the proposal); its answer is posted here when it is in.", game_id)
        if searches.turn.locked():
            return Reply.error("The optimizer is already searching longer for another request; ask again when "
                               "its answer is in (a minute at most).", game_id)
        async with searches.turn:
            found = await pics.LONGER.propose(state, str(move["entity"]), seconds)
        kept = await self.keep_found(game_id, seq, state, found, seconds)
        if kept is None:
            now = (await sessions.get(game_id)).seq
            return Reply.error(f"The game moved on (to move {now}) while the optimizer searched; ask again if "
                               "the runs are still to be chosen.", game_id)
        return kept

    async def proposal_words(self, session: Session) -> str | None:
        """The runs proposed at the session's position, in words (searched now if none is kept),
        or None when no company is to run trains. For a reminder: what the president confirms."""
        if session.game is None or not any(m["type"] == "run_routes" for m in legal_moves(session.game.state)):
            return None
        state = session.game.state
        proposal = await self.proposals.propose(session, state, session.seq)
        if proposal is None:
            return None
        return proposal_text(state, proposal)

    async def keep_found(self, game_id: int, seq: int, state: BaseGame, found: pics.Proposal | None,
                         seconds: float, *, follow_up: bool = False) -> Reply | None:
        """Keep a longer search's answer as the position's proposal if it is better or newly
        proven, and say so; None if the game moved on (or, for a follow-up, nothing is new)."""
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if session.seq != seq:
                return None
            current = self.proposals.kept(session, seq)
            kept = better(found, current)
            session.proposal = (seq, kept)
        reply = self._kept_reply(game_id, seq, state, found, kept, current, seconds, follow_up)
        if reply is not None and reply.ok and found is not None and kept is found:
            reply = await self._with_runs_drawn(session, state, found, reply)
        return reply

    def _kept_reply(self, game_id: int, seq: int, state: BaseGame, found: pics.Proposal | None,
                    kept: pics.Proposal | None, current: pics.Proposal | None, seconds: float,
                    follow_up: bool) -> Reply | None:
        """What keep_found says of a longer search's answer."""
        if follow_up:
            if found is None or kept is not found:
                return None  # the proposal stands: saying so again would be noise
            if current is None:
                proven = "(proven)" if found.proven_optimal else "found (not proven the best)"
                head = f"Searched {seconds:g} s more after the move: the best runs {proven}."
            elif found.total == current.total:
                head = f"Searched {seconds:g} s more since the proposal: the proposed runs are the best (proven)."
            else:
                proven = ", proven the best" if found.proven_optimal else " (not proven the best)"
                head = f"Searched {seconds:g} s more since the proposal: better runs{proven}."
            return self._routes_reply(game_id, seq, state, found, head)
        if kept is None:
            return Reply.error(f"The optimizer found no runs in {seconds:g} s; type the runs with /run routes:….",
                               game_id)
        if found is None:
            head = "The longer search did not finish; the proposal stands."
        elif kept is not found:
            head = f"Searched {seconds:g} s: nothing better than the proposal."
        elif found.proven_optimal:
            head = f"Searched {seconds:g} s: these are the best runs (proven)."
        else:
            head = f"Searched {seconds:g} s: the best runs found (not proven the best)."
        return self._routes_reply(game_id, seq, state, kept, head)

    async def _with_runs_drawn(self, session: Session, state: BaseGame, proposal: pics.Proposal,
                               reply: Reply) -> Reply:
        """The reply with the pictures the new runs change (the map, drawn with them)."""
        if not self.images:
            return reply
        try:
            return replace(reply, pictures=await changed_pictures(session, state, proposal))
        except Exception:  # the runs are kept and said; a picture that fails must not lose them
            log.exception("drawing the runs found for game %s at seq %s failed", session.game_id, session.seq)
            return reply

    def _routes_reply(self, game_id: int, seq: int, state: BaseGame, proposal: pics.Proposal,
                      head: str) -> Reply:
        return Reply(f"{head}\n{proposal_text(state, proposal)}", game_id=game_id, seq=seq,
                     buttons=[Button(f"Run for ${proposal.total}", f"run:{proposal.total}", "success")])

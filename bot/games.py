"""The games one Moderator serves, and the checks each of its parts makes before it acts.

Every part of the Moderator (moves, lifecycle, information, consent, ending, route searches)
is handed this one object: the store, the sessions and their locks, the clock, how players are
mentioned, and who is told of a change. None of them imports the Moderator.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot.front_door import DISCORD, FrontDoor, plain_mention
from bot.model import Actor, Reply
from bot.offers import waiting_line
from bot.outcome import Outcome
from bot.replies import final_scores, notes_for, whose_turn
from bot.sessions import Session, Sessions
from engine.core.game import BaseGame
from engine.legal import legal_moves
from storage import GameRepository, SeatRecord

log = logging.getLogger(__name__)

Listener = Callable[[int], Awaitable[None]]


class Games:
    def __init__(self, repo: GameRepository, clock: Callable[[], float],
                 mention: Callable[[SeatRecord], str], front_door: FrontDoor = DISCORD) -> None:
        self.repo = repo
        self.sessions = Sessions(repo)
        self.clock = clock
        self.mention = mention
        self.front_door = front_door
        self.listeners: list[Listener] = []

    def now(self) -> int:
        return int(self.clock())

    async def changed(self, game_id: int) -> None:
        """Tell listeners (the reminder scheduler) that a game's position or status changed."""
        for listener in self.listeners:
            try:
                await listener(game_id)
            except Exception:  # a listener's failure must not undo an acknowledged move
                log.exception("listener failed for game %s", game_id)

    async def playable(self, game_id: int) -> tuple[Session | None, str | None]:
        """The game's session, and why no move can be made in it now (None if one can)."""
        session = await self.sessions.get(game_id)
        status = session.loaded.game.status
        problems = {
            "setup": "The game has not started yet (/game start).",
            "paused": "The game is paused (/game resume).",
            "finished": "The game is over.",
            "abandoned": "The game was abandoned.",
        }
        if session.broken is not None and status != "abandoned":
            return session, session.broken
        if status in problems or session.game is None:
            return session, problems.get(status, "The game is not running.")
        return session, None

    async def seated(self, game_id: int, actor: Actor) -> tuple[Session | None, SeatRecord | None, Outcome | None]:
        """The running game and the actor's seat in it, or the refusal to answer with."""
        session, problem = await self.playable(game_id)
        if problem or session is None or session.game is None:
            return None, None, Outcome(Reply.error(problem or "No such game.", game_id))
        seat = session.seat_of(actor)
        if seat is None:
            return None, None, Outcome(Reply.error("You have no seat in this game; only its players make moves.",
                                                   game_id))
        return session, seat, None

    def turn_text(self, session: Session, state: BaseGame, ping: bool = True,
                  notes: bool = True) -> tuple[str, list[SeatRecord]]:
        """Whose turn it is (or the final scores), and the seats that must act."""
        if state.finished:
            return final_scores(state, session.seats), []
        mention = self.mention if ping else plain_mention
        moves = legal_moves(state)
        text, acting = whose_turn(state, moves, session.seats, mention)
        if notes:
            text = "\n".join([text, *notes_for(state, moves)])
        waiting = waiting_line(session, state, mention, self.front_door)
        if waiting is not None:  # a purchase waits for the selling president's answer (12.6)
            line, seller = waiting
            text = f"{line}\n{text}"
            acting = acting + [seller] if seller is not None and seller not in acting else acting
        return text, acting

    async def set_status(self, session: Session, status: Any) -> None:
        await self.repo.set_status(session.game_id, status)
        session.loaded = replace(session.loaded, game=replace(session.loaded.game, status=status))
        await self.changed(session.game_id)

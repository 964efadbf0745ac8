"""Commands sent twice: a slash command Discord delivers twice (a double click, a flaky
connection) must be made once.

A copy of a move is recognised by when it was sent: if the same player's identical command
was committed after this one was sent (within a few seconds), the player could not have seen
that move yet, so this is the same command again, not a second one. A command sent after the
answer is always a new move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.model import Actor, Command

WINDOW = 10.0  # seconds after a move in which the same command sent earlier is a repeat


def move_key(actor: Actor, command: Command) -> tuple[Any, ...]:
    who = actor.user_id if actor.user_id is not None else actor.name.casefold()
    return who, command.name, repr(sorted(command.options.items()))


class Repeats:
    """The last move made by a command in each game: who, what, when, and its seq."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._last: dict[int, tuple[tuple[Any, ...], float, int]] = {}

    def made_as(self, game_id: int, actor: Actor, command: Command) -> int | None:
        """The seq of the move this command repeats, or None if it is a new command."""
        last = self._last.get(game_id)
        if last is None or command.sent_at is None:
            return None
        key, committed_at, seq = last
        if key != move_key(actor, command) or not committed_at - WINDOW < command.sent_at < committed_at:
            return None
        return seq

    def remember(self, game_id: int, actor: Actor, command: Command, seq: int) -> None:
        self._last[game_id] = (move_key(actor, command), self.clock(), seq)

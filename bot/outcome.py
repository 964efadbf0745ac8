"""What a command on a game comes to before its pictures are drawn, and the commit every part of
the Moderator makes its moves through."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from bot.model import Actor, Reply

if TYPE_CHECKING:
    from bot.sessions import Session
    from engine.core.game import BaseGame


@dataclass
class Outcome:
    """A command's result before pictures: final for refusals, the base of the reply otherwise."""

    reply: Reply
    committed: bool = False
    session: Session | None = None
    snapshot: BaseGame | None = None
    lines: tuple[str, ...] = ()
    # Nobody is pinged: the move changed nobody's turn (a standing order set or switched off
    # while it made no move).
    quiet: bool = False


class Commit(Protocol):
    """Process one action, then append it to the game's log (the Moderator's ``_commit``)."""

    async def __call__(self, session: Session, actor: Actor, action: dict[str, Any], note: str | None = None,
                       consented: bool = False, known: Any = None, raw: bool = False) -> Outcome: ...

"""The round protocol: whose turn it is, which actions it takes, and what happens on its own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core.entities import Holder, Player
    from engine.core.game import BaseGame


class Round:
    """A round of the game (auction, stock, operating, ...)."""

    name = "Round"

    def __init__(self) -> None:
        self.finished = False

    def start(self, game: BaseGame) -> None:
        """Called once when the round begins."""

    def label(self, game: BaseGame) -> str:
        """The round's name as players say it."""
        return self.name

    def acting_players(self, game: BaseGame) -> list[Player]:
        raise NotImplementedError

    def process(self, game: BaseGame, entity: Holder, action: dict[str, Any]) -> None:
        raise NotImplementedError

    def advance(self, game: BaseGame) -> bool:
        """Do one thing that needs no decision; True if something changed."""
        return False

    def finish(self, game: BaseGame) -> None:
        """Effects at the end of the round."""

    def legal_moves(self, game: BaseGame) -> list[dict[str, Any]]:
        """What the acting entity may do now: one dict per action type with its choices."""
        return []

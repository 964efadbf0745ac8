"""The exceptions the engine raises for a move that the rules do not allow."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from untrusted.quote import shortened

if TYPE_CHECKING:
    from engine.router import RouteResult


class GameError(Exception):
    """An action the rules forbid, with a message written for the player.

    The game state is unchanged when this is raised. The message quotes values of the move or
    the log, which a hostile log makes as long as it likes: it is cut where it is made, so no
    front door (the terminal, the command line, Discord) echoes 100 KB back.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(shortened(message))


class NotNow(GameError):
    """An action the position does not allow now, named by the command word players type for it
    (`word`, e.g. "/train"); `why` says what the round waits for and what can be done instead.
    `action_type` is the 18xx.games type, for a front end answering a raw action that named it."""

    def __init__(self, word: str, action_type: str, why: str) -> None:
        super().__init__(f"{word} is not possible now: {why}")
        self.word = word
        self.action_type = action_type
        self.why = why

    def naming_the_type(self) -> str:
        """The refusal for someone who typed the 18xx.games action: its type and its word."""
        return f"{self.action_type} ({self.word}) is not possible now: {self.why}"


class RunsBelowTheMost(GameError):
    """Runs worth less than the company's trains can earn, where the title holds a company to its
    most (`must_run_for_the_most`). `best` is the route optimizer's answer, for a front end to
    offer."""

    def __init__(self, message: str, best: RouteResult) -> None:
        super().__init__(message)
        self.best = best


class ReplayRefused(GameError):
    """A log's action that the rules refuse while the log is replayed (a log from elsewhere, or a
    stored game after a rules change): `index` is its place in the log's action list (from 0),
    `action` the action as logged and `reason` the rules' message for it."""

    def __init__(self, index: int, action: dict[str, Any], reason: str) -> None:
        super().__init__(f"action {index} (id {action.get('id')}, {action.get('type')}): {reason}")
        self.index = index
        self.action = action
        self.reason = reason


class AutomaticMovesDiffer(GameError):
    """A log replayed with its automatic moves worked out by the engine (`load_game(...,
    recompute=True)`): the action at `index` (in the log's action list, from 0) recorded
    `expected` and the engine made `got` (both without times)."""

    def __init__(self, index: int, action: dict[str, Any], expected: list[dict[str, Any]],
                 got: list[dict[str, Any]]) -> None:
        super().__init__(f"action {index} (id {action.get('id')}, {action.get('type')}): its automatic moves "
                         f"differ: expected {expected}, got {got}")
        self.index = index
        self.action = action
        self.expected = expected
        self.got = got

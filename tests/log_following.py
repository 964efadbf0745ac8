"""A game kept beside a test that follows a log's moves (to read from its position the words a
player types for the next one): each move applied without the safety copy `process` takes before
it, which was most of the time of walking a whole log so. A refused move still fails the test."""

from __future__ import annotations

from typing import Any

from engine.log import Game


def follow(game: Game, action: dict[str, Any]) -> None:
    """`game.process(action)` without its copy of the position to restore on a refusal."""
    if action.get("type") in ("undo", "redo"):
        game.process(action)  # the game is rebuilt from its log
        return
    game.state.apply(action)
    game.raw_actions.append(action)

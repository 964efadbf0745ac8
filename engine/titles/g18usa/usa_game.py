"""The game as an 18USA game, for the title's modules that the game class imports itself (so they
cannot import it when they load)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA


@cache
def _game_class() -> type[G18USA]:
    # Imported once, at the first use: an import statement run at every call costs more than the
    # check (the steps ask for the game thousands of times in a replay).
    from engine.titles.g18usa.game import G18USA

    return G18USA


def usa_game(game: BaseGame) -> G18USA:
    assert isinstance(game, _game_class()), f"{type(game).__name__} is not an 18USA game"
    return game

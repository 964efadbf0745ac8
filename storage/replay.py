"""Turning a stored game back into engine state.

Storage knows games, seats and action JSON, not rules: the engine is passed in (or imported
lazily), so ``storage`` imports and its log-keeping works even when ``engine`` is broken.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, cast

from storage.errors import StorageError
from storage.models import LoadedGame


class EngineGame(Protocol):
    @property
    def finished(self) -> bool: ...

    def result(self) -> dict[str, int]: ...


class Engine(Protocol):
    """The part of the ``engine`` package storage relies on (a module satisfies it)."""

    TITLES: frozenset[str]
    GameError: type[Exception]
    load_game: Callable[..., EngineGame]
    document_options: Callable[[dict[str, Any]], list[str]]
    known_action_fields: Callable[[], frozenset[str]]
    export_settings: Callable[[str, list[str]], tuple[list[str], dict[str, Any]]]


def default_engine() -> Engine:
    """The real engine, imported on first need (see the module docstring)."""
    try:
        import engine  # lazy on purpose
    except Exception as exc:  # a broken engine must not crash the CLI with a traceback
        raise StorageError(f"the game engine cannot be loaded: {exc}") from exc
    needed = ("TITLES", "GameError", "load_game", "document_options", "export_settings", "known_action_fields")
    missing = [name for name in needed if not hasattr(engine, name)]
    if missing:
        raise StorageError(f"the game engine lacks {', '.join(missing)}")
    return cast(Engine, engine)


def engine_document(loaded: LoadedGame) -> dict[str, Any]:
    """The 18xx.games-shaped document ``engine.load_game`` takes (options are passed apart)."""
    return {
        "id": loaded.game.id,
        "title": loaded.game.title,
        "players": loaded.players(),
        "settings": {
            "seed": loaded.game.seed,
            "optional_rules": list(loaded.game.options),
        },
        "actions": [stored.action for stored in loaded.actions],
    }


def replay(loaded: LoadedGame, engine: Engine | None = None) -> EngineGame:
    """Rebuild the game's state by replaying its whole log (undo/redo included)."""
    engine = engine or default_engine()
    return engine.load_game(engine_document(loaded), options=list(loaded.game.options))

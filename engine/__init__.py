"""Stationmaster's rules engine: pure, deterministic, and fed 18xx.games actions."""

from engine.catalog import known_action_fields
from engine.core.steps.route import given_most
from engine.errors import GameError, ReplayRefused, RunsBelowTheMost
from engine.log import (
    EXPORT_KEY,
    TITLES,
    Game,
    command_table,
    document_options,
    effective_actions,
    export_settings,
    load_game,
    new_game,
)

__all__ = ["EXPORT_KEY", "TITLES", "Game", "GameError", "ReplayRefused", "RunsBelowTheMost", "command_table",
           "document_options", "effective_actions", "export_settings", "given_most", "known_action_fields",
           "load_game", "new_game"]

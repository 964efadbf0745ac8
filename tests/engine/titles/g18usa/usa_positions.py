"""Logged 18USA positions replayed with a chosen set of rule options, for the rule tests that
compare the printed reading with the site's at the same position."""

from __future__ import annotations

from typing import Any

from usa_logs import LOGS, read_log

from engine.core.game import BaseGame
from engine.log import document_options, new_game


def log_named(log_name: str) -> dict[str, Any]:
    path = next(path for path, _ in LOGS if path.stem.endswith(log_name))
    return read_log(path)


def logged_action(log_name: str, index: int) -> dict[str, Any]:
    """The log's action at `index` (counted from 0), as logged."""
    action: dict[str, Any] = log_named(log_name)["actions"][index]
    return action


def replayed(log_name: str, actions: int | None = None, without: tuple[str, ...] = ()) -> BaseGame:
    """The log's game after its first `actions` actions (all of them by default), with the log's
    options less `without` (the printed reading of those rules)."""
    log = log_named(log_name)
    options = [option for option in document_options(log) if option not in without]
    game = new_game(log["title"], log["players"], log["settings"]["seed"], options).state
    game.importing = True
    for action in log["actions"][:actions]:
        game.apply(action)
    return game

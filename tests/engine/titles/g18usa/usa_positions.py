"""Logged 18USA positions replayed with a chosen set of rule options, for the rule tests that
compare the printed reading with the site's at the same position."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from usa_logs import ALL_LOGS as LOGS
from usa_logs import read_log

from engine.core.game import BaseGame
from engine.log import Game, document_options, load_game, new_game

KEPT = Path(__file__).resolve().parents[3] / "data" / "positions"  # positions random play found


def kept_document(name: str) -> dict[str, Any]:
    """A kept position's document (tests/data/positions/<name>.json)."""
    document: dict[str, Any] = json.loads((KEPT / f"{name}.json").read_text())
    return document


def kept_position(name: str, document: dict[str, Any] | None = None) -> Game:
    """A kept position replayed, to be played on live (its document, or `document` made from it)."""
    game = load_game(document if document is not None else kept_document(name))
    game.state.importing = False
    return game


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

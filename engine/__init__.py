"""Stationmaster's rules engine: pure, deterministic, and fed 18xx.games actions."""

from engine.errors import GameError
from engine.log import TITLES, Game, effective_actions, load_game, new_game

__all__ = ["TITLES", "Game", "GameError", "effective_actions", "load_game", "new_game"]

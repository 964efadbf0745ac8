"""The titles the engine knows, by their 18xx.games name."""

from engine.core.game import BaseGame
from engine.titles.g18texas.game import G18Texas

TITLE_CLASSES: dict[str, type[BaseGame]] = {G18Texas.TITLE: G18Texas}

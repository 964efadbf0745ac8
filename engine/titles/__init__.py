"""The titles the engine knows, by their 18xx.games name."""

from engine.core.game import BaseGame
from engine.titles.g18texas.game import G18Texas
from engine.titles.g18usa.game import G18USA

TITLE_CLASSES: dict[str, type[BaseGame]] = {G18Texas.TITLE: G18Texas, G18USA.TITLE: G18USA}

"""The titles the engine knows, by their 18xx.games name.

A title's modules are imported the first time the title is asked for, so that a process that
plays one title (`stationmaster replay` of an 18USA log) does not load the others.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.core.game import BaseGame

# Title -> (module, class) of its game.
_GAME_CLASSES = {
    "18Texas": ("engine.titles.g18texas.game", "G18Texas"),
    "18USA": ("engine.titles.g18usa.game", "G18USA"),
}


class _Titles(Mapping[str, "type[BaseGame]"]):
    """The game class of each title, imported when first read."""

    def __init__(self) -> None:
        self._loaded: dict[str, type[BaseGame]] = {}

    def __getitem__(self, title: str) -> type[BaseGame]:
        cls = self._loaded.get(title)
        if cls is None:
            module, name = _GAME_CLASSES[title]
            cls = getattr(import_module(module), name)
            assert cls.TITLE == title, f"{module}.{name} plays {cls.TITLE}, not {title}"
            self._loaded[title] = cls
        return cls

    def __iter__(self) -> Iterator[str]:
        return iter(_GAME_CLASSES)

    def __len__(self) -> int:
        return len(_GAME_CLASSES)


TITLE_CLASSES: Mapping[str, type[BaseGame]] = _Titles()

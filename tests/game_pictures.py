"""Deep, comparable pictures of a game, for both titles' tests: a refused action must leave the
picture as it was; two separately built games in one position have equal positions."""

from __future__ import annotations

from typing import Any

from engine.log import Game


def canonical(value: Any, seen: dict[int, int] | None = None, by_value: bool = False) -> Any:
    """A plain, comparable picture of a value: sets sorted, objects by their attributes, shared
    references numbered in the order they are met.  (Pickles are not stable enough: a restored
    copy of a set may iterate in another order.)  Immutable definitions (hexes, tiles, market
    cells, phases: what copies share, their `__deepcopy__` giving the object itself) are compared by
    identity, or `by_value` when comparing separately built games."""
    seen = {} if seen is None else seen
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(type(value), "__deepcopy__") and value.__deepcopy__({}) is value:
        return ("shared", type(value).__name__, repr(value) if by_value else id(value))
    if id(value) in seen:
        return ("ref", seen[id(value)])
    seen[id(value)] = len(seen)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [canonical(item, seen, by_value) for item in value])
    if isinstance(value, dict):
        return ("dict", [(canonical(k, seen, by_value), canonical(v, seen, by_value)) for k, v in value.items()])
    if isinstance(value, (set, frozenset)):
        return ("set", sorted((canonical(item, seen, by_value) for item in value), key=repr))
    return (type(value).__name__, canonical(vars(value), seen, by_value))


def snapshot(game: Game) -> Any:
    """A deep picture of the position and the log, to prove a refused action changed nothing."""
    state = {key: value for key, value in game.state.__dict__.items() if key != "data"}
    return canonical((state, game.raw_actions))


def position(game: Game) -> Any:
    """A deep picture of the position alone, comparable between separately built games."""
    state = {key: value for key, value in game.state.__dict__.items() if key != "data"}
    return canonical(state, by_value=True)

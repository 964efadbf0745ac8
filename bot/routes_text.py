"""Runs as people type them: ``2-0: I14-I12-I10-I8-J7-J5; 3-0: ...``.

Each run is the train and the hexes it passes, in order (a hex written twice in a row,
``D9-D9``, is a run between two stops of that hex). An 18xx.games ``run_routes``
action wants ``connections``: chains of hexes from one stop to the next. The text is cut
into chains at every hex whose tile has a stop (city, town or off-board area); whether the
run is legal is then the engine's decision.
"""

from __future__ import annotations

import re
from typing import Any

from bot.errors import CommandError
from engine.core.entities import Corporation
from engine.core.game import BaseGame

HEX = re.compile(r"^[A-Z]{1,2}\d{1,2}$")


def _train_ids(corporation: Corporation, wanted: list[str]) -> list[str]:
    """Resolve `2-0` (an id) or `2` (the company's next unused train of that name)."""
    free = [t.id for t in corporation.trains]
    chosen: list[str] = []
    have = ", ".join(t.id for t in corporation.trains) or "none"
    for name in wanted:
        match = name if name in free else next((t for t in free if t.rsplit("-", 1)[0] == name), None)
        if match is None:
            if name in chosen or any(t.rsplit("-", 1)[0] == name for t in chosen):
                count = sum(1 for n in wanted if n == name)
                times = "twice" if count == 2 else f"{count} times"
                raise CommandError(f"the runs name the train {name[:20]} {times} and {corporation.id} has "
                                   f"{_trains(corporation, name)}: each train runs once (its trains: {have})")
            raise CommandError(f"{corporation.id} has no train {name[:20]!r} to run; its trains: {have}")
        free.remove(match)
        chosen.append(match)
    return chosen


def _trains(corporation: Corporation, name: str) -> str:
    """"only one" or "only 2" for a train the runs named more often than the company has it."""
    same = [t.id for t in corporation.trains if t.id == name or t.id.rsplit("-", 1)[0] == name]
    return "only one" if len(same) == 1 else f"only {len(same)}"


def parse_routes(state: BaseGame, corporation: Corporation, text: str) -> list[dict[str, Any]]:
    """``routes:`` text -> the routes of a run_routes action (train + connections)."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if not parts:
        raise CommandError("give each run as <train>: <hex>-<hex>-..., separated by ;")
    names, paths = [], []
    for part in parts:
        train, sep, rest = part.partition(":")
        if not sep:
            raise CommandError(f"{part!r}: start each run with its train and a colon, e.g. 2-0: I14-J13")
        hexes = [h for h in re.split(r"[\s,>–-]+", rest.strip().upper()) if h]
        bad = [h for h in hexes if not HEX.match(h) or h not in state.board.hexes]
        if bad:
            raise CommandError(f"{', '.join(bad)} {'is not a hex' if len(bad) == 1 else 'are not hexes'} of the map")
        if len(hexes) < 2:
            raise CommandError(f"the run of {train.strip()} must pass at least two hexes")
        names.append(train.strip())
        paths.append(hexes)
    trains = _train_ids(corporation, names)
    return [{"train": train, "connections": chains_of(state, hexes)} for train, hexes in zip(trains, paths, strict=True)]


def chains_of(state: BaseGame, hexes: list[str]) -> list[list[str]]:
    """Cut a hex path into stop-to-stop chains."""
    first = hexes[0]
    if not state.board.hexes[first].tile.stops:
        raise CommandError(f"a run starts at a city, town or off-board area; {first} has none")
    if not state.board.hexes[hexes[-1]].tile.stops:
        raise CommandError(f"a run ends at a city, town or off-board area; {hexes[-1]} has none")
    chains: list[list[str]] = []
    current = [first]
    for coord in hexes[1:]:
        if coord == current[-1]:  # D9-D9: from one stop of a hex to another stop of it
            chains.append([coord])
            current = [coord]
            continue
        current.append(coord)
        if state.board.hexes[coord].tile.stops:
            chains.append(current)
            current = [coord]
    return chains


def path_of(connections: list[list[str]]) -> list[str]:
    """Join an action's chains (each written in either direction) into one hex path."""
    if not connections:
        return []
    path = list(connections[0]) if len(connections[0]) > 1 else [connections[0][0]] * 2
    if len(connections) > 1 and path[-1] not in (connections[1][0], connections[1][-1]):
        path.reverse()
    for chain in connections[1:]:
        if len(chain) == 1 and chain[0] == path[-1]:
            path.append(chain[0])
        elif chain[0] == path[-1]:
            path += chain[1:]
        elif chain[-1] == path[-1]:
            path += list(reversed(chain))[1:]
        else:
            raise ValueError(f"chains do not join: {path} then {chain}")
    return path


def format_routes(routes: list[dict[str, Any]]) -> str:
    """The ``routes:`` text for a run_routes action's routes (``none`` when no train runs)."""
    if not routes:
        return "none"
    return "; ".join(f"{r['train']}: {'-'.join(path_of(r['connections']))}" for r in routes)

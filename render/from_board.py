"""Hex and run views from a board: the part of the map adapter that needs only the board and
a few answers from the rules (`BoardFacts`), so that a whole game (render/from_engine.py) and
a bare title board (render/from_usa_map.py) are drawn by the same code.

Only lookups and reshaping: every value, colour and mark is the engine's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.core.board import NEUTRAL_TOKEN, opposite
from render.marks import marker_views
from render.view import (
    CityView,
    HexView,
    OffboardView,
    PathView,
    PhaseValue,
    RouteSegment,
    RouteView,
    TokenView,
    TownView,
)

if TYPE_CHECKING:
    from engine.core.board import Board, HexState
    from engine.core.map_marks import MapMark
    from engine.core.routes import Run
    from engine.core.tiles import StopDef, TileDef

NEUTRAL = TokenView(NEUTRAL_TOKEN, "#9a9a9a", "#000000", label="")


def _no_reservations(coord: str, city: int) -> list[str]:
    return []


def _no_blockers(coord: str) -> list[str]:
    return []


def _tile_name(tile: TileDef) -> str:
    return tile.name


@dataclass(frozen=True)
class BoardFacts:
    """What the rules say about the board now, as the hex views need it."""

    colors: tuple[str, ...]  # tile colours the current phase makes available
    phases: tuple[tuple[str, tuple[str, ...]], ...]  # every phase in order with its tile colours
    tokens: Mapping[str, TokenView]  # company id -> how its stations look
    terrain_cost: Callable[[HexState], int]  # what a first tile there would still pay
    reservations: Callable[[str, int], list[str]] = _no_reservations  # homes waiting in a city
    blockers: Callable[[str], list[str]] = _no_blockers  # privates that block a hex
    marks: Mapping[str, tuple[MapMark, ...]] = field(default_factory=dict)
    # The number printed on a laid tile: a title whose engine keeps variants of one printed
    # tile (18USA's resource tiles "9ore20") names the printed one.
    tile_number: Callable[[TileDef], str] = _tile_name


def hex_views(board: Board, facts: BoardFacts) -> tuple[HexView, ...]:
    return tuple(hex_view(h, facts) for h in board.hexes.values())


def hex_view(h: HexState, facts: BoardFacts) -> HexView:
    tile = h.tile
    cities = []
    for i, stop in enumerate(tile.cities):
        slots: list[str | None] = h.tokens[i] if i < len(h.tokens) else [None] * stop.slots
        values, current = phase_values(stop, facts)
        cities.append(CityView(
            revenue=stop.revenue_in(facts.colors), slots=stop.slots,
            tokens=tuple(_token(facts, t) for t in slots),
            reserved=_reserved(facts.reservations(h.coord, stop.index), slots),
            values=values, current_index=current, value_colors=_value_colors(stop, values),
        ))
    towns = []
    for stop in tile.towns:
        values, current = phase_values(stop, facts)
        towns.append(TownView(stop.revenue_in(facts.colors), values, current, _value_colors(stop, values)))
    offboard = None
    for stop in tile.stops:
        if stop.kind == "offboard":
            values, current = phase_values(stop, facts)
            offboard = OffboardView(values or (("", stop.revenue_in(facts.colors)),), current,
                                    _value_colors(stop, values))
            break
    marks = facts.marks.get(h.coord, ())
    return HexView(
        coord=h.coord, x=h.hexdef.x, y=h.hexdef.y, color=tile.color,
        location_name=h.hexdef.name,
        label=tile.label if h.tile_laid else (tile.label or h.hexdef.label),
        terrain_cost=facts.terrain_cost(h),
        # A laid tile covers the printed terrain art; the cost (above) is the engine's word.
        terrain_types=() if h.tile_laid else h.hexdef.terrain_types,
        tile_name=facts.tile_number(tile) if h.tile_laid else None,
        paths=tuple(_path(p) for p in h.paths()),
        cities=tuple(cities), towns=tuple(towns), offboard=offboard,
        blocked_by=", ".join(facts.blockers(h.coord)) or None,
        markers=marker_views(marks, facts.tokens),
        metropolis=any(mark.kind == "metropolis" for mark in marks),
    )


def _token(facts: BoardFacts, token: str | None) -> TokenView | None:
    if token == NEUTRAL_TOKEN:
        return NEUTRAL
    return facts.tokens.get(token) if token else None


def _path(path: tuple[tuple[str, int], tuple[str, int]]) -> PathView:
    (ka, ia), (kb, ib) = path
    return ((ka, int(ia)), (kb, int(ib)))


def _reserved(pending: list[str], slots: list[str | None]) -> tuple[str | None, ...]:
    """The engine's pending home reservations, shown in the city's empty slots."""
    waiting = list(pending)
    out: list[str | None] = []
    for token in slots:
        out.append(waiting.pop(0) if token is None and waiting else None)
    return tuple(out)


def _value_colors(stop: StopDef, values: tuple[PhaseValue, ...]) -> tuple[str, ...]:
    return tuple(color for color, _ in stop.all_revenues()) if values else ()


def phase_values(stop: StopDef, facts: BoardFacts) -> tuple[tuple[PhaseValue, ...], int]:
    """Printed phase values labelled with the phases they hold in, and the one in force.

    The engine keys a stop's values by tile colour and says which colours the phase makes
    available; the value in force is the one of the last available colour (the engine's
    `revenue_in` reads it the same way, and it is cross-checked against that).
    """
    pairs = stop.all_revenues()
    if len(pairs) < 2:
        return ((), 0)
    names = [name for name, _ in facts.phases]
    starts = [next((k for k, (_, colors) in enumerate(facts.phases) if color in colors), None)
              for color, _ in pairs]
    values: list[PhaseValue] = []
    for n, ((_, value), start) in enumerate(zip(pairs, starts, strict=True)):
        following = next((s for s in starts[n + 1:] if s is not None), None)
        if start is None:
            label = ""
        elif following is None:
            label = f"{names[start]}+" if start < len(names) - 1 else names[start]
        elif following - 1 > start:
            label = f"{names[start]}\u2013{names[following - 1]}"
        else:
            label = names[start]
        values.append((label, value))
    in_force = stop.revenue_in(facts.colors)
    current = max((k for k, (color, _) in enumerate(pairs) if color in facts.colors), default=0)
    if values[current][1] != in_force:  # pragma: no cover - engine disagreement
        current = next((k for k, (_, v) in enumerate(values) if v == in_force), current)
    return tuple(values), current


# --- runs ------------------------------------------------------------------------------------


def route_views(board: Board, runs: Sequence[Run],
                owner_of: Callable[[Run], tuple[str, str]]) -> tuple[RouteView, ...]:
    """The runs, with each path index turned into that path's endpoints. `owner_of` gives a
    run's (train name, company id).

    The engine keeps a run as (hex, path index) pairs on the tiles that were there when the
    train ran. A tile laid since may renumber or change those paths, so a run whose pieces
    no longer join up is left off the map: no line beats a line along the wrong track.
    """
    out = []
    for run in runs:
        pieces = run_pieces(board, run)
        if pieces is None:
            continue
        train, corporation = owner_of(run)
        out.append(RouteView(
            train=train, revenue=run.revenue,
            segments=tuple(RouteSegment(coord, path) for coord, path in pieces),
            corporation=corporation,
        ))
    return tuple(out)


def run_pieces(board: Board, run: Run) -> list[tuple[str, PathView]] | None:
    """The run's track pieces as they stand now, or None if they no longer form the run.

    Every piece end must be one of the run's stops, a junction, or an edge that the run
    also crosses from the neighbouring hex (the engine's neighbour table and `opposite`).
    """
    pieces: list[tuple[str, PathView]] = []
    for coord, index in run.paths:
        h = board.hexes.get(coord)
        if h is None or not 0 <= index < len(h.paths()):
            return None
        pieces.append((coord, _path(h.paths()[index])))
    stops = {(coord, kind, index) for coord, kind, index in run.stops}
    crossings = {(coord, end[1]) for coord, path in pieces for end in path if end[0] == "edge"}
    for coord, path in pieces:
        for kind, index in path:
            if kind == "junction" or (coord, kind, index) in stops:
                continue
            neighbor = board.hexes[coord].hexdef.neighbors.get(index) if kind == "edge" else None
            if neighbor is None or (neighbor, opposite(index)) not in crossings:
                return None
    return pieces

"""The adapter: a read-only engine position -> the plain views render/ draws.

Every number, colour and choice here is read from the engine (state attributes and the
engine's own functions: `revenue_in`, `terrain_cost`, `tokens_left`, `player_value`, ...).
Nothing is worked out from the rules; where the engine keeps a fact in a different shape
than the view wants (a run's paths by index, revenues by tile colour) it is only looked up
and reshaped. The adapter never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.board import opposite
from render.from_engine_table import corp_rows, depot_rows, player_rows
from render.view import (
    CityView,
    HexView,
    MapView,
    MarketCellView,
    MarketView,
    OffboardView,
    PathView,
    PhaseValue,
    RouteSegment,
    RouteView,
    TableView,
    TokenView,
    TownView,
)

if TYPE_CHECKING:
    from engine.core.board import HexState
    from engine.core.game import BaseGame
    from engine.core.routes import Run
    from engine.core.tiles import StopDef


def map_view(state: BaseGame, *, show_last_runs: bool = True) -> MapView:
    """The map as it stands: tiles, tokens, values in force, last lay highlighted."""
    tokens = _token_views(state)
    hexes = tuple(_hex_view(state, h, tokens) for h in state.board.hexes.values())
    routes = _route_views(state) if show_last_runs else ()
    return MapView(
        title=state.TITLE,
        hexes=hexes,
        highlight_hexes=frozenset(state.last_tile_hexes),
        routes=routes,
        caption=f"Phase {state.phase.name} \u2014 {round_label(state)}",
    )


def market_view(state: BaseGame) -> MarketView:
    """The stock market grid with each cell's stack, top of the stack first."""
    tokens = _token_views(state)
    cells = tuple(
        MarketCellView(
            row=cell.row, col=cell.col, price=cell.price, is_par=cell.is_par,
            on_ledge=cell.on_ledge, up_arrow=cell.up_arrow, down_arrow=cell.down_arrow,
            tokens=tuple(tokens[cid] for cid in state.market.stacks.get(key, ()) if cid in tokens),
        )
        for key, cell in sorted(state.market.cells.items())
    )
    # A grid with a single row is the one-dimensional kind (18USA); it is drawn wrapped.
    kind = "1d" if len({c.row for c in cells}) == 1 else "2d"
    return MarketView(f"{state.TITLE} stock market \u2014 {round_label(state)}", cells, kind)


def table_view(state: BaseGame) -> TableView:
    """Players, companies, bank, phase and the trains still in the depot."""
    notes = (f"Train limit {state.phase.train_limit} \u2014 certificate limit {state.cert_limit}",)
    if state.bank_broken:
        notes += ("The bank has broken: the game ends after this set of operating rounds"
                  if not state.finished else "The bank has broken",)
    return TableView(state.TITLE, round_label(state), state.phase.name, player_rows(state),
                     corp_rows(state), state.bank.cash, depot_rows(state), (), notes)


def round_label(state: BaseGame) -> str:
    """'Stock Round 3', 'Operating Round 3.2 \u2014 SP operating', 'Game over': the engine's label."""
    return state.round_label()


# --- the map ---------------------------------------------------------------------------------


def _token_views(state: BaseGame) -> dict[str, TokenView]:
    return {cid: TokenView(cid, corp.color, corp.text_color) for cid, corp in state.corporations.items()}


def _hex_view(state: BaseGame, h: HexState, tokens: dict[str, TokenView]) -> HexView:
    colors = state.colors_available()
    tile = h.tile
    cities = []
    for i, stop in enumerate(tile.cities):
        slots = h.tokens[i] if i < len(h.tokens) else [None] * stop.slots
        values, current = _phase_values(state, stop)
        cities.append(CityView(
            revenue=stop.revenue_in(colors), slots=stop.slots,
            tokens=tuple(tokens.get(t) if t else None for t in slots),
            reserved=_reserved(state.pending_reservations(h.coord, stop.index), slots),
            values=values, current_index=current,
        ))
    towns = []
    for stop in tile.towns:
        values, current = _phase_values(state, stop)
        towns.append(TownView(stop.revenue_in(colors), values, current))
    offboard = None
    for stop in tile.stops:
        if stop.kind == "offboard":
            values, current = _phase_values(state, stop)
            offboard = OffboardView(values or (("", stop.revenue_in(colors)),), current)
            break
    blockers = [company.id for company in state.blocking_companies(h.coord)]
    return HexView(
        coord=h.coord, x=h.hexdef.x, y=h.hexdef.y, color=tile.color,
        location_name=h.hexdef.name,
        label=tile.label if h.tile_laid else (tile.label or h.hexdef.label),
        terrain_cost=state.terrain_cost(h),
        # A laid tile covers the printed terrain art; the cost (above) is the engine's word.
        terrain_types=() if h.tile_laid else h.hexdef.terrain_types,
        tile_name=tile.name if h.tile_laid else None,
        paths=tuple(_path(p) for p in h.paths()),
        cities=tuple(cities), towns=tuple(towns), offboard=offboard,
        blocked_by=", ".join(blockers) or None,
    )


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


def _phase_values(state: BaseGame, stop: StopDef) -> tuple[tuple[PhaseValue, ...], int]:
    """Printed phase values labelled with the phases they hold in, and the one in force.

    The engine keys a stop's values by tile colour and says which colours the phase makes
    available; the value in force is the one of the last available colour (the engine's
    `revenue_in` reads it the same way, and it is cross-checked against that).
    """
    pairs = stop.all_revenues()
    if len(pairs) < 2:
        return ((), 0)
    colors = state.colors_available()
    names = [p.name for p in state.phases]
    starts = [next((k for k, p in enumerate(state.phases) if color in p.tiles), None) for color, _ in pairs]
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
    current = max((k for k, (color, _) in enumerate(pairs) if color in colors), default=0)
    if values[current][1] != stop.revenue_in(colors):  # pragma: no cover - engine disagreement
        current = next((k for k, (_, v) in enumerate(values) if v == stop.revenue_in(colors)), current)
    return tuple(values), current


def _route_views(state: BaseGame) -> tuple[RouteView, ...]:
    """The last runs, with each path index turned into that path's endpoints.

    The engine keeps a run as (hex, path index) pairs on the tiles that were there when the
    train ran. A tile laid since may renumber or change those paths, so a run whose pieces
    no longer join up is left off the map: no line beats a line along the wrong track.
    """
    owners = {t.id: (t, corp) for corp in state.corporations.values() for t in corp.trains}
    out = []
    for run in state.last_runs:
        pieces = _run_pieces(state, run)
        if pieces is None:
            continue
        train, corp = owners.get(run.train, (None, None))
        out.append(RouteView(
            train=train.name if train is not None else run.train.rpartition("-")[0] or run.train,
            revenue=run.revenue,
            segments=tuple(RouteSegment(coord, path) for coord, path in pieces),
            corporation=corp.id if corp is not None else "",
        ))
    return tuple(out)


def _run_pieces(state: BaseGame, run: Run) -> list[tuple[str, PathView]] | None:
    """The run's track pieces as they stand now, or None if they no longer form the run.

    Every piece end must be one of the run's stops, a junction, or an edge that the run
    also crosses from the neighbouring hex (the engine's neighbour table and `opposite`).
    """
    pieces: list[tuple[str, PathView]] = []
    for coord, index in run.paths:
        h = state.board.hexes.get(coord)
        if h is None or not 0 <= index < len(h.paths()):
            return None
        pieces.append((coord, _path(h.paths()[index])))
    stops = {(coord, kind, index) for coord, kind, index in run.stops}
    crossings = {(coord, end[1]) for coord, path in pieces for end in path if end[0] == "edge"}
    for coord, path in pieces:
        for kind, index in path:
            if kind == "junction" or (coord, kind, index) in stops:
                continue
            neighbor = state.board.hexes[coord].hexdef.neighbors.get(index) if kind == "edge" else None
            if neighbor is None or (neighbor, opposite(index)) not in crossings:
                return None
    return pieces

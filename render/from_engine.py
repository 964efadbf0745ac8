"""The adapter: a read-only engine position -> the plain views render/ draws.

Every number, colour and choice here is read from the engine (state attributes and the
engine's own functions: `revenue_in`, `terrain_cost`, `tokens_left`, `player_value`, ...).
Nothing is worked out from the rules; where the engine keeps a fact in a different shape
than the view wants (a run's paths by index, revenues by tile colour) it is only looked up
and reshaped. The adapter never changes the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.describe import printed_numbers
from render.from_board import BoardFacts, hex_views, route_views
from render.from_engine_table import corp_rows, depot_rows, loan_bank, player_rows, private_rows
from render.from_market import market_view_of
from render.view import (
    MapView,
    MarketView,
    TableView,
    TokenView,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from engine.core.game import BaseGame
    from engine.core.routes import Run
    from engine.core.tiles import TileDef


def map_view(state: BaseGame, *, show_last_runs: bool = True) -> MapView:
    """The map as it stands: tiles, tokens, values in force, the title's marks (subsidies,
    resource and bridge tokens, ...), the last lay highlighted and the last runs."""
    hexes = hex_views(state.board, board_facts(state))
    routes = route_views(state.board, state.last_runs, _run_owner(state)) if show_last_runs else ()
    return MapView(
        title=state.TITLE,
        hexes=hexes,
        highlight_hexes=frozenset(state.last_tile_hexes),
        routes=routes,
        caption=f"Phase {state.phase.name} \u2014 {round_label(state)}",
    )


def market_view(state: BaseGame) -> MarketView:
    """The stock market with each cell's stack, top of the stack first."""
    return market_view_of(state.market, state.data["market"], _token_views(state),
                          f"{state.TITLE} stock market \u2014 {round_title(state)}")


def table_view(state: BaseGame) -> TableView:
    """Players, companies, bank, phase and the trains still in the depot."""
    notes: tuple[str, ...] = (f"Train limit {state.phase.train_limit} \u2014 certificate limit {state.cert_limit}",)
    if state.bank_broken:
        notes += ("The bank has broken: the game ends after this set of operating rounds"
                  if not state.finished else "The bank has broken",)
    if state.finished:
        notes += (final_ranking(state),)
    else:  # the title's lines players keep in view: when the game ends, a company without a train
        notes += tuple(note for note, _ in state.status_notes())
    return TableView(state.TITLE, round_title(state), state.phase.name, player_rows(state),
                     corp_rows(state), None if state.bank.unlimited else state.bank.cash,
                     depot_rows(state), tuple(t.name for t in state.depot.discarded), notes,
                     private_rows(state), loan_bank(state))


# Why a game ended (the engine's `end_reason` codes), in players' words.
END_REASONS = {"bank": "the bank broke", "bankrupt": "a player went bankrupt",
               "final_phase": "the last round of the final phase", "manually_ended": "ended by the players"}


def round_label(state: BaseGame) -> str:
    """'Stock Round 3', 'Operating Round 3.2 \u2014 SP operating', 'Game over': the engine's label,
    with the reason a game ended in words rather than the engine's code ("final_phase")."""
    if state.finished and state.end_reason:
        reason = END_REASONS.get(state.end_reason, state.end_reason.replace("_", " "))
        return f"Game over: {reason}"
    return state.round_label()


def final_ranking(state: BaseGame) -> str:
    """'Final ranking: 1. Ann $6968 · 2. Bob $6390 ...', by the engine's result."""
    names = {player.key: player.name for player in state.players}
    ranked = sorted(state.result().items(), key=lambda item: -item[1])
    return "Final ranking: " + " \u00b7 ".join(f"{rank}. {names.get(key, key)} ${value}"
                                              for rank, (key, value) in enumerate(ranked, 1))


# --- the map ---------------------------------------------------------------------------------


def board_facts(state: BaseGame) -> BoardFacts:
    """The rules' answers the hex views need, from the game."""
    return BoardFacts(
        colors=state.colors_available(),
        phases=tuple((phase.name, tuple(phase.tiles)) for phase in state.phases),
        tokens=_token_views(state),
        terrain_cost=state.terrain_cost,
        reservations=state.pending_reservations,
        blockers=lambda coord: [company.id for company in state.blocking_companies(coord)],
        marks=state.map_marks(),
        tile_number=_printed_numbers(state),
    )


def _printed_numbers(state: BaseGame) -> Callable[[TileDef], str]:
    """The number printed on a tile, as the engine names it (`engine.describe.printed_numbers`)."""
    printed = printed_numbers(state)
    return lambda tile: printed.get(tile.name, tile.name)


def _token_views(state: BaseGame) -> dict[str, TokenView]:
    return {cid: TokenView(cid, corp.color, corp.text_color) for cid, corp in state.corporations.items()}


def _run_owner(state: BaseGame) -> Callable[[Run], tuple[str, str]]:
    """A run's train name and company, from the companies' trains."""
    owners = {t.id: (t, corp) for corp in state.corporations.values() for t in corp.trains}

    def owner_of(run: Run) -> tuple[str, str]:
        train, corp = owners.get(run.train, (None, None))
        name = train.name if train is not None else run.train.rpartition("-")[0] or run.train
        return name, corp.id if corp is not None else ""

    return owner_of


def round_title(state: BaseGame) -> str:
    """'Stock Round 3', 'Operating Round 3.2', 'Game over: the bank broke': the round a picture
    shows without the company operating in it. The market and the table carry it, so they are
    drawn again when a round begins (and their title is never an earlier round's), not each
    time another company operates."""
    return round_label(state) if state.finished else state.round.title(state)

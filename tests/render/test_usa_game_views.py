"""The engine adapter on the 18USA game class itself: fixture 109372 in its first stock round,
a position the game replays exactly (tests/engine/titles/g18usa/test_18usa_replay.py). The
views from the game agree with those built from the reference trace and from the map replay."""

from __future__ import annotations

import dataclasses

from usa_states import USA_STATES, game_after, trace_line
from usa_trace_views import usa_market_view, usa_table_view

from engine.titles.g18usa.map_facts import map_marks, private_owners
from render.from_engine import map_view, market_view, table_view
from render.from_usa_map import usa_map_view

EARLY = USA_STATES["usa_early"]
assert EARLY is not None


def test_table_from_the_game_matches_the_trace() -> None:
    game, trace = table_view(game_after(EARLY)), usa_table_view(trace_line(EARLY))
    fields = ("name", "cash", "certs", "cert_count", "cert_limit", "value", "is_active", "shorts",
              "has_priority")
    assert [[getattr(p, f) for f in fields] + [sorted(p.companies)] for p in game.players] == [
        [getattr(p, f) for f in fields] + [sorted(p.companies)] for p in trace.players]
    started = {c.id: c for c in game.corporations if c.share_price is not None}
    fields = ("president", "cash", "share_price", "trains", "tokens_left", "treasury_pct", "pool_pct",
              "floated", "loans", "size", "area")
    assert {c.id: [getattr(c, f) for f in fields] + [sorted(c.companies)] for c in started.values()} == {
        c.id: [getattr(c, f) for f in fields] + [sorted(c.companies)] for c in trace.corporations}
    assert game.loan_bank == trace.loan_bank and game.bank_cash is None
    assert {p.id: p.holder for p in game.privates} == {p.id: p.holder for p in trace.privates}
    # The game keeps Pullman cars apart from its depot (sold in any number from phase 5); the
    # table lists them after the trains, as the trace does.
    assert [(d.train, d.count, d.price, d.rusts_on) for d in game.depot] == [
        (d.train, d.count, d.price, d.rusts_on) for d in trace.depot]
    assert game.depot[-1].first_brings == ("on sale from phase 5",)


def test_market_from_the_game_matches_the_trace() -> None:
    game, trace = market_view(game_after(EARLY)), usa_market_view(trace_line(EARLY))
    assert game.kind == trace.kind == "1d"
    strip = ("tokens",)
    assert [dataclasses.replace(c, **dict.fromkeys(strip, ())) for c in game.cells] == [
        dataclasses.replace(c, **dict.fromkeys(strip, ())) for c in trace.cells]
    # Same companies on the same spaces; the game knows the order within a stack, the trace not.
    assert [sorted(t.corporation for t in c.tokens) for c in game.cells] == [
        sorted(t.corporation for t in c.tokens) for c in trace.cells]


def test_map_from_the_game_is_its_board_with_the_map_rules_marks() -> None:
    state = game_after(EARLY)
    umap = state.umap  # type: ignore[attr-defined]
    from_game = map_view(state)
    marks = map_marks(umap, state.phase.name, private_owners(state.companies))
    board = usa_map_view(umap, state.phase.name)
    # The game hands out the map rules' marks (TitleRules.map_marks): the same hexes as the
    # board view, subsidies, metropolises and resources included.
    assert state.map_marks() == marks
    assert from_game.hexes == usa_map_view(umap, state.phase.name,
                                           private_owners=private_owners(state.companies)).hexes
    assert any(marks.values()) and sum(len(h.markers) for h in from_game.hexes) > 30
    assert {h.coord for h in board.hexes if h.metropolis} == set(umap.metropolises)

"""The optimizer's result object, action shape, time budget, cache and command line."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.core.entities import Train
from engine.core.most_earnings import best_runs, cache_of, clear_cache
from engine.core.track import place_token
from engine.router import RouterCache, RouteResult
from engine.router import runs as router_runs
from engine.router import search as router_search
from engine.router import solve as router
from engine.router_cli import run_positions

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "18Texas" / "65394.json"


def position(action_id: int) -> tuple[Any, dict[str, Any]]:
    """A copy of the fixture's position just before run_routes `action_id`."""
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        if action["id"] == action_id:
            return copy.deepcopy(state), action
    raise AssertionError(action_id)


def test_result_and_action_shape() -> None:
    state, action = position(101)  # MP runs three trains
    result = best_runs(state, "MP")
    assert isinstance(result, RouteResult) and result.corporation == "MP"
    assert len(result.runs) == 3 and result.total == sum(run.revenue for run in result.runs)
    with pytest.raises(AttributeError):
        result.total = 0  # type: ignore[misc]
    for run in result.runs:
        assert run.hexes == tuple(stop[0] for stop in run.stops)
        assert len(run.connections) == len(run.stops) - 1
        assert run.connections[0][0] == run.hexes[0] and run.connections[-1][-1] == run.hexes[-1]
        assert len(set(run.paths)) == len(run.paths)
    move = result.to_action("MP")
    assert {k: move[k] for k in ("type", "entity", "entity_type")} == {
        "type": "run_routes", "entity": "MP", "entity_type": "corporation"}
    for route, run in zip(move["routes"], result.runs, strict=True):
        assert route["train"] == run.train and route["revenue"] == run.revenue
        assert route["revenue_str"] == "-".join(route["hexes"])
        assert all(isinstance(chain, list) for chain in route["connections"])
        assert [node.rpartition("-")[0] for node in route["nodes"]] == route["hexes"]
    json.dumps(move)
    state.importing = False
    state.process(move)


def test_two_cities_in_one_hex_are_joined_by_a_one_hex_chain() -> None:
    state, _ = position(58)  # MP's 2-train ran D9 city to D9 city
    result = best_runs(state, "MP")
    inner = [run for run in result.runs if run.hexes == ("D9", "D9")]
    assert inner and inner[0].connections == (("D9",),)


def test_a_company_without_trains_or_route_runs_nothing() -> None:
    state, _ = position(101)
    corp = state.corporations["MP"]
    corp.trains = []
    empty = best_runs(state, corp)
    assert (empty.runs, empty.total, empty.proven_optimal) == ((), 0, True)
    assert empty.to_action()["routes"] == []
    unfloated = state.corporations["SSW"]
    assert not state.board.token_hexes("SSW")
    unfloated.trains = [Train("8-9", "8", 8, 0, None)]
    result = best_runs(state, unfloated)
    assert result.runs == () and result.total == 0 and result.proven_optimal


def test_out_of_time_gives_a_legal_answer_not_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    state, action = position(470)  # T&P's 8-train late in the game
    full = best_runs(state, "T&P")
    clear_cache(state)
    monkeypatch.setattr(router_runs, "POLL_EVERY", 1)
    monkeypatch.setattr(router_search, "POLL_EVERY", 1)
    rushed = best_runs(state, "T&P", time_budget=0.0, method="listing")
    assert not rushed.proven_optimal
    assert 0 < rushed.total <= full.total
    assert rushed.engine_disagreements == 0
    # The model out of time answers with what it has (perhaps nothing), never claiming a proof.
    hurried = best_runs(state, "T&P", time_budget=0.0, method="model")
    assert not hurried.proven_optimal and hurried.total <= full.total
    # An unfinished list of runs is not cached: with time enough the answer is proven again.
    monkeypatch.undo()
    again = best_runs(state, "T&P")
    assert again.total == full.total and again.proven_optimal
    state.importing = False
    for answer in (rushed, hurried):
        copy.deepcopy(state).process(answer.to_action("T&P"))


def test_cache_is_reused_and_follows_tokens_tiles_and_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []
    real = router.build_graph

    def counting(*args: Any, **options: Any) -> Any:
        built.append(args[1])
        return real(*args, **options)

    monkeypatch.setattr(router, "build_graph", counting)
    state, _ = position(216)
    first = best_runs(state, "T&P")
    again = best_runs(state, "T&P")
    assert (again.runs, again.total) == (first.runs, first.total)
    assert built == ["T&P"]
    # Another company's station can block a city: the board changed, so the graph is rebuilt.
    coord, index = next((coord, index) for coord, hexstate in sorted(state.board.hexes.items())
                        for index, slots in enumerate(hexstate.tokens) if None in slots and hexstate.tile.paths)
    slots = state.board.hexes[coord].tokens[index]
    place_token(state, state.corporations["SSW"], coord, index, slots.index(None))
    best_runs(state, "T&P")
    assert built == ["T&P", "T&P"]
    state.phase_index += 1
    best_runs(state, "T&P")
    assert len(built) == 3
    # The cache is the game's own and bounded; a copy of the game starts with an empty one.
    assert 0 < len(cache_of(state)) <= RouterCache.ENTRIES
    assert len(cache_of(copy.deepcopy(state))) == 0
    for company in state.corporations:
        best_runs(state, company)
    assert len(cache_of(state)) <= RouterCache.ENTRIES


def test_stationmaster_routes_prints_one_line_per_logged_run(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["routes", str(FIXTURE)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 64 and all(line["best"] >= line["declared"] for line in lines)
    assert main(["routes", "/nonexistent/log.json"]) == 2
    assert "stationmaster routes: cannot read" in capsys.readouterr().err

"""Title route hooks (the 18USA kinds) in the optimizer and in the engine's run check.

`Hooked` is 18Texas with every route hook switched on in the way 18USA would use it: bonus tokens
on some stops, resource bonuses on plain track, an express bonus for runs joining west and east,
a limit on runs ending in a group of hexes, and a Pullman (+$20 per stop on the company's longest
run). A position is made hooked by swapping the class of a replayed or generated 18Texas state.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from test_router_reference import reference_best
from test_router_small import random_position

from engine import GameError
from engine.core.entities import Corporation, Train
from engine.core.game import BaseGame
from engine.core.graph import Node, reach_of
from engine.core.route_hooks import EndLimit
from engine.core.router import best_runs, clear_cache
from engine.router_cli import run_positions
from engine.titles.g18texas.game import G18Texas

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "18Texas" / "65394.json"


class Hooked(G18Texas):
    """18Texas with 18USA-style route hooks; what they touch is set per position."""

    bonus_stops: frozenset[str] = frozenset()
    resources: frozenset[str] = frozenset()
    limits: tuple[EndLimit, ...] = ()

    def route_stop_revenue(self, corporation: Corporation, train: Train, stop: Node, revenue: int) -> int:
        # A bonus token counts only for trains of 4 or more, so values differ between trains.
        return revenue + 30 if stop[0] in self.bonus_stops and train.distance >= 4 else revenue

    def route_track_bonuses(self, corporation: Corporation, train: Train) -> dict[str, int]:
        return dict.fromkeys(self.resources, 10)

    def route_run_bonus(self, corporation: Corporation, train: Train, stops: tuple[Node, ...]) -> int:
        columns = [int(coord[1:]) for coord, _, _ in stops]
        return 40 if min(columns) <= 7 and max(columns) >= 13 else 0

    def route_end_limits(self, corporation: Corporation) -> tuple[EndLimit, ...]:
        return self.limits

    def route_company_bonus(self, corporation: Corporation,
                            runs: Sequence[tuple[Train, tuple[Node, ...]]]) -> dict[str, int]:
        if not runs:
            return {}
        train, stops = max(runs, key=lambda run: len(run[1]))
        return {train.id: 20 * len(stops)}

    def route_company_bonus_limit(self, corporation: Corporation, trains: Sequence[Train]) -> int:
        return 20 * max((train.distance for train in trains), default=0)


def hook(state: BaseGame, corp_id: str, seed: int) -> Hooked:
    """The same position with hooks on things the company can reach."""
    state.__class__ = Hooked
    assert isinstance(state, Hooked)
    reach = reach_of(state.board, corp_id)
    stops = sorted({coord for coord, _, _ in reach.nodes})
    plain = sorted(coord for coord in reach.hexes
                   if state.board.hexes[coord].tile.paths and not state.board.hexes[coord].tile.stops)
    state.bonus_stops = frozenset(stops[seed % 3::3])
    state.resources = frozenset(plain[seed % 2::2])
    state.limits = ((frozenset(stops[::2]), 1),)
    return state


@pytest.mark.parametrize("seed", range(25))
def test_optimizer_equals_brute_force_with_hooks_on_generated_maps(seed: int) -> None:
    state, mover = random_position(seed, tiles=45)
    hooked = hook(state, mover, seed)
    corp = hooked.corporations[mover]
    result = best_runs(hooked, corp)
    assert result.proven_optimal and result.engine_disagreements == 0
    assert result.total == reference_best(hooked, corp)


def test_hooked_answers_equal_brute_force_and_are_accepted_on_the_fixture() -> None:
    clear_cache()
    for index, (state, action) in enumerate(run_positions(json.loads(FIXTURE.read_text()))):
        if index % 3:
            continue
        trial = hook(copy.deepcopy(state), action["entity"], index)
        trial.importing = False
        corp = trial.corporations[action["entity"]]
        result = best_runs(trial, corp)
        assert result.proven_optimal and result.engine_disagreements == 0
        assert result.total == reference_best(trial, corp), action["id"]
        trial.process(result.to_action(corp.id))
        assert sum(run.revenue for run in trial.last_runs) == result.total


def test_end_limit_is_enforced_by_the_engine_and_respected_by_the_optimizer() -> None:
    checked = 0
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        plain = best_runs(state, action["entity"])
        if len(plain.runs) < 2:
            continue
        trial = hook(copy.deepcopy(state), action["entity"], 0)
        trial.importing = False
        trial.bonus_stops = trial.resources = frozenset()
        # Every run of the plain answer ends in this group; only one may.
        trial.limits = ((frozenset(run.hexes[-1] for run in plain.runs), 1),)
        with pytest.raises(GameError, match="at most 1 runs may end in"):
            trial.process(plain.to_action(action["entity"]))
        corp = trial.corporations[action["entity"]]
        result = best_runs(trial, corp)
        assert result.total == reference_best(trial, corp)
        trial.process(result.to_action(corp.id))
        checked += 1
    assert checked >= 5


def test_a_wrong_revenue_is_still_refused_in_live_play() -> None:
    state, action = next((s, a) for s, a in run_positions(json.loads(FIXTURE.read_text())) if a["id"] >= 100)
    trial = copy.deepcopy(state)
    trial.importing = False
    move = best_runs(trial, action["entity"]).to_action(action["entity"])
    move["routes"][0]["revenue"] += 10
    with pytest.raises(GameError, match="is worth"):
        trial.process(move)

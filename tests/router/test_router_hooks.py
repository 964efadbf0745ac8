"""Title route hooks (the 18USA kinds) in the optimizer and in the engine's run check.

`Hooked` is 18Texas with every route hook switched on in the way 18USA uses it: bonus tokens on
some stops that count only for long trains, resource bonuses on plain track, a rural-junction
style stop that may not end a run, two red areas that count as one location, a limit on runs
ending in a group of hexes, a Pullman (+$20 per stop on the train the optimizer picks) and a
route bonus for stopping at given hexes. A position is made hooked by swapping the class of a
replayed or generated 18Texas state. Both searches (listing and model) must equal the
brute-force reference.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

import pytest
from test_router_reference import reference_best
from test_router_small import random_position

from engine import GameError
from engine.core.entities import Corporation, Train
from engine.core.game import BaseGame
from engine.core.graph import Node, reach_of
from engine.core.most_earnings import best_runs
from engine.core.route_hooks import Attachment, EndLimit, StopRole
from engine.router_cli import run_positions
from engine.titles.g18texas.game import G18Texas

FIXTURE = Path(__file__).resolve().parent.parent / "data" / "fixtures" / "18Texas" / "65394.json"


class Hooked(G18Texas):
    """18Texas with 18USA-style route hooks; what they touch is set per position."""

    bonus_stops: frozenset[str] = frozenset()
    resources: frozenset[str] = frozenset()
    limits: tuple[EndLimit, ...] = ()
    roles: dict[Node, StopRole] = {}
    extras: tuple[Attachment, ...] = ()

    def route_stop_revenue(self, corporation: Corporation, train: Train, stop: Node, revenue: int) -> int:
        # A bonus token counts only for trains of 4 or more, so values differ between trains.
        return revenue + 30 if stop[0] in self.bonus_stops and train.distance >= 4 else revenue

    def route_track_bonuses(self, corporation: Corporation, train: Train) -> dict[str, int]:
        return dict.fromkeys(self.resources, 10)

    def route_stop_roles(self, corporation: Corporation) -> Mapping[Node, StopRole]:
        return self.roles

    def route_end_limits(self, corporation: Corporation) -> tuple[EndLimit, ...]:
        return self.limits

    def route_attachments(self, corporation: Corporation) -> tuple[Attachment, ...]:
        return self.extras


def hook(state: BaseGame, corp_id: str, seed: int) -> Hooked:
    """The same position with hooks on things the company can reach."""
    state.__class__ = Hooked
    assert isinstance(state, Hooked)
    reach = reach_of(state.board, corp_id)
    nodes = sorted(reach.nodes)
    stops = sorted({coord for coord, _, _ in nodes})
    plain = sorted(coord for coord in reach.hexes
                   if state.board.hexes[coord].tile.paths and not state.board.hexes[coord].tile.stops)
    state.bonus_stops = frozenset(stops[seed % 3::3])
    state.resources = frozenset(plain[seed % 2::2])
    state.limits = ((frozenset(stops[::2]), 1),)
    untokened = [node for node in nodes if node[1] != "city" or corp_id not in state.board.hexes[node[0]].tokens[node[2]]]
    roles: dict[Node, StopRole] = {}
    if untokened:
        roles[untokened[seed % len(untokened)]] = StopRole(never_end=True)
    offboards = [node for node in nodes if node[1] == "offboard"]
    for node in offboards[:2]:
        roles[node] = replace(roles.get(node, StopRole()), area="red area")
    state.roles = roles
    state.extras = (Attachment("pullman", stop_bonus=20),
                    Attachment("great northern", run_bonuses=((frozenset(stops[1:3]), 40),
                                                              (frozenset(stops[1:2]), 15))))
    return state


@pytest.mark.parametrize("seed", range(200))
def test_both_searches_equal_brute_force_with_hooks_on_generated_maps(seed: int) -> None:
    state, mover = random_position(seed, tiles=30 + seed % 16)
    hooked = hook(state, mover, seed)
    corp = hooked.corporations[mover]
    expected = reference_best(hooked, corp)
    for method in ("listing", "model"):
        # A generous budget: the suite shares two cores, and a proof, not speed, is checked here.
        result = best_runs(hooked, corp, method=method, time_budget=20.0)
        assert result.proven_optimal and result.engine_disagreements == 0, method
        assert result.total == expected, method


def test_hooked_answers_equal_brute_force_and_are_accepted_on_the_fixture() -> None:
    for index, (state, action) in enumerate(run_positions(json.loads(FIXTURE.read_text()))):
        if index % 3:
            continue
        trial = hook(copy.deepcopy(state), action["entity"], index)
        trial.importing = False
        corp = trial.corporations[action["entity"]]
        expected = reference_best(trial, corp)
        for method in ("listing", "model"):
            result = best_runs(trial, corp, method=method)
            assert result.proven_optimal and result.engine_disagreements == 0
            assert result.total == expected, (action["id"], method)
            moved = copy.deepcopy(trial)
            moved.process(result.to_action(corp.id))
            assert sum(run.revenue for run in moved.last_runs) == result.total


def test_extender_goes_to_the_train_that_gains_most() -> None:
    """An extender (+1 distance) is worth the best of giving it to each train in turn."""
    checked = 0
    for index, (state, action) in enumerate(run_positions(json.loads(FIXTURE.read_text()))):
        if index % 4:
            continue
        trial = hook(copy.deepcopy(state), action["entity"], index)
        # Bonus tokens depend on a train's length, which the extender does not change.
        trial.extras, trial.bonus_stops = (), frozenset()
        corp = trial.corporations[action["entity"]]
        if not corp.trains:
            continue
        options = [reference_best(trial, corp)]
        for position, train in enumerate(corp.trains):
            longer = list(corp.trains)
            longer[position] = replace(train, distance=train.distance + 1)
            options.append(reference_best(trial, corp, longer))
        trial.extras = (Attachment("extender", distance_bonus=1),)
        result = best_runs(trial, corp)
        assert result.method == "model" and result.proven_optimal
        assert result.total == max(options), action["id"]
        carriers = [run for run in result.runs if "extender" in run.attachments]
        assert len(carriers) <= 1
        checked += 1
    assert checked >= 5


def test_end_limit_is_enforced_by_the_engine_and_respected_by_the_optimizer() -> None:
    checked = 0
    for state, action in run_positions(json.loads(FIXTURE.read_text())):
        plain = best_runs(state, action["entity"])
        if len(plain.runs) < 2:
            continue
        trial = hook(copy.deepcopy(state), action["entity"], 0)
        trial.importing = False
        trial.bonus_stops = trial.resources = frozenset()
        trial.roles, trial.extras = {}, ()
        # Every run of the plain answer ends in this group; only one may.
        trial.limits = ((frozenset(run.hexes[-1] for run in plain.runs), 1),)
        with pytest.raises(GameError, match="at most 1 runs may end in"):
            copy.deepcopy(trial).process(plain.to_action(action["entity"]))
        corp = trial.corporations[action["entity"]]
        expected = reference_best(trial, corp)
        for method in ("listing", "model"):
            result = best_runs(trial, corp, method=method)
            assert result.total == expected, method
            copy.deepcopy(trial).process(result.to_action(corp.id))
        checked += 1
    assert checked >= 5


def test_a_stop_that_may_not_end_a_run_is_refused_at_an_end() -> None:
    state, action = next((s, a) for s, a in run_positions(json.loads(FIXTURE.read_text())) if a["id"] >= 100)
    trial = hook(copy.deepcopy(state), action["entity"], 0)
    trial.importing = False
    trial.bonus_stops = trial.resources = frozenset()
    trial.limits, trial.extras = (), ()
    move = best_runs(trial, action["entity"]).to_action(action["entity"])
    first = move["routes"][0]
    coord = first["hexes"][0]
    trial.roles = {node: StopRole(never_end=True) for node in reach_of(trial.board, action["entity"]).nodes
                   if node[0] == coord}
    with pytest.raises(GameError, match=f"may not start or end at {coord}"):
        trial.process(move)


def test_a_wrong_revenue_is_still_refused_in_live_play() -> None:
    state, action = next((s, a) for s, a in run_positions(json.loads(FIXTURE.read_text())) if a["id"] >= 100)
    trial = copy.deepcopy(state)
    trial.importing = False
    move = best_runs(trial, action["entity"]).to_action(action["entity"])
    move["routes"][0]["revenue"] += 10
    with pytest.raises(GameError, match="is worth"):
        trial.process(move)

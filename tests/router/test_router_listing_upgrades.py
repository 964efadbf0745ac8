"""The listing search with the attachments that change a distance: P19's switcher (one stop
passed uncounted and unearned, a city full of others' stations among them, one more stop of
distance) and P30's extender (one more stop), each a resource of the combination search that one
train at most takes.

Three oracles: on random 18USA regions with two trains, the whole-network model (CP-SAT, which
shares no search code with the listing) proves the same most; on the positions random play kept,
the most the model proved in long searches (docs/router-proofs.md) and the run step, which takes
the listing's runs at the value it declares. One train against the title's own switcher rule
through a brute force: test_router_usa.test_a_switcher_or_an_extender_equals_brute_force_...
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from kept_positions import stale_mark
from test_router_usa import COMPANY, usa_position

from engine.attachments import attachment_actions
from engine.core.entities import Company
from engine.core.most_earnings import best_runs, given_most
from engine.log import load_game

KEPT = Path(__file__).resolve().parent.parent / "data" / "positions"

# Kept position -> (the company that runs, the most its trains earn, proven by the model).
MOST = {
    "optimizer_18usa_20910_president_above_60_seventeen_trains_1065_C_O": ("C&O", 350),  # 2+,2+,2; P19, P30
    "optimizer_18usa_22303_674_PRR": ("PRR", 310),  # 2+2+2, P19
    "usa_extender_solver_loading": ("UP", 150),  # 2+2, P30
    "usa_extender_then_pullman": ("B&O", 200),  # a 3-train, P30 attached, a Pullman
    "usa_switcher_drop_revalued": ("SP", 270),  # 2+2+2+, P19 attached
    "usa_switcher_one_counted_stop": ("SR", 50),  # P19 and P30 attached
    "usa_switcher_rural_junction": ("UP", 110),  # P19 attached
    "usa_switcher_sixty_edges": ("NYC", 310),  # 4-train, 59 edges, P19 attached, P17
    "usa_three_trains_switcher_open": ("IC", 490),  # 3+4+4, P19, P17
}


@pytest.mark.parametrize("name", [pytest.param(name, marks=stale_mark(name)) for name in sorted(MOST)])
def test_kept_positions_are_proven_by_the_listing_and_taken_by_the_run_step(name: str) -> None:
    corp, most = MOST[name]
    game = load_game(json.loads((KEPT / f"{name}.json").read_text()))
    state = game.state
    state.importing = False
    assert any(a.changes_distance for a in state.route_attachments(state.corporations[corp]))

    result = best_runs(state, corp, method="listing", time_budget=30.0)

    assert result.method == "listing" and result.proven_optimal and result.engine_disagreements == 0
    assert result.total == most
    trial = state.snapshot()
    for choose in attachment_actions(trial, corp, result.runs):
        trial.process(choose)
    with given_most(trial, result):
        trial.process(result.to_action(corp) | {"entity_type": "corporation"})
    assert [(run.train, run.revenue) for run in trial.last_runs] == [(run.train, run.revenue) for run in result.runs]


@pytest.mark.parametrize("private", ["P19", "P30"])
def test_two_trains_and_an_upgrade_equal_the_model(private: str) -> None:
    """Two trains on random regions and P19 (or P30): the listing and the model prove the same
    most, and one train at most carries the upgrade."""
    checked = gained = 0
    for seed in range(24):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        corp.trains = [train for train in corp.trains if train.distance > 0][:2]
        if len(corp.trains) != 2:
            continue
        bare = best_runs(state, corp, method="listing", time_budget=30.0)
        state.companies[private] = Company(id=private, name=private, value=0, revenue=0, owner=corp)
        listed = best_runs(state, corp, method="listing", time_budget=30.0)
        modelled = best_runs(state, corp, method="model", time_budget=30.0)

        assert listed.proven_optimal and modelled.proven_optimal, seed
        assert listed.total == modelled.total >= bare.total, seed
        assert sum(private in run.attachments for run in listed.runs) <= 1, seed
        checked += 1
        gained += listed.total > bare.total
    assert checked >= 8 and gained >= 3, (checked, gained)

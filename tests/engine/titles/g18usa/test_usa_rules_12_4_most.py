"""Rule 12.4: "Companies must run for the maximum possible earnings" (printed), against the site,
where a president declares any legal runs (`site_any_runs`).

s8603 action 1127: MKT, with a 6-train and a Pullman car, ran its 6-train alone for $300 without
assigning the Pullman (rule 12.7: each round it is assigned to one train, +$20 for each city and
red area that train visits); the route optimizer proves $420 the most it can earn."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest
from usa_positions import logged_action, replayed

from engine import GameError, RunsBelowTheMost, given_most
from engine.attachments import attachment_actions
from engine.core.game import BaseGame
from engine.core.most_earnings import best_runs

LOG = "s8603"
MKT_RUNS = 1127


def _position(printed: bool) -> BaseGame:
    game = replayed(LOG, MKT_RUNS, without=("site_any_runs",) if printed else ())
    game.importing = False  # the next moves are played live
    return game


def _fingerprint(game: BaseGame) -> tuple[object, ...]:
    corp = game.corporations["MKT"]
    return (len(game.log), len(game.raw_actions), corp.cash, [t.id for t in corp.trains], game.round.name,
            game.most_earnings_known)


def test_12_4_runs_below_the_most_are_refused_and_change_nothing() -> None:
    game = _position(printed=True)
    assert game.must_run_for_the_most()
    before = _fingerprint(game)
    with pytest.raises(RunsBelowTheMost) as refused:
        game.process(copy.deepcopy(logged_action(LOG, MKT_RUNS)))
    text = str(refused.value)
    assert text.startswith("MKT's runs earn $300, but its trains can earn $420, no more (6-3: ")
    assert text.endswith("a company must run for its highest earnings (12.4)")
    assert refused.value.best.total == 420 and refused.value.best.proven_optimal
    assert _fingerprint(game) == before


def test_12_4_the_most_with_the_pullman_assigned_is_accepted() -> None:
    game = _position(printed=True)
    best = best_runs(game, "MKT", time_budget=10)
    assert best.proven_optimal and best.total == 420
    for action in [*attachment_actions(game, "MKT", best.runs), best.to_action("MKT")]:
        game.process(action)
    assert game.log[-1] == "MKT runs for $420"


def test_12_4_on_the_site_any_legal_runs_stand() -> None:
    game = _position(printed=False)
    assert not game.must_run_for_the_most()
    game.process(copy.deepcopy(logged_action(LOG, MKT_RUNS)))
    assert game.log[-1] == "MKT runs for $300"


def test_12_4_the_check_takes_an_answer_searched_elsewhere_for_that_company_only() -> None:
    """given_most: the bot searches in a worker process and hands the engine the answer."""
    game = _position(printed=True)
    best = best_runs(game, "MKT", time_budget=10)
    with given_most(game, best), pytest.raises(RunsBelowTheMost) as refused:
        game.process(copy.deepcopy(logged_action(LOG, MKT_RUNS)))
    assert refused.value.best is best
    assert game.most_earnings_known is None  # put back, also after a refusal
    other = replace(best, corporation="N&W")  # an answer for another company is not taken
    with given_most(game, other), pytest.raises(RunsBelowTheMost) as searched:
        game.process(copy.deepcopy(logged_action(LOG, MKT_RUNS)))
    assert searched.value.best is not other and searched.value.best.total == 420
    with pytest.raises(GameError):  # the refusal is a GameError, as every refused move
        game.process(copy.deepcopy(logged_action(LOG, MKT_RUNS)))

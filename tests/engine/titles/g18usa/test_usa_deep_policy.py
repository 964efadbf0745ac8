"""The deep random player (`usa_random_play.deep_pick`) plays for long games: its companies run
and earn, where the weighted player's seldom join two cities with their track and its players
go bankrupt in the first rounds. If the policy silently broke, `bench/random_depth.py` and the
deep games played by hand would go back to shallow games without anyone noticing."""

from __future__ import annotations

import pytest
from replay_check import replay_difference
from usa_random_play import play_random_game

from engine.titles.g18usa.usa_map import _SHARED_BY_COPIES

ACTIONS = 350  # seed 4 merges at action 317


def test_the_deep_players_companies_run_for_revenue_and_nobody_goes_bankrupt() -> None:
    played = play_random_game(4, 4, ACTIONS, probe_rate=0.0, policy="deep")
    state = played.game.state
    runs = [a for a in played.game.raw_actions if a["type"] == "run_routes" and a.get("routes")]
    assert played.failure is None, played.failure
    assert not played.game.finished and not any(player.bankrupt for player in state.players)
    assert len(runs) >= 5, f"only {len(runs)} runs in {ACTIONS} actions"
    assert any(a["type"] == "merge" for a in played.game.raw_actions)
    # What the bot does after a restart or an undo: the log replays to the game played.
    assert replay_difference(played.game, {"umap": _SHARED_BY_COPIES}) is None


def test_an_unknown_policy_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown policy 'deeper'"):
        play_random_game(4, 4, 5, policy="deeper")

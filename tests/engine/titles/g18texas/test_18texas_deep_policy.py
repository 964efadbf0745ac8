"""The deep random player (`texas_deep_policy`) plays for long games: its companies keep trains
and the money for the next, so its games reach the last phase where the property tests' players
mostly end in a bankruptcy by phase 5. If the policy silently broke, `bench/random_depth.py` and
the deep games played by hand would go back to shallow games without anyone noticing."""

from __future__ import annotations

from replay_check import replay_difference
from test_18texas_properties import play_random_game

ACTIONS = 400


def test_the_deep_player_reaches_the_last_phase_without_a_bankruptcy() -> None:
    # With the same number of actions the "sensible" player stops in phase 5 on this seed, the
    # "uniform" one in phase 3.
    played = play_random_game(3, 1, [], "deep", None, cap=ACTIONS)
    state = played.game.state
    assert state.phase.name == state.phases[-1].name == "8"
    assert not any(player.bankrupt for player in state.players)
    assert any(action["type"] == "buy_train" and str(action["train"]).startswith("8-")
               for action in played.game.raw_actions), "the last phase was not reached by a purchase"
    # What the bot does after a restart or an undo: the log replays to the game played.
    assert replay_difference(played.game) is None

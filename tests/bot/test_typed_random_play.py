"""Every random legal move, typed as the command its player would give, is built by the bot into
an action that leads to the same position (tests/bot/typed_random_play.py). Found this way: the
G&RRRC's and NOPR's stations were offered by city id only, so '/token city:I14 private:GRRRC'
was refused (18Texas seed 9003, action 121, below)."""

from __future__ import annotations

import pytest
from typed_random_play import play_typed

GAMES = [("18Texas", 3, 9003, (), 160, "sensible"), ("18Texas", 4, 9004, ("site_rules",), 160, "uniform"),
         ("18USA", 4, 8000, (), 220, "sensible")]


@pytest.mark.parametrize(("title", "count", "seed", "options", "actions", "policy"), GAMES,
                         ids=[f"{g[0]}-{g[1]}p-seed{g[2]}" for g in GAMES])
def test_typed_moves_build_the_moves_they_name(title: str, count: int, seed: int, options: tuple[str, ...],
                                               actions: int, policy: str) -> None:
    made, problems = play_typed(title, count, seed, options, actions, policy)
    assert made >= actions - 1 or made > 100
    assert problems == []

"""18Texas rule 7's random setup for the reference engine's 200 seeds, through the public engine.

Kept beside the 18USA setup tests because both titles' seeded setups come from the same
reference run (tests/data/setups).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_logs import seeded_setups

from engine import new_game

SEEDED = seeded_setups("18Texas")


def test_the_seeds_cover_three_to_five_players() -> None:
    assert sorted({row["players"] for row in SEEDED}) == [3, 4, 5]
    assert len(SEEDED) == 200


@pytest.mark.parametrize("row", SEEDED, ids=[f"seed{row['seed']}-{row['players']}p" for row in SEEDED])
def test_7_setup_equals_the_reference_engine(row: dict[str, Any]) -> None:
    reference = row["setup"]
    state = new_game("18Texas", reference["players"], row["seed"]).state
    assert [{"id": player.id, "name": player.name} for player in state.players] == reference["players"]
    assert state.jay_gould_corporation == reference["jay_gould_corporation"]
    shares = {company: [[share.corporation.id, share.percent, share.president] for share in held]
              for company, held in state.company_shares.items()}
    assert shares == reference["company_shares"]
    assert state.rng.state == reference["rand_state_after_setup"]

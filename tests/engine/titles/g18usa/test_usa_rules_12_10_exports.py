"""Rule 12.10 with the printed roster (rule 12.6: unlimited 2-trains): the bank's 2-trains
leave at the end of the first operating round, and the 2+ trains come next."""

from __future__ import annotations

from engine.log import new_game
from engine.titles.g18usa.phases import end_of_operating_round

PLAYERS = [{"id": n, "name": f"P{n}"} for n in range(1, 5)]


def test_the_unlimited_2_trains_leave_after_the_first_operating_round() -> None:
    state = new_game("18USA", PLAYERS, 7, []).state
    first = state.depot.next_train()
    assert first is not None and first.name == "2"
    state.depot.take(first)  # bought: another 2-train takes its place
    again = state.depot.next_train()
    assert again is not None and again.name == "2" and again.id != first.id
    end_of_operating_round(state)  # type: ignore[arg-type]
    upcoming = state.depot.next_train()
    assert upcoming is not None and upcoming.name == "2+"
    assert not state.depot.unlimited("2")
    assert "The bank's 2-trains are discarded" in state.log


def test_with_the_sites_forty_2_trains_the_rest_are_exported_one_by_one() -> None:
    state = new_game("18USA", PLAYERS, 7, ["site_two_train_count"]).state
    end_of_operating_round(state)  # type: ignore[arg-type]
    upcoming = state.depot.next_train()
    assert upcoming is not None and upcoming.name == "2+"
    assert "The bank's 2-trains are discarded" not in state.log

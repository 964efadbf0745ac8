"""The 18USA logs replay against the reference engine's state after every action.

Work in progress: each log is exact up to the figure below (the index of its first diverging
action). The figures only go up: a change that lowers one has broken a rule the reference
follows. The proof (every log exact to its result) replaces them when all logs match.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from usa_logs import LOGS
from usa_tracecheck import first_divergence

# None: the log matches the reference at every action and gives its final result.
EXACT_PREFIX: dict[str, int | None] = {
    "109372": None, "randplay_18USA_4p_s8400": 644, "randplay_18USA_4p_s8401": None,
    "randplay_18USA_4p_s8403": None, "randplay_18USA_4p_s8405": 577, "randplay_18USA_5p_s8502": None,
    "randplay_18USA_5p_s8503": None, "randplay_18USA_5p_s8504": None, "randplay_18USA_5p_s8505": None,
    "randplay_18USA_6p_s8600": 335, "randplay_18USA_6p_s8602": None, "randplay_18USA_6p_s8603": None,
    "randplay_18USA_6p_s8604": 317,
}


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=[p.stem for p, _ in LOGS])
def test_replay_matches_the_reference_at_least_as_far_as_before(log_path: Path, trace_path: Path) -> None:
    found = first_divergence(log_path, trace_path)
    floor = EXACT_PREFIX[log_path.stem]
    if floor is None:
        assert found is None, found
    else:
        assert found is None or found[0] >= floor, found

"""The 18USA logs replay against the reference engine's state after every action, and every
logged action is among the legal moves when it is played.

Work in progress: each log is exact up to the figure below (the index of its first diverging
action). The figures only go up: a change that lowers one has broken a rule the reference
follows. The proof (every log exact to its result) replaces them when all logs match. The
legal moves are checked over the exact part of each log, in the same replay.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from usa_logs import LOGS
from usa_tracecheck import Walk, walk

# None: the log matches the reference at every action and gives its final result.
EXACT_PREFIX: dict[str, int | None] = {
    "109372": None, "randplay_18USA_4p_s8400": None, "randplay_18USA_4p_s8401": 787,
    "randplay_18USA_4p_s8403": None, "randplay_18USA_4p_s8405": None, "randplay_18USA_5p_s8502": None,
    "randplay_18USA_5p_s8503": None, "randplay_18USA_5p_s8504": 673, "randplay_18USA_5p_s8505": None,
    "randplay_18USA_6p_s8600": None, "randplay_18USA_6p_s8602": None, "randplay_18USA_6p_s8603": None,
    "randplay_18USA_6p_s8604": 586,
}

# Logged actions the live legal moves rightly leave out, which the engine takes only while a
# log is imported (`engine.legal.accepted_only_on_import`), by (log, index, type, entity):
IMPORT_ONLY: dict[tuple[str, int, str, str], str] = {
    # A friendly sale offered in the acquisition round waits for the selling company's
    # president; the site took another player's pass for it, and the log's record stands.
    ("109372", 1284, "pass", "1463"): "another player's pass for the president of a company for sale",
}

IDS = [path.stem for path, _ in LOGS]


@cache
def replayed(log_path: Path, trace_path: Path) -> Walk:
    """One replay per log serves both tests: the states and the offered moves."""
    return walk(log_path, trace_path, offered_until=EXACT_PREFIX[log_path.stem])


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=IDS)
def test_replay_matches_the_reference_at_least_as_far_as_before(log_path: Path, trace_path: Path) -> None:
    found = replayed(log_path, trace_path).divergence
    floor = EXACT_PREFIX[log_path.stem]
    if floor is None:
        assert found is None, found
    else:
        assert found is None or found[0] >= floor, found


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=IDS)
def test_every_logged_action_was_offered_by_the_legal_moves_query(log_path: Path, trace_path: Path) -> None:
    found = replayed(log_path, trace_path)
    assert found.unoffered == []
    named = {(index, kind, entity) for log, index, kind, entity in IMPORT_ONLY if log == log_path.stem}
    assert set(found.import_only) == named

"""Section 14's state machine met in the 18USA logs: the transitions each log's moves take
(tests/engine/titles/g18usa/test_usa_section_14_states.py, bench/usa_section_14.py)."""

from __future__ import annotations

from usa_positions import log_named
from usa_tracecheck import start

from engine.core.family1817.section14 import (
    ACQUISITION_ROUND,
    INTERRUPTIONS,
    MERGER_ROUND,
    PRINTED,
    UNSEEN,
    Stage,
    Transitions,
    stage,
)

TABLES: dict[str, Transitions] = {"MergerRound": MERGER_ROUND, "AcquisitionRound": ACQUISITION_ROUND}

Transition = tuple[str, Stage, str, Stage]


def transitions_in(log_name: str) -> set[Transition]:
    """(round kind, stage, move, next stage) of every move of a merger or acquisition round."""
    log = log_named(log_name)
    game = start(log)
    seen: set[Transition] = set()
    for action in log["actions"]:
        if str(action["type"]).startswith("program_"):  # standing orders, outside the rounds
            game.apply(action)
            continue
        before, rnd = stage(game), game.round
        game.apply(action)
        if before is None:
            continue
        after = stage(game) if game.round is rnd and not game.finished else Stage.NEXT_ROUND
        seen.add((type(rnd).__name__, before, str(action["type"]), after or Stage.NEXT_ROUND))
    return seen


def listed() -> set[Transition]:
    """Every transition the tables list for the site's order that the logs take (interruptions
    resume the round wherever it was, so they are checked, not listed; UNSEEN ones no log takes)."""
    found = set()
    for kind, table in TABLES.items():
        for before, moves in table.items():
            if before in INTERRUPTIONS:
                continue
            for move, targets in moves.items():
                found |= {(kind, before, move, after) for after, why in targets.items() if not why.startswith((PRINTED, UNSEEN))}
    return found

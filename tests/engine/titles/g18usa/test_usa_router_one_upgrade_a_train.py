"""The optimizer's proposal can be played as it is when a company has both a Pullman and P30's
extender: a train takes one upgrade at most (the engine offers no second one for it), so the
proposal never counts both on one train, and its `choose` moves and its run earn what it said.

The position is 109372 before action 1338 (PRR, holding P30 and a Pullman, about to attach the
Pullman and run), with PRR's 5-train swapped for a 4-train the extender may go on: stacking both
on it would claim a 5-stop Pullman run the engine does not allow (an optimizer that stacked them
proposed $520 for a run the engine values at $420).
"""

from __future__ import annotations

from usa_tracecheck import position_in

from engine.attachments import attachment_actions
from engine.core.entities import Train
from engine.core.most_earnings import best_runs
from engine.titles.g18usa.game import G18USA

LOG = "109372"
BEFORE_CHOICE = 1338
EXCLUSIVE = {"P", "P19", "P30"}


def test_the_proposal_with_its_choose_moves_is_accepted_at_its_value() -> None:
    game = position_in(LOG, BEFORE_CHOICE)
    assert isinstance(game, G18USA)
    game.importing = False  # value the run by our rules, as in live play
    corp = game.corporations["PRR"]
    assert {"P30"} <= {company.id for company in game.companies_of(corp)}
    pullmans = [train for train in corp.trains if train.name == "P"]
    assert pullmans
    corp.trains = [Train("4-90", "4", 4, 0, None, owner=corp), *pullmans]

    proposal = best_runs(game, corp, time_budget=10.0)

    assert proposal.proven_optimal and proposal.runs
    for run in proposal.runs:
        assert len(EXCLUSIVE.intersection(run.attachments)) <= 1, run.attachments
    assert any(run.attachments for run in proposal.runs)
    played = game.snapshot()
    for action in attachment_actions(game, corp.id, proposal.runs):
        played.process(action)
    played.process(proposal.to_action(corp.id))
    assert sum(run.revenue for run in played.last_runs) == proposal.total

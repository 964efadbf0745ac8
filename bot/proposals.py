"""The optimizer's proposal for a position: searched in its worker within the Moderator's budget,
kept with the session for that position, so the reply, the run check, the reminder and
autocomplete all see the same runs."""

from __future__ import annotations

import logging

from bot import pictures as pics
from bot.sessions import Session
from engine.core.game import BaseGame
from engine.legal import legal_moves

log = logging.getLogger(__name__)


class Proposals:
    def __init__(self, router_budget: float) -> None:
        self.router_budget = router_budget

    async def propose(self, session: Session, state: BaseGame, seq: int) -> pics.Proposal | None:
        """The proposal at `seq` (the position `state`): the session's if kept, else searched now."""
        cached = session.proposal
        if cached is not None and cached[0] == seq:
            return cached[1]
        move = next((m for m in legal_moves(state) if m["type"] == "run_routes"), None)
        proposal = None
        if move is not None:
            try:
                proposal = await pics.propose_in_worker(state, str(move["entity"]), self.router_budget)
            except Exception:  # a proposal is a convenience; the president can still type runs
                log.exception("route optimizer failed in game %s at seq %s", session.game_id, seq)
        session.proposal = (seq, proposal)
        return proposal

    @staticmethod
    def kept(session: Session, seq: int) -> pics.Proposal | None:
        """The proposal the session keeps for position `seq`, without searching."""
        cached = session.proposal
        return cached[1] if cached is not None and cached[0] == seq else None

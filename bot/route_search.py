"""The optimizer's proposed runs in words, and the longer search players may ask for.

After each move that leaves a company to run trains, the Moderator proposes the best runs the
optimizer finds within its budget (2 s by default, so that the reply comes at once). On a late
18USA map that answer is sometimes the best found rather than the proven best; ``/game routes``
lets a player give the optimizer longer (up to a minute), in a worker process of its own, so
that a long search never holds up another game's proposal. A better or newly proven answer
becomes the position's proposal: ``/run`` with no routes and the "Run for $..." button then run it.

A mixin of the Moderator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot import pictures as pics
from bot.model import Actor, Button, Reply
from engine.attachments import attachment_words
from engine.core.game import BaseGame
from engine.legal import legal_moves

if TYPE_CHECKING:
    from bot.moderator import Moderator

DEFAULT_SECONDS = 20.0
MAX_SECONDS = 60.0  # a Discord reply may be deferred for 15 minutes; players wait far less happily


def proposal_text(proposal: pics.Proposal, attached: dict[str, str] | None = None) -> str:
    """The proposed runs, each with what the proposal attaches to its train (by name)."""
    attached = attached or {}
    runs = "; ".join(f"{r['train']}{' with ' + attached[r['train']] if r['train'] in attached else ''}: "
                     f"{'-'.join(r['hexes'])} ${r['revenue']}" for r in proposal.action["routes"])
    proven = "" if proposal.proven_optimal else \
        " (best found in the time allowed; /game routes searches longer)"
    return (f"Proposed runs for {proposal.corporation}: {runs} — total ${proposal.total}{proven}. "
            "Confirm with /run, or give other runs with /run routes:…")


def better(new: pics.Proposal | None, old: pics.Proposal | None) -> pics.Proposal | None:
    """The proposal to keep: the higher total, and at the same total the proven one."""
    if new is None:
        return old
    if old is None or new.total > old.total or new.total == old.total and new.proven_optimal:
        return new
    return old


class RouteSearchMixin:
    async def search_routes(self: Moderator, game_id: int, actor: Actor, seconds: float = DEFAULT_SECONDS) -> Reply:
        """Search the operating company's best runs for `seconds`; keep the answer if it is
        better or newly proven. Any seated player may ask (the search costs a core for that long)."""
        if not 1 <= seconds <= MAX_SECONDS:
            return Reply.error(f"seconds must be from 1 to {MAX_SECONDS:g} (you gave {seconds:g}).", game_id)
        if not pics.ROUTER:
            return Reply.error("The route optimizer is not available on this bot; type the runs with /run routes:…",
                               game_id)
        async with self.sessions.lock(game_id):
            session, _, refusal = await self._seated(game_id, actor)
            if refusal is not None:
                return refusal.reply
            assert session is not None and session.game is not None
            state = session.game.state.snapshot()
            seq = session.seq
            cached = session.proposal[1] if session.proposal is not None and session.proposal[0] == seq else None
        move = next((m for m in legal_moves(state) if m["type"] == "run_routes"), None)
        if move is None:
            return Reply.error("No company is to run trains now: /game routes searches the best runs of the "
                               "company whose trains run next, when its president is to run them.", game_id)
        if cached is not None and cached.proven_optimal:
            return self._routes_reply(game_id, seq, state, cached, "Already proven the best runs:")
        if pics.LONGER.searching:
            return Reply.error("The optimizer is already searching longer for another request; ask again when "
                               "its answer is in (a minute at most).", game_id)
        found = await pics.LONGER.propose(state, str(move["entity"]), seconds)
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            if session.seq != seq:
                return Reply.error(f"The game moved on (to move {session.seq}) while the optimizer searched; "
                                   "ask again if the runs are still to be chosen.", game_id)
            current = session.proposal[1] if session.proposal is not None and session.proposal[0] == seq else None
            kept = better(found, current)
            session.proposal = (seq, kept)
        if kept is None:
            return Reply.error(f"The optimizer found no runs in {seconds:g} s; type the runs with /run routes:….",
                               game_id)
        if found is None:
            head = "The longer search did not finish; the proposal stands."
        elif kept is not found:
            head = f"Searched {seconds:g} s: nothing better than the proposal."
        elif found.proven_optimal:
            head = f"Searched {seconds:g} s: these are the best runs (proven)."
        else:
            head = f"Searched {seconds:g} s: the best runs found (not proven the best)."
        return self._routes_reply(game_id, seq, state, kept, head)

    def _routes_reply(self: Moderator, game_id: int, seq: int, state: BaseGame, proposal: pics.Proposal,
                      head: str) -> Reply:
        words = attachment_words(state, proposal.corporation, proposal.runs)
        return Reply(f"{head}\n{proposal_text(proposal, words)}", game_id=game_id, seq=seq,
                     buttons=[Button(f"Run for ${proposal.total}", "run", "success")])

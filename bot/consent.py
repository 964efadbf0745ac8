"""Rule 12.6 consent: a train bought from a company with another president needs that
president's agreement.

The engine says whose consent a purchase needs (``train_sale_consent``) and trusts that it
was given; this part of the Moderator asks for it. The purchase is checked by the engine on
a copy, then kept as a pending offer in storage (so it survives a restart) instead of being
appended. The selling president answers with /game accept or /game decline (or the buttons,
which carry the offer's seq). An offer counts only while the log is still at the seq it was
made at: any move lapses it, so nobody can accept a purchase made in another position.
"""

from __future__ import annotations

from typing import Any

from bot.games import Games
from bot.model import Actor, Button, Reply
from bot.offers import answer_words, live_offer, offer_words, seat_of_player
from bot.outcome import Commit, Outcome
from bot.sessions import Session
from engine import GameError
from engine.describe import train_name
from storage import TrainOffer


class Consent:
    """Makes the offers (``ask``, from the Moderator's commit) and takes their answers, which
    are committed through the commit it is handed."""

    def __init__(self, games: Games, commit: Commit) -> None:
        self.games = games
        self.commit = commit

    async def ask(self, session: Session, actor: Actor, action: dict[str, Any]) -> Outcome | None:
        """For a purchase that needs another president's consent: check it, record the offer,
        and return the public question; None when no consent is needed."""
        game = session.game
        if action.get("type") != "buy_train" or action.get("entity_type") != "corporation" or game is None:
            return None
        state = game.state
        buyer = state.corporations.get(str(action.get("entity")))
        if buyer is None:
            return None
        seller = state.train_sale_consent(buyer, str(action.get("train")))
        if seller is None:
            return None
        try:  # on a copy: an offer is only made for a purchase the engine would accept
            state.snapshot().process({**action, "id": session.max_action_id + 1})
        except GameError as error:
            turn, _ = self.games.turn_text(session, state, ping=False)
            return Outcome(Reply.error(f"That move is not allowed: {error}.\nNow: {turn}", session.game_id))
        offer = await self.games.repo.put_train_offer(
            TrainOffer(session.game_id, session.seq, dict(action), actor.user_id, seller.id))
        session.offer = offer
        seat = seat_of_player(session, seller.id)
        who = self.games.mention(seat) if seat is not None else seller.name
        text = f"{who} — {offer_words(state, action)}: accept or decline ({answer_words(seat, self.games.front_door)})"
        mentions = (seat.discord_user_id,) if seat is not None and seat.discord_user_id is not None else ()
        reply = Reply(text, game_id=session.game_id, seq=session.seq, mentions=mentions,
                      buttons=[Button("Accept", "accept", "success"), Button("Decline", "decline", "danger")])
        await self.games.changed(session.game_id)
        return Outcome(reply)

    async def _answerable(self, game_id: int, actor: Actor, expected_seq: int | None
                          ) -> tuple[Session | None, TrainOffer | None, Outcome | None]:
        """The session and the live offer the actor may answer, or the refusal."""
        session, seat, refusal = await self.games.seated(game_id, actor)
        if refusal is not None:
            return None, None, refusal
        assert session is not None and session.game is not None and seat is not None
        offer = live_offer(session)
        if expected_seq is not None and expected_seq != session.seq or offer is None:
            turn, _ = self.games.turn_text(session, session.game.state, ping=False)
            what = ("That offer is from an earlier position; the game has moved on" if expected_seq is not None
                    else "No train offer is waiting for an answer")
            return None, None, Outcome(Reply.error(f"{what}.\nNow: {turn}", game_id))
        if str(seat.player_id) != str(offer.seller_player_id):
            owner = seat_of_player(session, offer.seller_player_id)
            name = owner.display_name if owner is not None else "the selling president"
            return None, None, Outcome(Reply.error(f"Only {name}, whose train it is, answers this offer.", game_id))
        return session, offer, None

    async def accept(self, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        """The seller agrees: the purchase is committed as the buyer's move."""
        async with self.games.sessions.lock(game_id):
            session, offer, refusal = await self._answerable(game_id, actor, expected_seq)
            if refusal is not None:
                return refusal
            assert session is not None and offer is not None
            buyer = Actor(offer.buyer_user_id, str(offer.action.get("entity")))
            outcome = await self.commit(session, buyer, offer.action, note=f"{actor.name} accepts.",
                                         consented=True)
            # Committed, it has lapsed; refused, it could never be made in this position.
            await self._drop_offer(session)
            return outcome

    async def decline(self, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        """The seller refuses: nothing changes; the buyer may buy elsewhere or pass."""
        async with self.games.sessions.lock(game_id):
            session, offer, refusal = await self._answerable(game_id, actor, expected_seq)
            if refusal is not None:
                return refusal
            assert session is not None and offer is not None and session.game is not None
            await self._drop_offer(session)
            state = session.game.state
            corp = state.corporations.get(str(offer.action.get("entity")))
            president = corp.president() if corp is not None else None
            seat = seat_of_player(session, president.id) if president is not None else None
            who = self.games.mention(seat) if seat is not None else str(offer.action.get("entity"))
            turn, _ = self.games.turn_text(session, state, ping=False)
            text = (f"{who} — {actor.name} declines to sell the {train_name(offer.action)}-train; "
                    f"{offer.action.get('entity')} may buy another train or pass.\nNow: {turn}")
            mentions = (seat.discord_user_id,) if seat is not None and seat.discord_user_id is not None else ()
            return Outcome(Reply(text, game_id=game_id, seq=session.seq, mentions=mentions))

    async def _drop_offer(self, session: Session) -> None:
        await self.games.repo.clear_train_offer(session.game_id)
        session.offer = None
        await self.games.changed(session.game_id)

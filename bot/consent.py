"""Rule 12.6 consent: a train bought from a company with another president needs that
president's agreement.

The engine says whose consent a purchase needs (``train_sale_consent``) and trusts that it
was given; this mixin of the Moderator asks for it. The purchase is checked by the engine on
a copy, then kept as a pending offer in storage (so it survives a restart) instead of being
appended. The selling president answers with /game accept or /game decline (or the buttons,
which carry the offer's seq). An offer counts only while the log is still at the seq it was
made at: any move lapses it, so nobody can accept a purchase made in another position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.model import Actor, Button, Reply
from engine import GameError
from engine.core.entities import Corporation
from engine.core.game import BaseGame
from engine.describe import train_name
from storage import SeatRecord, TrainOffer

if TYPE_CHECKING:
    from bot.moderator import Moderator, Outcome
    from bot.sessions import Session

ANSWER = "/game accept or /game decline"


def live_offer(session: Session) -> TrainOffer | None:
    """The pending offer if it was made in the current position (else it has lapsed)."""
    offer = session.offer
    return offer if offer is not None and offer.seq == session.seq else None


def answering_seat(session: Session) -> SeatRecord | None:
    """The seller's seat while a live offer waits for them: the game is waiting on that answer."""
    offer = live_offer(session)
    return _seat(session, offer.seller_player_id) if offer is not None else None


def _seat(session: Session, player_id: Any) -> SeatRecord | None:
    return next((s for s in session.seats if str(s.player_id) == str(player_id)), None)


def offer_words(state: BaseGame, action: dict[str, Any]) -> str:
    """"T&P asks to buy your 3-train (3-1) from MP for $200"."""
    train = next((t for t in state.all_trains() if t.id == action.get("train")), None)
    what = f"{train.name}-train ({action.get('train')})" if train is not None else f"train {action.get('train')}"
    seller = f" from {train.owner.id}" if train is not None and isinstance(train.owner, Corporation) else ""
    return f"{action.get('entity')} asks to buy your {what}{seller} for ${action.get('price')}"


def waiting_line(session: Session, state: BaseGame, mention: Any) -> tuple[str, SeatRecord | None] | None:
    """The whose-turn line while an offer waits for its answer, and the seller's seat."""
    offer = live_offer(session)
    if offer is None:
        return None
    seat = _seat(session, offer.seller_player_id)
    who = mention(seat) if seat is not None else f"player {offer.seller_player_id}"
    return f"Waiting for {who} — {offer_words(state, offer.action)}: accept or decline ({ANSWER})", seat


class ConsentMixin:
    async def _ask_consent(self: Moderator, session: Session, actor: Actor,
                           action: dict[str, Any]) -> Outcome | None:
        """For a purchase that needs another president's consent: check it, record the offer,
        and return the public question; None when no consent is needed."""
        from bot.moderator import Outcome

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
            turn, _ = self.turn_text(session, state, ping=False)
            return Outcome(Reply.error(f"That move is not allowed: {error}.\nNow: {turn}", session.game_id))
        offer = await self.repo.put_train_offer(
            TrainOffer(session.game_id, session.seq, dict(action), actor.user_id, seller.id))
        session.offer = offer
        seat = _seat(session, seller.id)
        who = self.mention(seat) if seat is not None else seller.name
        text = f"{who} — {offer_words(state, action)}: accept or decline ({ANSWER})"
        mentions = (seat.discord_user_id,) if seat is not None and seat.discord_user_id is not None else ()
        reply = Reply(text, game_id=session.game_id, seq=session.seq, mentions=mentions,
                      buttons=[Button("Accept", "accept", "success"), Button("Decline", "decline", "danger")])
        await self.changed(session.game_id)
        return Outcome(reply)

    async def _answerable(self: Moderator, game_id: int, actor: Actor, expected_seq: int | None
                          ) -> tuple[Session | None, TrainOffer | None, Outcome | None]:
        """The session and the live offer the actor may answer, or the refusal."""
        from bot.moderator import Outcome

        session, seat, refusal = await self._seated(game_id, actor)
        if refusal is not None:
            return None, None, refusal
        assert session is not None and session.game is not None and seat is not None
        offer = live_offer(session)
        if expected_seq is not None and expected_seq != session.seq or offer is None:
            turn, _ = self.turn_text(session, session.game.state, ping=False)
            what = ("That offer is from an earlier position; the game has moved on" if expected_seq is not None
                    else "No train offer is waiting for an answer")
            return None, None, Outcome(Reply.error(f"{what}.\nNow: {turn}", game_id))
        if str(seat.player_id) != str(offer.seller_player_id):
            owner = _seat(session, offer.seller_player_id)
            name = owner.display_name if owner is not None else "the selling president"
            return None, None, Outcome(Reply.error(f"Only {name}, whose train it is, answers this offer.", game_id))
        return session, offer, None

    async def accept(self: Moderator, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        """The seller agrees: the purchase is committed as the buyer's move."""
        async with self.sessions.lock(game_id):
            session, offer, refusal = await self._answerable(game_id, actor, expected_seq)
            if refusal is not None:
                return refusal
            assert session is not None and offer is not None
            buyer = Actor(offer.buyer_user_id, str(offer.action.get("entity")))
            outcome = await self._commit(session, buyer, offer.action, note=f"{actor.name} accepts.",
                                         consented=True)
            # Committed, it has lapsed; refused, it could never be made in this position.
            await self._drop_offer(session)
            return outcome

    async def decline(self: Moderator, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        """The seller refuses: nothing changes; the buyer may buy elsewhere or pass."""
        from bot.moderator import Outcome

        async with self.sessions.lock(game_id):
            session, offer, refusal = await self._answerable(game_id, actor, expected_seq)
            if refusal is not None:
                return refusal
            assert session is not None and offer is not None and session.game is not None
            await self._drop_offer(session)
            state = session.game.state
            corp = state.corporations.get(str(offer.action.get("entity")))
            president = corp.president() if corp is not None else None
            seat = _seat(session, president.id) if president is not None else None
            who = self.mention(seat) if seat is not None else str(offer.action.get("entity"))
            turn, _ = self.turn_text(session, state, ping=False)
            text = (f"{who} — {actor.name} declines to sell the {train_name(offer.action)}-train; "
                    f"{offer.action.get('entity')} may buy another train or pass.\nNow: {turn}")
            mentions = (seat.discord_user_id,) if seat is not None and seat.discord_user_id is not None else ()
            return Outcome(Reply(text, game_id=game_id, seq=session.seq, mentions=mentions))

    async def _drop_offer(self: Moderator, session: Session) -> None:
        await self.repo.clear_train_offer(session.game_id)
        session.offer = None
        await self.changed(session.game_id)

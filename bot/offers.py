"""Rule 12.6 train offers in words: whether the pending offer still stands, whose answer the
game waits for, and the line that says so (bot/consent.py makes and answers the offers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.front_door import FrontDoor
from engine.core.entities import Corporation
from storage import SeatRecord, TrainOffer

if TYPE_CHECKING:
    from bot.sessions import Session
    from engine.core.game import BaseGame

def live_offer(session: Session) -> TrainOffer | None:
    """The pending offer if it was made in the current position (else it has lapsed)."""
    offer = session.offer
    return offer if offer is not None and offer.seq == session.seq else None


def answering_seat(session: Session) -> SeatRecord | None:
    """The seller's seat while a live offer waits for them: the game is waiting on that answer."""
    offer = live_offer(session)
    return seat_of_player(session, offer.seller_player_id) if offer is not None else None


def seat_of_player(session: Session, player_id: Any) -> SeatRecord | None:
    return next((s for s in session.seats if str(s.player_id) == str(player_id)), None)


def offer_words(state: BaseGame, action: dict[str, Any]) -> str:
    """"T&P asks to buy your 3-train (3-1) from MP for $200"."""
    train = next((t for t in state.all_trains() if t.id == action.get("train")), None)
    what = f"{train.name}-train ({action.get('train')})" if train is not None else f"train {action.get('train')}"
    seller = f" from {train.owner.id}" if train is not None and isinstance(train.owner, Corporation) else ""
    return f"{action.get('entity')} asks to buy your {what}{seller} for ${action.get('price')}"


def answer_words(seat: SeatRecord | None, door: FrontDoor) -> str:
    """"/game accept or /game decline", as the seller types them at this front door."""
    return f"{door.seat_command(seat, '/game accept')} or {door.seat_command(seat, '/game decline')}"


def waiting_line(session: Session, state: BaseGame, mention: Callable[[SeatRecord], str],
                 door: FrontDoor) -> tuple[str, SeatRecord | None] | None:
    """The whose-turn line while an offer waits for its answer, and the seller's seat."""
    offer = live_offer(session)
    if offer is None:
        return None
    seat = seat_of_player(session, offer.seller_player_id)
    who = mention(seat) if seat is not None else f"player {offer.seller_player_id}"
    answer = answer_words(seat, door)
    return f"Waiting for {who} — {offer_words(state, offer.action)}: accept or decline ({answer})", seat

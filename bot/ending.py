"""`/game end`: end a running game now and score it, as 18xx.games' ``end_game`` does.

The game's creator (or a server manager) ends it at once; otherwise every seated player must
agree. Agreements count only in the position they were given in: any move first cancels
them, as it lapses a train offer. They are kept in the store, so every bot process serving
the game counts the same agreements, and a restart keeps them.

A mixin of the Moderator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.model import Actor, Reply

if TYPE_CHECKING:
    from bot.moderator import Moderator, Outcome


class EndingMixin:
    async def end_game(self: Moderator, game_id: int, actor: Actor) -> Outcome:
        from bot.moderator import Outcome

        async with self.sessions.lock(game_id):
            session, problem = await self._playable(game_id)
            if problem or session is None or session.game is None:
                return Outcome(Reply.error(problem or "No such game.", game_id))
            seat = session.seat_of(actor)
            if not session.is_admin(actor):
                if seat is None:
                    return Outcome(Reply.error("Only the game's creator, a server manager, or all of its players "
                                               "together can end a game.", game_id))
                votes = await self.repo.agree_to_end(game_id, seat.player_id, session.seq)
                agreed = {str(v.player_id) for v in votes}
                missing = [s for s in session.seats if str(s.player_id) not in agreed]
                if missing:
                    names = ", ".join(self.mention(s) for s in missing)
                    return Outcome(Reply(
                        f"{seat.display_name} agrees to end game #{game_id} now and score it as it stands. "
                        f"It ends when every player agrees: still {names} (/game end). Any move first cancels this.",
                        game_id=game_id, seq=session.seq,
                        mentions=tuple(s.discord_user_id for s in missing if s.discord_user_id is not None)))
            by = seat or session.seats[0]
            action: dict[str, Any] = {"type": "end_game", "entity": by.player_id, "entity_type": "player"}
            outcome = await self._commit(session, actor, action)
            if outcome.committed:
                await self.repo.clear_end_votes(game_id)
            return outcome

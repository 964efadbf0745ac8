"""`/game end`: end a running game now and score it, as 18xx.games' ``end_game`` does.

The game's creator (or a server manager) ends it at once; otherwise every seated player must
agree. Agreements count only in the position they were given in: any move first cancels
them, as it lapses a train offer. They are kept in the store, so every bot process serving
the game counts the same agreements, and a restart keeps them.

A part of the Moderator, handed the games and the commit.
"""

from __future__ import annotations

from typing import Any

from bot.games import Games
from bot.model import Actor, Reply
from bot.outcome import Commit, Outcome


class Ending:
    def __init__(self, games: Games, commit: Commit) -> None:
        self.games = games
        self.commit = commit

    async def end_game(self, game_id: int, actor: Actor) -> Outcome:
        async with self.games.sessions.lock(game_id):
            session, problem = await self.games.playable(game_id)
            if problem or session is None or session.game is None:
                return Outcome(Reply.error(problem or "No such game.", game_id))
            seat = session.seat_of(actor)
            if not session.is_admin(actor):
                if seat is None:
                    return Outcome(Reply.error("Only the game's creator, a server manager, or all of its players "
                                               "together can end a game.", game_id))
                votes = await self.games.repo.agree_to_end(game_id, seat.player_id, session.seq)
                agreed = {str(v.player_id) for v in votes}
                missing = [s for s in session.seats if str(s.player_id) not in agreed]
                if missing:
                    names = ", ".join(self.games.mention(s) for s in missing)
                    return Outcome(Reply(
                        f"{seat.display_name} agrees to end game #{game_id} now and score it as it stands. "
                        f"It ends when every player agrees: still {names} (/game end). Any move first cancels this.",
                        game_id=game_id, seq=session.seq,
                        mentions=tuple(s.discord_user_id for s in missing if s.discord_user_id is not None)))
            by = seat or session.seats[0]
            action: dict[str, Any] = {"type": "end_game", "entity": by.player_id, "entity_type": "player"}
            outcome = await self.commit(session, actor, action)
            if outcome.committed:
                await self.games.repo.clear_end_votes(game_id)
            return outcome

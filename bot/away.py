"""Away (`/auto away until:`, `/auto back`): Stationmaster's own standing order, beyond the site's.

While a player is away, the bot passes for them wherever the game waits for them and passing is
the only sensible choice (the engine's `pass_for_absent`: a stock-round turn, leaving an auction,
a merger-round pass, declining to offer a company or to bid for one), and stops at any decision
that costs money and at their own companies' turns, where the player is pinged as usual. The
table is told when a player goes away, and of each pass ("Bob passes (away until 24 Dec 18:00
UTC)"); a player pinged later is told how many passes the bot made for them meanwhile.

Unlike the site's programs (engine/core/programs.py) this order is not part of the game's log:
the bot keeps it in the store (`GameRepository.set_away`), and each pass it makes is an ordinary
move in the log, so exports stay valid for 18xx.games. An undo therefore does not take such a pass
back with the move before it: undoing past one needs the game's creator.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from bot.errors import CommandError
from bot.games import Games
from bot.model import Actor, Reply
from bot.outcome import Commit, Outcome
from bot.sessions import Session
from engine.automatic import pass_for_absent
from storage import SeatRecord

STATIONMASTER = Actor(None, "Stationmaster")  # the maker of the passes for players away
MOST_DAYS = 90
MAX_LINES = 16
_DURATION = re.compile(r"(\d{1,4})\s*([dh])")


def away_until(text: str, now: int, zone: str) -> int:
    """The time `text` names, as a player gives it: a date (the end of that day), a date and a
    time, or a duration ("3d", "36h"); times in the game's time zone. CommandError when it is not
    one, is past, or is more than MOST_DAYS away."""
    value = text.strip().lower()
    tz = ZoneInfo(zone)
    duration = _DURATION.fullmatch(value)
    if duration:
        count, unit = int(duration[1]), duration[2]
        until = now + count * (86400 if unit == "d" else 3600)
    else:
        try:
            if len(value) <= 10:
                day = datetime.strptime(value, "%Y-%m-%d").replace(tzinfo=tz)
                until = int((day + timedelta(days=1)).timestamp()) - 1
            else:
                until = int(datetime.strptime(value, "%Y-%m-%d %H:%M").replace(tzinfo=tz).timestamp())
        except ValueError:
            raise CommandError(f"until: is a date (2026-12-24), a date and time (2026-12-24 18:00, {zone}) or a "
                               f"number of days or hours (3d, 36h), not {text.strip()[:40]!r}") from None
    if until <= now:
        raise CommandError(f"{when(until, zone)} has passed already")
    if until > now + MOST_DAYS * 86400:
        raise CommandError(f"away for at most {MOST_DAYS} days")
    return until


def when(moment: int, zone: str) -> str:
    """"24 Dec 18:00 UTC", in the game's time zone."""
    local = datetime.fromtimestamp(moment, UTC).astimezone(ZoneInfo(zone))
    return f"{local.day} {local:%b %H:%M} {zone}"


def zone_of(session: Session) -> str:
    return session.loaded.settings.quiet_time_zone or "UTC"


def away_now(session: Session, now: int) -> dict[str, int]:
    """The players away now: player id (as text) -> until when."""
    return {str(a.player_id): a.until_at for a in session.away if a.until_at > now}


def away_line(session: Session, now: int) -> str | None:
    """"Away: Bob (until 24 Dec 18:00 UTC)", for /game status."""
    away = away_now(session, now)
    names = [f"{s.display_name} (until {when(away[str(s.player_id)], zone_of(session))})"
             for s in session.seats if str(s.player_id) in away]
    return f"Away: {', '.join(names)}" if names else None


class Absences:
    def __init__(self, games: Games, commit: Commit) -> None:
        self.games = games
        self.commit = commit

    def _zone(self, session: Session) -> str:
        return zone_of(session)

    def away(self, session: Session) -> dict[str, int]:
        return away_now(session, self.games.now())

    async def go(self, game_id: int, actor: Actor, text: str) -> Outcome:
        """`/auto away until:`: the table is told, and a pass due now is made at once."""
        async with self.games.sessions.lock(game_id):
            session, seat, refusal = await self.games.seated(game_id, actor)
            if refusal is not None:
                return refusal
            assert session is not None and seat is not None
            zone = self._zone(session)
            try:
                until = away_until(text, self.games.now(), zone)
            except CommandError as error:
                return Outcome(Reply.error(f"{error}.", game_id))
            await self.games.repo.set_away(game_id, seat.player_id, until)
            session = await self.games.sessions.get(game_id)
            note = (f"{seat.display_name} is away until {when(until, zone)}: the bot passes for them in stock "
                    f"rounds, merger rounds and auctions, and leaves them the decisions that cost money and "
                    f"their companies' turns.")
            told = Outcome(Reply(note, game_id=game_id, seq=session.seq), lines=(note,))
            return await self.after(session, told)

    async def back(self, game_id: int, actor: Actor) -> Reply:
        """`/auto back`: the bot stops passing for the player."""
        async with self.games.sessions.lock(game_id):
            session, seat, refusal = await self.games.seated(game_id, actor)
            if refusal is not None:
                return refusal.reply
            assert session is not None and seat is not None
            if str(seat.player_id) not in self.away(session):
                return Reply.error("You are not away.", game_id)
            passes = await self.games.repo.take_away_passes(game_id, seat.player_id)
            await self.games.repo.set_away(game_id, seat.player_id, None)
            made = f" The bot passed for them {_times(len(passes))} meanwhile." if passes else ""
            return Reply(f"{seat.display_name} is back.{made}", game_id=game_id)

    async def after(self, session: Session, outcome: Outcome) -> Outcome:
        """After a move (or going away): if the game waits for a player who is away and a pass is
        the only sensible choice, make it (and, by the commit it goes through, the next)."""
        if session.game is None or (outcome.committed and session.actions[-1].action.get("type") == "undo"):
            return outcome
        away = self.away(session)
        move = pass_for_absent(session.game.state, set(away)) if away else None
        if move is None:
            return outcome
        seat = _seat_deciding(session, move)
        if seat is None:
            return outcome
        zone = self._zone(session)
        until = when(away[str(seat.player_id)], zone)
        note = f"{seat.display_name} passes (away until {until})"
        made = await self.commit(session, STATIONMASTER, move, note=note)
        if not made.committed:
            return outcome
        await self.games.repo.note_away_pass(session.game_id, seat.player_id, made.reply.seq or 0)
        lines = (*outcome.lines, *made.lines)
        if len(lines) > MAX_LINES:
            lines = (f"… {len(lines) - MAX_LINES} earlier lines (/game log)", *lines[-MAX_LINES:])
        reply = replace(made.reply, text="\n".join(lines),
                        whispers=outcome.reply.whispers + made.reply.whispers)
        return replace(made, reply=reply, lines=lines, quiet=False)

    async def told(self, session: Session, pinged: list[SeatRecord]) -> list[str]:
        """For each pinged player the bot passed for while they were away: how often."""
        lines = []
        for seat in pinged:
            if not any(str(a.player_id) == str(seat.player_id) for a in session.away):
                continue
            passes = await self.games.repo.take_away_passes(session.game_id, seat.player_id)
            if passes:
                moves = ", ".join(str(seq) for seq in passes[:10]) + (" …" if len(passes) > 10 else "")
                lines.append(f"{seat.display_name}: while you were away the bot passed for you {_times(len(passes))} "
                             f"(moves {moves}; /game log shows them).")
        return lines


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


def _seat_deciding(session: Session, move: dict[str, object]) -> SeatRecord | None:
    """The seat of the player a pass is made for (a company's president for its pass)."""
    assert session.game is not None
    from engine.legal import move_decider

    player = move_decider(session.game.state, move)
    return next((s for s in session.seats if player is not None and str(s.player_id) == str(player.id)), None)

"""What anyone may look at: status, map/market/table pictures, the log, the export.

A part of the Moderator, handed the games and the route search (whose proposal the status
shows). Pictures are drawn from a copy of the position, off the event
loop, so nobody's move waits for someone else's picture.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

from bot import drawing
from bot import pictures as pics
from bot.away import away_line
from bot.games import Games
from bot.lifecycle import lobby_buttons
from bot.model import Picture, Reply
from bot.privates_text import (
    company_choices,
    company_text,
    find_company,
    privates_text,
    unknown_company,
)
from bot.replies import describe_action, summary
from bot.route_search import RouteSearch
from bot.sessions import Session
from engine.automatic import AutomaticMove
from engine.describe import log_by_action
from engine.errors import GameError
from engine.log import Game, rules_words
from engine.program_words import automatic_lines
from render.closeup import DEFAULT_RADIUS
from storage.transfer import export_document as stored_export

MAX_LOG_LINES = 60  # /game log lines: more would not fit a Discord message


def playing(session: Session, game_id: int) -> Game | Reply:
    """The game in play, or the refusal for a look at one that has no position: its log cannot
    be replayed, or it has not started."""
    if session.broken is not None:
        return Reply.error(session.broken, game_id)
    if session.game is None:
        return Reply.error("The game has not started yet.", game_id)
    return session.game


class Info:
    def __init__(self, games: Games, route_search: RouteSearch) -> None:
        self.games = games
        self.route_search = route_search

    async def status(self, game_id: int) -> Reply:
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            record = session.loaded.game
            names = ", ".join(f"{s.seat}. {s.display_name}" for s in session.seats) or "nobody yet"
            try:
                rules = f"\nRules: {rules_words(record.title, record.options)}."
            except GameError:  # a title the engine lacks (a store edited by hand): the broken line says so
                rules = ""
            head = f"{record.title} game #{game_id} ({record.status}). Players: {names}.{rules}"
            if session.broken is not None:
                return Reply(f"{head}\n{session.broken}", game_id=game_id, seq=session.seq)
            if session.game is None:
                if record.status != "setup":  # abandoned before it started: nothing to join
                    return Reply(f"{head}\nIt never started.", game_id=game_id, seq=0)
                return Reply(f"{head}\nWaiting for players; the creator starts it with /game start.",
                             game_id=game_id, seq=0, buttons=lobby_buttons())
            state = session.game.state
            turn, _ = self.games.turn_text(session, state, ping=False, notes=False)  # the summary has them
            if record.status == "abandoned":  # nobody is to move any more: no turn to name
                turn = (f"The game was abandoned after move {session.seq}: nobody moves any more. /game export "
                        "gives its log.")
            elif record.status == "paused":
                turn = f"Paused: no moves and no reminders until /game resume. Then: {turn}"
            runs = await self.route_search.proposal_words(session) if record.status == "active" else None
            away = away_line(session, self.games.now())
            return Reply(f"{head}\n{summary(state, session.seats)}" + (f"\n{away}" if away else "")
                         + f"\n{turn}" + (f"\n{runs}" if runs else ""), game_id=game_id, seq=session.seq)

    async def pictures(self, game_id: int, which: tuple[str, ...], around: str | None = None,
                       radius: int = DEFAULT_RADIUS) -> Reply:
        """The current map, market and/or table; with `around` (a hex or a company), the map is a
        close-up of the hexes within `radius` of that hex or of the company's stations."""
        if not pics.RENDER:
            return Reply.error("Pictures are not available on this bot (render is not installed).", game_id)
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if isinstance(game := playing(session, game_id), Reply):
                return game
            state = game.state.snapshot()
            seq = session.seq
        found = await asyncio.to_thread(pics.views_of, state)
        assert found is not None
        views: pics.Views = found
        names = list(which)
        if around is not None and "map" in which:
            try:
                views, named = await asyncio.to_thread(pics.close_up_views, state, views, around, radius)
            except ValueError as error:
                return Reply.error(str(error), game_id)
            names[names.index("map")] = f"map around {named}"
            which = tuple("close_up" if name == "map" else name for name in which)  # map-close-up.png
        drawn = await drawing.draw(views, which)
        return Reply(f"Game #{game_id}: {', '.join(names)} after move {seq}.", game_id=game_id, seq=seq,
                     pictures=drawn)

    async def privates(self, game_id: int, company: str | None = None) -> Reply:
        """The game's private companies, or what one of them does."""
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if isinstance(game := playing(session, game_id), Reply):
                return game
            state = game.state
            # A look-up for the one who asked: it would crowd the game's thread.
            if company is None or not company.strip():
                return Reply(privates_text(state), private=True, game_id=game_id)
            found = find_company(state, company)
            if found is None:
                return Reply.error(unknown_company(state, company), game_id)
            return Reply(company_text(state, found), private=True, game_id=game_id)

    async def company_choices(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        """Suggestions for /game privates company: (read-only, without the game's lock)."""
        session = await self.games.sessions.get(game_id)
        if session.broken is not None or session.game is None:
            return []
        return company_choices(session.game.state, typed)

    async def close_up_choices(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        """Suggestions for the centre of a map close-up (see pictures.close_up_choices); read-only,
        so without the game's lock, which a move holds longer than autocomplete may wait."""
        session = await self.games.sessions.get(game_id)
        if session.broken is not None or session.game is None:
            return []
        return pics.close_up_choices(session.game.state, typed)

    async def log_lines(self, game_id: int, lines: int = 15) -> Reply:
        """The latest log lines, passes included as the live replies name them."""
        if lines < 1:  # not taken as 1: the player asked for something that is not a number of lines
            return Reply.error(f"lines: is how many of the latest log lines to show, from 1 to {MAX_LOG_LINES}, "
                               f"not {lines}.", game_id)
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if isinstance(game := playing(session, game_id), Reply):
                return game
            loaded = session.loaded
            stored = [a.action for a in session.actions]
            state = game.state
        names = {str(s.player_id): s.display_name for s in loaded.seats}
        causes: dict[int, str] = {}
        setup, by_action = await asyncio.to_thread(
            log_by_action, loaded.game.title, loaded.players(), loaded.game.seed, list(loaded.game.options), stored,
            causes)
        log = list(setup)
        for action, added in by_action:
            if id(action) in causes:  # a move the game made by itself, as the reply named it
                log += automatic_lines(AutomaticMove(action, causes[id(action)], tuple(added)), names)
                continue
            if not added or action.get("type") == "pass":
                log.append(describe_action(action, names, state))
            log += added
        shown = log[-min(lines, MAX_LOG_LINES):]
        note = ""
        if lines > MAX_LOG_LINES and len(log) > MAX_LOG_LINES:
            note = (f"(The last {MAX_LOG_LINES} of {len(log)} lines: at most {MAX_LOG_LINES} are shown. "
                    "/game export gives the whole game as a file.)\n")
        return Reply(note + ("\n".join(shown) or "The log is empty."), game_id=game_id)

    async def export(self, game_id: int) -> Reply:
        """The game as an 18xx.games document (``result`` once finished)."""
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            document = export_document(session)
        data = json.dumps(document, ensure_ascii=False).encode("utf-8")
        return Reply(f"Game #{game_id} as an 18xx.games file ({len(session.actions)} actions).",
                     game_id=game_id, seq=session.seq, document=document,
                     pictures=[Picture(f"stationmaster-{game_id}.json", data)])


def export_document(session: Any) -> dict[str, Any]:
    """The game as storage exports it, from the session's own (possibly newer) action list."""
    loaded = replace(session.loaded, actions=session.actions)
    document = stored_export(loaded)
    if session.game is not None and session.game.finished:
        document["result"] = {str(key): value for key, value in session.game.result().items()}
    return document

"""Creating, joining, starting, pausing and ending games; seats and settings; imports.

A part of the Moderator, handed the games, the reminder settings new games get, and the commit
(an import may end with a move nobody decides).
"""

from __future__ import annotations

import random
import secrets
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.config import ReminderDefaults, hours_problem, zone_problem
from bot.games import Games
from bot.model import Actor, Button, Reply
from bot.outcome import Commit, Outcome
from bot.sessions import resolved_options
from engine import TITLES, GameError, new_game
from engine.catalog import title_info, title_infos
from engine.describe import unattended_words
from engine.legal import unattended_move
from engine.log import title_class
from storage import GameSettings, NewGame, NewSeat, StorageError, import_document
from storage.import_checks import notes_text
from storage.limits import (
    MAX_OPEN_GAMES_PER_USER,
    LimitError,
    check_names,
    name_problem,
    twin_problem,
)
from storage.transfer import check_shape, parse_document
from untrusted.json_text import INT_MAX
from untrusted.quote import quoted


def lobby_buttons() -> list[Button]:
    return [Button("Join", "join", "primary"), Button("Start", "start", "success")]


class Lifecycle:
    def __init__(self, games: Games, reminder_defaults: ReminderDefaults, commit: Commit) -> None:
        self.games = games
        self.reminder_defaults = reminder_defaults
        self.commit = commit

    async def create_game(self, actor: Actor, title: str, *, seed: int | None = None,
                          site_rules: bool = False, join: bool = True, players: list[str] | None = None,
                          guild_id: int | None = None, channel_id: int | None = None,
                          thread_id: int | None = None) -> Reply:
        """A new game waiting for players; ``players`` (the terminal) seats them in that order."""
        if title not in TITLES:
            labels = ", ".join(info.label for info in title_infos())
            return Reply.error(f"Unknown title {title[:40]!r}; playable titles: {labels}.")
        names = [n.strip() for n in players or [] if n.strip()]
        try:
            check_names(names or ([actor.name] if join else []))
        except LimitError as error:
            return Reply.error(f"{str(error)[:1].upper()}{str(error)[1:]}; nothing was created.")
        seats = [NewSeat(number, name) for number, name in enumerate(names, 1)]
        if not names and join:
            seats = [NewSeat(1, actor.name, actor.user_id)]
        seed = secrets.randbelow(1_000_000) if seed is None else seed
        if not 0 <= seed <= INT_MAX:
            return Reply.error(f"The seed is a whole number from 0 to {INT_MAX}; nothing was created.")
        if names:  # seated at once (the terminal): the engine must take this many players
            try:
                new_game(title, [{"id": n, "name": name} for n, name in enumerate(names, 1)], seed,
                         list(resolved_options(title, site_rules)))
            except GameError as error:
                return Reply.error(f"The game cannot start: {error}; nothing was created.")
        if (refusal := await self._too_many_games(actor)) is not None:
            return refusal
        record = NewGame(title=title, seed=seed, options=resolved_options(title, site_rules), status="setup",
                         guild_id=guild_id, channel_id=channel_id, thread_id=thread_id,
                         creator_user_id=actor.user_id)
        game_id = await self.games.repo.create_game(record, seats, self.reminder_defaults.game_settings())
        rules = "18xx.games' reading of the rules" if site_rules else "the rulebook's reading of the rules"
        seated = ", ".join(s.display_name for s in seats) or "nobody yet"
        text = f"New {title} game #{game_id} (seed {seed}, {rules}). Players: {seated}."
        if not names:
            text += "\nJoin with /game join; the creator starts it with /game start."
        return Reply(text, game_id=game_id, seq=0, buttons=lobby_buttons())

    async def set_location(self, game_id: int, *, guild_id: int | None, channel_id: int | None,
                           thread_id: int | None) -> None:
        await self.games.repo.set_location(game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id)
        self.games.sessions.forget(game_id)

    async def join(self, game_id: int, actor: Actor) -> Reply:
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if session.loaded.game.status == "abandoned":
                return Reply.error("This game was abandoned before it started; create a new one with /game new.",
                                   game_id)
            if session.loaded.game.status != "setup":
                return Reply.error("The game has already started; ask its creator to give you a seat "
                                   "with /game replace.", game_id)
            mine = session.seat_of(actor)
            if mine is not None:
                return Reply.error(f"You already have seat {mine.seat}.", game_id)
            if (problem := name_problem(actor.name)) is not None:
                return Reply.error(f"Your display name cannot be a player's name: {problem}.", game_id)
            info = title_info(session.loaded.game.title)
            if info is not None and len(session.seats) >= info.max_players:
                return Reply.error(f"The game is full: {info.name} is for at most {info.max_players} players.",
                                   game_id)
            if (twin := twin_problem(actor.name, [s.display_name for s in session.seats])) is not None:
                return Reply.error(f"Your display name cannot sit at this table: {twin}. Set another display "
                                   "name (a server nickname) first.", game_id)
            ids = [s.player_id for s in session.seats if isinstance(s.player_id, int)]
            await self.games.repo.add_seat(game_id, NewSeat(max(ids, default=0) + 1, actor.name, actor.user_id))
            session = await self.games.sessions.reload(game_id)
        names = ", ".join(s.display_name for s in session.seats)
        return Reply(f"{actor.name} joins game #{game_id}. Players: {names}.", game_id=game_id, seq=0,
                     buttons=lobby_buttons())

    async def start(self, game_id: int, actor: Actor, *, shuffle: bool = True) -> Outcome:
        """Start: seats in random order drawn from the game's seed (or as given, ``shuffle=False``)."""
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            record = session.loaded.game
            if record.status != "setup":
                return Outcome(Reply.error("The game has already started.", game_id))
            if not session.is_admin(actor):
                return Outcome(Reply.error("Only the game's creator (or a server manager) starts the game.", game_id))
            try:  # the engine knows how many players the title takes
                new_game(record.title, session.loaded.players(), record.seed, list(record.options))
            except GameError as error:
                return Outcome(Reply.error(f"The game cannot start: {error}.", game_id))
            seats = list(session.seats)
            if shuffle and all(s.discord_user_id is not None for s in seats):
                # 18Texas seats players at random; drawn from the seed so it can be reproduced.
                seats = random.Random(record.seed).sample(seats, len(seats))
            # Seating and the start are one write, so a crash cannot leave a half-shuffled table.
            await self.games.repo.start_game(game_id, [(s.discord_user_id, s.display_name) for s in seats])
            session = await self.games.sessions.reload(game_id)
            assert session.game is not None
        await self.games.changed(game_id)
        order_text = ", ".join(f"{s.seat}. {s.display_name}" for s in session.seats)
        reply = Reply(f"Game #{game_id} starts. Seat order: {order_text}.", game_id=game_id, seq=0)
        return Outcome(reply, True, session, session.game.state.snapshot(), (reply.text,))

    async def replace(self, game_id: int, actor: Actor, seat_text: str,
                      user_id: int | None, name: str) -> Reply:
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if not session.is_admin(actor):
                return Reply.error("Only the game's creator (or a server manager) gives seats away.", game_id)
            seat = session.seat_named(seat_text)
            if seat is None:
                seats = ", ".join(f"{s.seat} ({s.display_name})" for s in session.seats)
                return Reply.error(f"There is no seat {quoted(seat_text)}; seats: {seats}.", game_id)
            if user_id is None:
                return Reply.error("Seats are given to Discord users; in the terminal every seat is yours.", game_id)
            others = [s.display_name for s in session.seats if s is not seat]
            if (problem := name_problem(name) or twin_problem(name, others)) is not None:
                return Reply.error(f"{name[:32]}'s display name cannot be a player's name here: {problem}. They "
                                   "set another display name (a server nickname) first.", game_id)
            taken = next((s for s in session.seats if s.discord_user_id == user_id and s is not seat), None)
            if taken is not None:
                return Reply.error(f"{name} already plays seat {taken.seat}.", game_id)
            await self.games.repo.replace_seat_user(game_id, seat.seat, user_id, name)
            self.games.sessions.forget(game_id)
        await self.games.changed(game_id)
        return Reply(f"Seat {seat.seat} ({seat.display_name}) is now played by {name}.", game_id=game_id)

    async def set_game_status(self, game_id: int, actor: Actor, status: str, *, confirmed: bool = False) -> Reply:
        """pause, resume (to active) or abandon; abandoning, which cannot be taken back, is only
        done ``confirmed`` (the question's button, or confirm:yes), else asked first."""
        allowed = {"paused": ("active",), "active": ("paused",), "abandoned": ("setup", "active", "paused")}
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            if not session.is_admin(actor):
                return Reply.error("Only the game's creator (or a server manager) can do that.", game_id)
            current = session.loaded.game.status
            if current not in allowed[status]:
                return Reply.error(f"The game is {current}; that is not possible now.", game_id)
            if status == "abandoned" and not confirmed:
                return self._abandon_question(game_id, session.seq)
            await self.games.set_status(session, status)
        words = {"paused": "is paused: no moves and no reminders until /game resume",
                 "active": "is running again", "abandoned": "was abandoned"}
        return Reply(f"Game #{game_id} {words[status]}.", game_id=game_id)

    def _abandon_question(self, game_id: int, seq: int) -> Reply:
        door = self.games.front_door
        label = f"Abandon game #{game_id}"
        how = (f"press “{label}” or give /game abandon confirm:yes" if door.buttons
               else "give /game abandon confirm:yes")
        return Reply(f"Abandon game #{game_id}? It ends now, without a result, and cannot be resumed. To abandon "
                     f"it, {how}.", game_id=game_id, seq=seq, buttons=[Button(label, "abandon", "danger")])

    async def settings(self, game_id: int, actor: Actor, changes: dict[str, Any]) -> Reply:
        changes = {k: v for k, v in changes.items() if v is not None}
        async with self.games.sessions.lock(game_id):
            session = await self.games.sessions.get(game_id)
            current = session.loaded.settings
            if changes:
                if not session.is_admin(actor):
                    return Reply.error("Only the game's creator (or a server manager) changes settings.", game_id)
                try:
                    current = _changed_settings(current, changes)
                    await self.games.repo.update_settings(game_id, current)
                except (ValueError, StorageError) as error:
                    return Reply.error(f"{error}", game_id)
                self.games.sessions.forget(game_id)
        if changes:
            await self.games.changed(game_id)
        return Reply(describe_settings(current), game_id=game_id)

    async def import_game(self, actor: Actor, raw: bytes | str, *, guild_id: int | None = None,
                          channel_id: int | None = None, thread_id: int | None = None) -> Reply:
        """Import an 18xx.games document as a new game (storage stores its rule options spelt out).
        The importer is its creator: they hand out the seats; it gets the configured reminders."""
        if (refusal := await self._too_many_games(actor)) is not None:
            return refusal
        try:
            document = parse_document(raw)
            check_shape(document)
            title = document["title"]
            title_class(title)
            notes: list[str] = []
            game_id = await import_document(self.games.repo, raw, settings=self.reminder_defaults.game_settings(),
                                            creator_user_id=actor.user_id, notes=notes)
        except (StorageError, GameError) as error:
            return Reply.error(f"Import refused: {error}. Nothing was stored.")
        await self.games.repo.set_location(game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id)
        session = await self.games.sessions.get(game_id)
        if session.game is not None and (unattended := unattended_move(session.game.state)) is not None:
            # The log stops where only a company nobody presides can act: it passes now, or
            # nobody could ever move.
            async with self.games.sessions.lock(game_id):
                await self.commit(session, actor, unattended, note=unattended_words(unattended))
        names = ", ".join(s.display_name for s in session.seats)
        # The terminal (no Discord user) has every seat at its keyboard: nobody hands them out.
        seats = "" if actor.user_id is None else (" You (the importer) or a server manager give the seats to "
                                                   "Discord users with /game replace.")
        left = f"\n{notes_text(notes)}" if notes else ""
        return Reply(f"Imported {title} as game #{game_id} ({len(session.actions)} actions, "
                     f"{session.loaded.game.status}). Players: {names}.{seats}{left}", game_id=game_id,
                     seq=session.seq)

    async def _too_many_games(self, actor: Actor) -> Reply | None:
        """A Discord user may have only so many unfinished games they created or imported."""
        if actor.user_id is None or actor.manager:
            return None
        mine = [g for g in await self.games.repo.list_games(statuses=["setup", "active", "paused"])
                if g.creator_user_id == actor.user_id]
        if len(mine) < MAX_OPEN_GAMES_PER_USER:
            return None
        numbers = ", ".join(f"#{g.id}" for g in mine[:MAX_OPEN_GAMES_PER_USER])
        return Reply.error(f"You already have {len(mine)} unfinished games that you created or imported "
                           f"({numbers}); the limit is {MAX_OPEN_GAMES_PER_USER}. Finish or abandon one first "
                           "(/game abandon in its thread).")


def _changed_settings(current: GameSettings, changes: dict[str, Any]) -> GameSettings:
    values: dict[str, Any] = {}
    for key in ("first_after_hours", "repeat_hours"):
        if key in changes:
            if (problem := hours_problem(key, changes[key])) is not None:
                raise ValueError(problem)
            values[f"reminder_{key}"] = float(changes[key])
    if "quiet_start" in changes:
        start = changes["quiet_start"]
        if isinstance(start, bool) or not isinstance(start, int) or not -1 <= start <= 23:
            raise ValueError(f"quiet_start is an hour from 0 to 23, or -1 for no quiet hours, not {start!r}")
        values["quiet_start_hour"] = None if start < 0 else start
        if start < 0:
            values["quiet_end_hour"] = None
    if "quiet_end" in changes:
        end = changes["quiet_end"]
        if isinstance(end, bool) or not isinstance(end, int) or not 0 <= end <= 23:
            raise ValueError(f"quiet_end is an hour from 0 to 23, not {end!r}")
        values["quiet_end_hour"] = end
    if "time_zone" in changes:
        if (problem := zone_problem(changes["time_zone"])) is not None:
            raise ValueError(problem)
        values["quiet_time_zone"] = changes["time_zone"]
    settings = replace(current, **values)
    if (settings.quiet_start_hour is None) != (settings.quiet_end_hour is None):
        raise ValueError("give both quiet_start and quiet_end")
    return settings


def describe_settings(settings: GameSettings) -> str:
    quiet = "none"
    if settings.quiet_start_hour is not None:
        quiet = f"{settings.quiet_start_hour}:00 to {settings.quiet_end_hour}:00 {settings.quiet_time_zone}"
    return (f"Reminders: first after {settings.reminder_first_after_hours:g} h, then every "
            f"{settings.reminder_repeat_hours:g} h; quiet hours: {quiet}. "
            f"Undo: {settings.undo_policy.replace('_', ' ')}. (Server time {datetime.now().astimezone():%H:%M %Z}.)")

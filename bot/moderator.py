"""The Moderator: applies players' commands to their games, transport-neutral and async.

A move goes: find the game (one lock per game) -> turn the command into an 18xx.games action
with the engine's legal moves -> the engine applies it (or refuses, changing nothing) ->
append it to the log naming the expected seq -> only then answer. Pictures and the route
optimizer's proposal are worked out afterwards on a copy of the position, off the event
loop (``finish``), so a front door can acknowledge the committed move first.

The Moderator makes the moves itself and is composed of parts that each own one area, as a
discord.py bot is of its cogs: `Lifecycle` (new, join, start, seats, settings, import), `Info`
(what anyone may look at), `Consent` (rule 12.6 train offers), `Ending` (/game end),
`StandingOrders` (/auto) and `RouteSearch` (/game routes and the follow-ups). Each is handed what it needs (the `Games`
served, the `Proposals`, the commit) and none imports the Moderator; its public methods are the
Moderator's, delegated below, so front doors see one object.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot import pictures as pics
from bot.away import Absences
from bot.coming_back import LIMIT, REPLY_WAIT, ComingBack
from bot.commands import build_action, candidate_moves, controls, engine_reason, wants_proposal
from bot.config import ReminderDefaults
from bot.consent import Consent
from bot.drawing import changed_pictures
from bot.ending import Ending
from bot.errors import CommandError, NotPossibleNow, NotYourTurn
from bot.front_door import DISCORD, FrontDoor, discord_mention, plain_mention
from bot.games import Games, Listener
from bot.info import Info
from bot.lifecycle import Lifecycle
from bot.model import Actor, Button, Command, Reply
from bot.outcome import Outcome
from bot.proposals import Proposals
from bot.raw_action import acting_entity, checked_figures, parse_raw, raw_refusal
from bot.repeats import Repeats
from bot.replies import acting_seats, describe_action, new_log_lines
from bot.route_search import DEFAULT_SECONDS, Announce, FollowUps, RouteSearch, proposal_text
from bot.sessions import Session, Sessions, replay_with, undoable
from bot.standing_orders import StandingOrders, order_whispers
from bot.store_trouble import STORE_TROUBLE, log_failure
from bot.suggest import Choice, suggest
from engine import GameError, RunsBelowTheMost, given_most
from engine.attachments import attachment_actions
from engine.automatic import AutomaticMove, follow_up
from engine.core.game import BaseGame
from engine.describe import dividend_account, price_moves, share_prices
from engine.legal import legal_moves
from engine.program_words import automatic_lines
from render.closeup import DEFAULT_RADIUS
from storage import GameRepository, SeatRecord, SeqConflict, StorageError

log = logging.getLogger(__name__)

__all__ = ["Moderator", "Outcome", "Listener", "discord_mention", "plain_mention", "buttons_for"]
MAX_LOG_LINES = 12
_PAYS_LINE = re.compile(r"^\S+ pays \$\d+ and keeps \$\d+$")  # the account goes after it


class Moderator:
    def __init__(self, repo: GameRepository, *, clock: Callable[[], float] = time.time,
                 images: bool = True, router_budget: float = 2.0,
                 reminders: ReminderDefaults | None = None,
                 mention: Callable[[SeatRecord], str] | None = None, follow_up_seconds: float = 0.0,
                 front_door: FrontDoor = DISCORD) -> None:
        """``front_door``: the words replies use for the ways to act (buttons, typed names);
        ``mention``: how players are named, by default the front door's way."""
        self.games = Games(repo, clock, mention or front_door.mention, front_door)
        self.images = images and pics.RENDER
        self.proposals = Proposals(router_budget)
        self.reminder_defaults = reminders or ReminderDefaults()
        # game id -> (who and what, commit time, seq) of its last move made by a command
        self.repeats = Repeats(clock)
        self.consent = Consent(self.games, self._commit)
        self.lifecycle = Lifecycle(self.games, self.reminder_defaults, self._commit)
        self.ending = Ending(self.games, self._commit)
        self.standing_orders = StandingOrders(self.games, self._commit)
        self.absences = Absences(self.games, self._commit)
        # Longer searches after unproven proposals, posted through `announce` (set by the front door).
        self.route_search = RouteSearch(self.games, self.proposals, follow_up_seconds, self.images)
        self.info = Info(self.games, self.route_search)
        # While you were away, the board at an earlier moment, charts, your games.
        self.coming_back = ComingBack(self.games.sessions, repo)

    # --- what the parts share ------------------------------------------------------------------
    @property
    def repo(self) -> GameRepository:
        return self.games.repo

    @property
    def sessions(self) -> Sessions:
        return self.games.sessions

    @property
    def clock(self) -> Callable[[], float]:
        return self.games.clock

    @property
    def mention(self) -> Callable[[SeatRecord], str]:
        return self.games.mention

    @property
    def listeners(self) -> list[Listener]:
        return self.games.listeners

    @property
    def router_budget(self) -> float:
        return self.proposals.router_budget

    @property
    def follow_ups(self) -> FollowUps:
        return self.route_search.follow_ups

    @property
    def announce(self) -> Announce | None:
        """Posts a reply in its game's channel (a follow-up's news); set by the front door."""
        return self.follow_ups.announce

    @announce.setter
    def announce(self, announce: Announce | None) -> None:
        self.follow_ups.announce = announce

    def now(self) -> int:
        return self.games.now()

    async def changed(self, game_id: int) -> None:
        """Tell listeners (the reminder scheduler) that a game's position or status changed."""
        await self.games.changed(game_id)

    async def _seated(self, game_id: int, actor: Actor) -> tuple[Session | None, SeatRecord | None, Outcome | None]:
        return await self.games.seated(game_id, actor)

    def turn_text(self, session: Session, state: BaseGame, ping: bool = True,
                  notes: bool = True) -> tuple[str, list[SeatRecord]]:
        return self.games.turn_text(session, state, ping, notes)

    # --- the parts' commands -------------------------------------------------------------------
    async def create_game(self, actor: Actor, title: str, *, seed: int | None = None, site_rules: bool = False,
                          join: bool = True, players: list[str] | None = None, guild_id: int | None = None,
                          channel_id: int | None = None, thread_id: int | None = None) -> Reply:
        return await self.lifecycle.create_game(actor, title, seed=seed, site_rules=site_rules, join=join,
                                                players=players, guild_id=guild_id, channel_id=channel_id,
                                                thread_id=thread_id)

    async def set_location(self, game_id: int, *, guild_id: int | None, channel_id: int | None,
                           thread_id: int | None) -> None:
        await self.lifecycle.set_location(game_id, guild_id=guild_id, channel_id=channel_id, thread_id=thread_id)

    async def join(self, game_id: int, actor: Actor) -> Reply:
        return await self.lifecycle.join(game_id, actor)

    async def start(self, game_id: int, actor: Actor, *, shuffle: bool = True) -> Outcome:
        return await self.lifecycle.start(game_id, actor, shuffle=shuffle)

    async def replace(self, game_id: int, actor: Actor, seat_text: str, user_id: int | None, name: str) -> Reply:
        return await self.lifecycle.replace(game_id, actor, seat_text, user_id, name)

    async def set_game_status(self, game_id: int, actor: Actor, status: str, *, confirmed: bool = False) -> Reply:
        return await self.lifecycle.set_game_status(game_id, actor, status, confirmed=confirmed)

    async def settings(self, game_id: int, actor: Actor, changes: dict[str, Any]) -> Reply:
        return await self.lifecycle.settings(game_id, actor, changes)

    async def import_game(self, actor: Actor, raw: bytes | str, *, guild_id: int | None = None,
                          channel_id: int | None = None, thread_id: int | None = None) -> Reply:
        return await self.lifecycle.import_game(actor, raw, guild_id=guild_id, channel_id=channel_id,
                                                thread_id=thread_id)

    async def status(self, game_id: int) -> Reply:
        return await self.info.status(game_id)

    async def pictures(self, game_id: int, which: tuple[str, ...], around: str | None = None,
                       radius: int = DEFAULT_RADIUS) -> Reply:
        return await self.info.pictures(game_id, which, around, radius)

    async def privates(self, game_id: int, company: str | None = None) -> Reply:
        return await self.info.privates(game_id, company)

    async def company_choices(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        return await self.info.company_choices(game_id, typed)

    async def close_up_choices(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        return await self.info.close_up_choices(game_id, typed)

    async def log_lines(self, game_id: int, lines: int = 15) -> Reply:
        return await self.info.log_lines(game_id, lines)

    async def export(self, game_id: int) -> Reply:
        return await self.info.export(game_id)

    async def accept(self, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        return await self.consent.accept(game_id, actor, expected_seq)

    async def decline(self, game_id: int, actor: Actor, expected_seq: int | None = None) -> Outcome:
        return await self.consent.decline(game_id, actor, expected_seq)

    async def end_game(self, game_id: int, actor: Actor) -> Outcome:
        return await self.ending.end_game(game_id, actor)

    async def standing_order(self, game_id: int, actor: Actor) -> Reply:
        return await self.standing_orders.show(game_id, actor)

    async def set_standing_order(self, game_id: int, actor: Actor, command: Command) -> Outcome:
        if command.name == "auto away":
            return await self.absences.go(game_id, actor, str(command.get("until", "")))
        return await self.standing_orders.order(game_id, actor, command)

    async def order_companies(self, game_id: int, typed: str) -> list[tuple[str, str]]:
        return await self.standing_orders.companies(game_id, typed)

    async def come_back(self, game_id: int, actor: Actor) -> Reply:
        return await self.absences.back(game_id, actor)

    async def search_routes(self, game_id: int, actor: Actor, seconds: float = DEFAULT_SECONDS) -> Reply:
        return await self.route_search.search_routes(game_id, actor, seconds)

    async def proposal_words(self, session: Session) -> str | None:
        return await self.route_search.proposal_words(session)

    async def keep_found(self, game_id: int, seq: int, state: BaseGame, found: pics.Proposal | None,
                         seconds: float, *, follow_up: bool = False) -> Reply | None:
        return await self.route_search.keep_found(game_id, seq, state, found, seconds, follow_up=follow_up)

    # --- moves ---------------------------------------------------------------------------------
    async def act(self, game_id: int, actor: Actor, command: Command, expected_seq: int | None = None) -> Outcome:
        """Apply a move command (bid, par, buy, ..., action) for the actor's seat.

        ``expected_seq`` (from a button) refuses the move if the game has moved on since."""
        if command.name == "action":
            return await self.raw_action(game_id, actor, str(command.get("json", "")), command.sent_at,
                                         command.at_seq)
        async with self.sessions.lock(game_id):
            session, seat, refusal = await self._seated(game_id, actor)
            if refusal is not None:
                return refusal
            assert session is not None and session.game is not None and seat is not None
            state = session.game.state
            if (repeat := self._repeat(session, actor, command)) is not None:
                return repeat
            if expected_seq is not None and expected_seq != session.seq:
                turn, _ = self.turn_text(session, state, ping=False)
                return Outcome(Reply.error(f"That button is from an earlier position (move {expected_seq}); "
                                           f"the game has moved on to move {session.seq}.\nNow: {turn}", game_id))
            if (moved := self._moved_on(session, command.at_seq)) is not None:
                return moved
            proposal = None
            if command.name == "run" and wants_proposal(command):
                proposal = await self._proposal(session, state, session.seq)
                offered = command.get("offered_total")
                if offered is not None and proposal is not None and proposal.total != offered:
                    turn, _ = self.turn_text(session, state, ping=False)
                    # After a restart the proposal is worked out again and may fall short of an
                    # older follow-up's.
                    since = ("a longer search has since found runs for" if proposal.total > offered
                             else "the proposal worked out since (/game routes searches longer) earns")
                    return Outcome(Reply.error(
                        f"Not run: that button offered the runs for ${offered}, and {since} ${proposal.total}. "
                        f"To run those, /run with no routes{self.games.front_door.press(f'Run for ${proposal.total}', ' if it is offered')}."
                        f"\nNow: {turn}", game_id))
            try:
                action = build_action(state, session.game.legal_moves(), seat.player_id, command,
                                      proposal.action if proposal else None)
            except CommandError as error:
                return Outcome(self._refusal(session, seat, command, error))
            # The proposal's runs earn what the optimizer said only with its attachments on.
            chosen = attachment_actions(state, proposal.corporation, proposal.runs) if proposal else []
            known = proposal.result if proposal else None
            outcome = await (self._commit_series(session, actor, [*chosen, action], known) if chosen
                             else self._commit(session, actor, action, known=known))
            return self._remember(session, actor, command, outcome)

    def _refusal(self, session: Session, seat: SeatRecord, command: Command, error: CommandError) -> Reply:
        """The reply to a command no legal move matches: what was wrong, and whose turn it is."""
        assert session.game is not None
        state = session.game.state
        turn, _ = self.turn_text(session, state, ping=False)
        if isinstance(error, NotYourTurn):
            text = f"{error}: you act only for your own seat and the companies you preside."
        elif isinstance(error, NotPossibleNow):
            reason = engine_reason(state, seat.player_id, command)
            text = f"{error}{': ' + reason if reason else ''}."
        else:
            text = f"{error}."
        return Reply.error(f"{text}\nNow: {turn}", session.game_id)

    async def unavailable(self, game_id: int, actor: Actor, command: Command) -> Reply | None:
        """The refusal a move command with some options left out gets: its word is not the
        actor's to make now (another's turn, or not possible at this point), or the words of what
        is missing and what it may be (/bid without price: names the range); None if it could
        be made as it is. For callers that must ask before they ask for the missing options."""
        async with self.sessions.lock(game_id):
            session, seat, refusal = await self._seated(game_id, actor)
            if refusal is not None:
                return refusal.reply
            assert session is not None and session.game is not None and seat is not None
            state, moves = session.game.state, session.game.legal_moves()
            try:
                candidate_moves(state, moves, seat.player_id, command.name)
                build_action(state, moves, seat.player_id, command, None)
            except CommandError as error:
                return self._refusal(session, seat, command, error)
            return None

    async def _commit_series(self, session: Session, actor: Actor, actions: list[dict[str, Any]],
                             known: Any = None) -> Outcome:
        """Several actions as one move: all are tried on a copy first, so a refusal leaves the
        game as it was; then each is committed in turn and the reply tells them all. `known`:
        the optimizer's answer the series' runs come from (the run check takes it)."""
        assert session.game is not None
        trial = session.game.state.snapshot()
        try:
            with given_most(trial, known):
                for action in actions:
                    trial.process(action)
        except GameError as error:
            turn, _ = self.turn_text(session, session.game.state, ping=False)
            return Outcome(Reply.error(f"That move is not allowed: {error}.\nNow: {turn}", session.game_id))
        lines: list[str] = []
        outcome = Outcome(Reply.error("nothing to do", session.game_id))
        for action in actions:
            outcome = await self._commit(session, actor, action, known=known)
            if not outcome.committed:
                break
            lines += outcome.lines
        if not outcome.committed:
            return outcome if not lines else replace(outcome, reply=replace(
                outcome.reply, text="\n".join([*lines, outcome.reply.text])))
        return replace(outcome, reply=replace(outcome.reply, text="\n".join(lines)), lines=tuple(lines))

    def _repeat(self, session: Session, actor: Actor, command: Command) -> Outcome | None:
        """"Already done" for a copy of a move that was just made (bot.repeats)."""
        seq = self.repeats.made_as(session.game_id, actor, command)
        if seq is None:
            return None
        assert session.game is not None
        turn, _ = self.turn_text(session, session.game.state, ping=False)
        return Outcome(Reply.error(
            f"Already done: your /{command.name} was made as move {seq} just before this copy of it arrived "
            f"(sent twice?), so it was not made again. To make it again, send it once more.\nNow: {turn}",
            session.game_id))

    def _moved_on(self, session: Session, at_seq: int | None) -> Outcome | None:
        """The refusal of a move typed at a position the game has left (``Command.at_seq``):
        another process made a move meanwhile, perhaps this very one."""
        if at_seq is None or at_seq == session.seq:
            return None
        assert session.game is not None
        turn, _ = self.turn_text(session, session.game.state, ping=False)
        return Outcome(Reply.error(
            f"Not made: the game has moved on since this was typed (it was at move {at_seq}, it is at move "
            f"{session.seq} now: a move was made elsewhere meanwhile). If it is still what you want, send it "
            f"again.\nNow: {turn}", session.game_id))

    def _remember(self, session: Session, actor: Actor, command: Command, outcome: Outcome) -> Outcome:
        if outcome.committed:
            self.repeats.remember(session.game_id, actor, command, session.seq)
        return outcome

    async def raw_action(self, game_id: int, actor: Actor, text: str, sent_at: float | None = None,
                         at_seq: int | None = None) -> Outcome:
        """`/action json:...`: one 18xx.games action for the actor's own seat or company."""
        command = Command("action", {"json": text}, sent_at, at_seq)
        try:
            action = parse_raw(text)
        except CommandError as error:
            return Outcome(Reply.error(str(error), game_id))
        if action["type"] == "end_game":  # 18xx.games' end_game is our /game end
            return await self.end_game(game_id, actor)
        async with self.sessions.lock(game_id):
            session, seat, refusal = await self._seated(game_id, actor)
            if refusal is not None:
                return refusal
            assert session is not None and session.game is not None and seat is not None
            state = session.game.state
            try:
                probe = acting_entity(action, seat, session.seats, state)
                checked_figures(state, {**action, **probe})
            except CommandError as error:
                return Outcome(Reply.error(str(error), game_id))
            if not controls(state, seat.player_id, probe):
                return Outcome(Reply.error("You act only for your own seat and the companies you preside.", game_id))
            if (repeat := self._repeat(session, actor, command)) is not None:
                return repeat
            if (moved := self._moved_on(session, at_seq)) is not None:
                return moved
            return self._remember(session, actor, command, await self._commit(session, actor, {**action, **probe},
                                                                               raw=True))

    async def undo(self, game_id: int, actor: Actor, steps: int = 1, at_seq: int | None = None) -> Outcome:
        """Take back moves: your own last move until the next player moves; more needs an admin.
        ``at_seq``: the position it was typed at (the terminal), as for a move."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            status = session.loaded.game.status
            if session.broken is not None and status != "abandoned":
                return await self._undo_unreplayable(session, actor, steps)
            if session.game is None or status in ("setup", "abandoned"):
                return Outcome(Reply.error("There is nothing to undo in this game.", game_id))
            if (moved := self._moved_on(session, at_seq)) is not None:
                return moved
            admin = session.is_admin(actor)
            if status == "finished" and not admin:
                return Outcome(Reply.error("The game is over; only its creator can take moves back.", game_id))
            stored = {id(a.action): a for a in session.actions}
            kept = undoable(session.actions)
            if steps < 1 or steps > len(kept):
                return Outcome(Reply.error(f"You can undo 1 to {len(kept)} move(s)." if kept else
                                           "There is nothing to undo yet.", game_id))
            last = stored.get(id(kept[-1]))
            own = last is not None and actor.user_id is not None and last.actor_user_id == actor.user_id
            names = {str(s.player_id): s.display_name for s in session.seats}
            if not admin and not (steps == 1 and own):
                return Outcome(Reply.error(
                    "You may undo only your own last move, and only until the next player moves. "
                    f"The last move was: {describe_action(kept[-1], names, session.game.state)}. Ask the game's creator.", game_id))
            seat = session.seat_of(actor) or session.seats[0]
            action: dict[str, Any] = {"type": "undo", "entity": seat.player_id, "entity_type": "player"}
            if steps > 1:
                target = kept[-steps - 1].get("id") if steps < len(kept) else 0
                action["action_id"] = target
            undone = [describe_action(a, names, session.game.state) for a in kept[-steps:]]
            outcome = await self._commit(session, actor, action, note=f"Undone: {'; '.join(undone)}.")
            if outcome.committed and status == "finished":
                await self.games.set_status(session, "active")
            return outcome

    async def _undo_unreplayable(self, session: Session, actor: Actor, steps: int) -> Outcome:
        """Take back moves of a game whose log no longer replays (Session.broken), up to and
        including the refused one: the creator's or a manager's call, committed only if the
        log then replays."""
        game_id = session.game_id
        assert session.broken is not None
        if not session.is_admin(actor):
            return Outcome(Reply.error(session.broken, game_id))
        kept = undoable(session.actions)
        if not 1 <= steps <= len(kept):
            return Outcome(Reply.error(f"You can undo 1 to {len(kept)} move(s).", game_id))
        seat = session.seat_of(actor) or session.seats[0]
        action: dict[str, Any] = {"type": "undo", "entity": seat.player_id, "entity_type": "player",
                                  "action_id": kept[-steps - 1].get("id") if steps < len(kept) else 0}
        action = {**action, "id": session.max_action_id + 1, "created_at": self.now()}
        try:
            game = await asyncio.to_thread(replay_with, session.loaded, session.actions, action)
        except GameError as error:
            return Outcome(Reply.error(f"After undoing {steps} move(s) the log still does not replay "
                                       f"({error}), so nothing was undone.\n{session.broken}", game_id))
        seq = session.seq + 1
        try:
            stored = await self.repo.append_action(game_id, seq, action, actor.user_id)
        except STORE_TROUBLE:
            self.sessions.forget(game_id)
            raise
        except (SeqConflict, StorageError) as error:
            self.sessions.forget(game_id)
            return Outcome(Reply.error(f"That undo could not be stored, so it was not made: {error}.", game_id))
        session.game, session.broken = game, None
        session.actions.append(stored)
        session.max_action_id = action["id"]
        await self.changed(game_id)
        names = {str(s.player_id): s.display_name for s in session.seats}
        note = f"Undone: {'; '.join(describe_action(a, names) for a in kept[-steps:])}. The game replays again."
        return Outcome(Reply(note, game_id=game_id, seq=seq), True, session, game.state.snapshot(), (note,))

    async def _commit(self, session: Session, actor: Actor, action: dict[str, Any],
                      note: str | None = None, consented: bool = False, known: Any = None,
                      raw: bool = False) -> Outcome:
        """Process, then append; nothing is acknowledged unless the append committed. A refusal
        of a `raw` action (`/action json:`) names its 18xx.games type as well as its word.

        A purchase that needs another president's consent is not made here unless it was
        given (``consented``): it becomes an offer to that president instead. Runs held to the
        most the company can earn are checked against the optimizer's answer searched in its
        worker (``known``, else the position's proposal), never by a search on the event loop."""
        game = session.game
        assert game is not None
        if not consented:
            asked = await self.consent.ask(session, actor, action)
            if asked is not None:
                return asked
        game_id = session.game_id
        seq = session.seq + 1
        action = {**action, "id": session.max_action_id + 1, "created_at": self.now()}
        before_log = list(game.state.log)
        prices_before = share_prices(game.state)  # every price a move changes is told (a loan's too)
        acting_before = acting_seats(game.state, session.seats)
        # A dividend's account compares the positions around it (who received what).
        before_dividend = game.state.snapshot() if action["type"] == "dividend" else None
        main_log: list[str] = []  # the log after the move itself, before any automatic moves
        automatic: list[AutomaticMove] = []  # the moves the game made by itself after it
        notices = len(game.state.programs.notices)
        if known is None and action["type"] == "run_routes" and game.state.must_run_for_the_most():
            proposal = await self._proposal(session, game.state, session.seq)
            known = proposal.result if proposal else None
        try:
            if action["type"] == "undo":
                # The position after an undo is what replaying the log gives, exactly as after
                # a restart (a whole replay: off the event loop).
                game = await asyncio.to_thread(replay_with, session.loaded, session.actions, action)
            else:
                with given_most(game.state, known):
                    game.process(action)
                main_log = list(game.state.log)
                made = follow_up(game.state, created_at=action["created_at"], account=automatic)
                if made:
                    # The moves the game makes by itself after it (standing orders, a company
                    # nobody presides) are part of this one: stored inside it, as the reference
                    # site stores its automatic moves, so an undo takes both.
                    action["auto_actions"] = made
        except GameError as error:
            turn, _ = self.turn_text(session, game.state, ping=False)
            hint = ""
            if isinstance(error, RunsBelowTheMost):  # rule 12.4: offer the optimizer's runs
                hint = (f"\nTo run for ${error.best.total}: /run with no routes runs the proposed runs"
                        f"{self.games.front_door.press(f'Run for ${error.best.total}', ' under the last move')}.")
            reason = raw_refusal(game.state, action, error) if raw else str(error)
            return Outcome(Reply.error(f"That move is not allowed: {reason}.{hint}\nNow: {turn}", game_id))
        _complete_runs(game.state, action)
        try:
            stored = await self.repo.append_action(game_id, seq, action, actor.user_id)
        except STORE_TROUBLE:  # not stored (or, in doubt, perhaps stored): the front door says which
            self.sessions.forget(game_id)
            raise
        except SeqConflict:
            session = await self.sessions.reload(game_id)
            assert session.game is not None
            turn, _ = self.turn_text(session, session.game.state, ping=False)
            return Outcome(Reply.error(f"Someone moved first, so your move was not made. Here is the new state:\n{turn}",
                                       game_id))
        except StorageError as error:  # refused by the database (e.g. a value it cannot hold)
            self.sessions.forget(game_id)  # the position in memory is ahead of the log now
            return Outcome(Reply.error(f"That move could not be stored, so it was not made: {error}.", game_id))
        except BaseException:
            self.sessions.forget(game_id)
            raise
        session.game = game
        session.actions.append(stored)
        session.max_action_id = action["id"]
        try:
            if game.finished:
                await self.games.set_status(session, "finished")
            for seat in acting_before:
                await self.repo.reset_reminder(game_id, seat.player_id)
        except STORE_TROUBLE as error:  # the move is in: it is answered as made
            log_failure(log, f"bookkeeping after move {seq} of game {game_id}", error)
            self.sessions.forget(game_id)
        await self.changed(game_id)
        made = action.get("auto_actions", [])
        lines = new_log_lines(before_log, main_log if made else game.state.log)
        told: tuple[str, ...] = ()
        if before_dividend is not None:
            account = dividend_account(before_dividend, game.state, str(action.get("entity")))
            if account is not None:
                at = next((i + 1 for i, line in enumerate(lines) if _PAYS_LINE.match(line)), len(lines))
                lines = lines[:at] + [account] + lines[at:]
                told = (str(action.get("entity")),)  # the account says its price move
        if action["type"] != "undo":
            lines += price_moves(prices_before, game.state, skip=told)
        if note is None and (not lines or action["type"] == "pass"):  # some steps log no pass
            described = describe_action(action, {str(s.player_id): s.display_name for s in session.seats},
                                        game.state)
            if described not in lines:
                lines = [described] + lines
        names = {str(s.player_id): s.display_name for s in session.seats}
        for moved in automatic:
            lines += automatic_lines(moved, names)
        if len(lines) > MAX_LOG_LINES:
            lines = [f"… {len(lines) - MAX_LOG_LINES} earlier lines (/game log)"] + lines[-MAX_LOG_LINES:]
        if note:
            lines = [note] + lines
        whispers = () if action["type"] == "undo" else order_whispers(session, game.state.programs.notices[notices:])
        reply = Reply(text="\n".join(lines), game_id=game_id, seq=seq, whispers=whispers)
        quiet = action["type"].startswith("program_") and not made
        # The passes the bot makes next for players away (/auto away) join this move's reply.
        return await self.absences.after(
            session, Outcome(reply, True, session, game.state.snapshot(), tuple(lines), quiet=quiet))

    # --- after the commit: text, proposal, pictures ------------------------------------------------
    async def _proposal(self, session: Session, state: BaseGame, seq: int) -> pics.Proposal | None:
        return await self.proposals.propose(session, state, seq)

    async def finish(self, outcome: Outcome) -> Reply:
        """The full reply for a committed move: log lines, whose turn, proposal, pictures."""
        if not outcome.committed or outcome.session is None or outcome.snapshot is None:
            return outcome.reply
        session, state, reply = outcome.session, outcome.snapshot, outcome.reply
        seq = reply.seq or 0
        moves = legal_moves(state)
        running = next((m for m in moves if m["type"] == "run_routes"), None)
        proposal = await self._proposal(session, state, seq) if running is not None else None
        turn, acting = self.turn_text(session, state, ping=not outcome.quiet)
        if outcome.quiet:
            acting = []
        parts = list(outcome.lines) + [turn] + await self.absences.told(session, acting)
        if proposal is not None:
            parts.append(proposal_text(state, proposal))
        if running is not None and (proposal is None or not proposal.proven_optimal):
            self.follow_ups.begin(session.game_id, seq, state, str(running["entity"]))
        parts += await self.coming_back.digests(session, acting, LIMIT - len("\n".join(parts)) - 1,
                                                after_move=True, wait=REPLY_WAIT)
        pictures = []
        if self.images:
            try:
                pictures = await changed_pictures(session, state, proposal)
                if state.finished:  # the story of the game beside its final map
                    pictures += await self.coming_back.charts(session)
            except Exception:  # the move is committed: answer it even if a picture fails
                log.exception("drawing game %s at seq %s failed", session.game_id, seq)
        return replace(reply, text="\n".join(p for p in parts if p),
                       mentions=tuple(s.discord_user_id for s in acting if s.discord_user_id is not None),
                       pictures=pictures, buttons=buttons_for(moves, proposal))

    def delivered(self, reply: Reply) -> None:
        """The front door has sent this reply: a follow-up search of its position may now post."""
        if reply.game_id is not None and reply.seq is not None:
            self.follow_ups.delivered(reply.game_id, reply.seq)

    async def suggest(self, game_id: int, actor: Actor, word: str, option: str, typed: str,
                      filled: dict[str, Any]) -> list[Choice]:
        """Autocomplete choices for the actor (read-only: no lock, nothing written)."""
        session = await self.sessions.get(game_id)
        seat = session.seat_of(actor)
        if session.game is None or seat is None or session.loaded.game.status != "active":
            return []
        state = session.game.state
        proposal = self.proposals.kept(session, session.seq)
        return suggest(state, legal_moves(state), seat.player_id, word, option, typed, filled,
                       proposal.action if proposal else None, proposal.total if proposal else None)

    async def perform(self, game_id: int, actor: Actor, command: Command) -> Reply:
        """act + finish, for callers that wait for the whole reply (the terminal)."""
        return await self.finish(await self.act(game_id, actor, command))


def _complete_runs(state: BaseGame, action: dict[str, Any]) -> None:
    """Write each run's stops and revenue into a run_routes action, as 18xx.games logs have
    them (the engine has just checked the runs; the figures are its own)."""
    if action.get("type") != "run_routes":
        return
    runs = {run.train: run for run in state.last_runs}
    for route in action.get("routes") or []:
        run = runs.get(route.get("train"))
        if run is not None:
            route["hexes"] = run.hexes()
            route["revenue"] = run.revenue
            route["revenue_str"] = "-".join(run.hexes())


def buttons_for(moves: list[dict[str, Any]], proposal: pics.Proposal | None) -> list[Button]:
    """Buttons for the small choices of the next decision."""
    buttons: list[Button] = []
    for move in moves:
        if move["type"] == "dividend":
            buttons += [Button(c["kind"].title(), f"dividend:{c['kind']}", "primary") for c in move["choices"]]
        elif move["type"] == "run_routes" and proposal is not None:
            buttons.append(Button(f"Run for ${proposal.total}", f"run:{proposal.total}", "success"))
        elif move["type"] == "pass" and not any(b.verb == "pass" for b in buttons):
            buttons.append(Button("Pass", "pass"))
    return buttons[:5]

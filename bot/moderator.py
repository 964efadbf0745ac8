"""The Moderator: applies players' commands to their games, transport-neutral and async.

A move goes: find the game (one lock per game) -> turn the command into an 18xx.games action
with the engine's legal moves -> the engine applies it (or refuses, changing nothing) ->
append it to the log naming the expected seq -> only then answer. Pictures and the route
optimizer's proposal are worked out afterwards on a copy of the position, off the event
loop (``finish``), so a front door can acknowledge the committed move first.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from bot import drawing
from bot import pictures as pics
from bot.commands import build_action, candidate_moves, controls, engine_reason, wants_proposal
from bot.config import ReminderDefaults
from bot.consent import ConsentMixin, waiting_line
from bot.ending import EndingMixin
from bot.errors import CommandError, NotPossibleNow, NotYourTurn
from bot.info import InfoMixin
from bot.lifecycle import LifecycleMixin
from bot.model import Actor, Button, Command, Reply
from bot.raw_action import acting_entity, parse_raw, raw_refusal
from bot.repeats import Repeats
from bot.replies import (
    acting_seats,
    describe_action,
    final_scores,
    new_log_lines,
    notes_for,
    whose_turn,
)
from bot.route_search import Announce, FollowUps, RouteSearchMixin, proposal_text
from bot.sessions import Session, Sessions, replay_with, undoable
from bot.suggest import Choice, suggest
from engine import GameError, RunsBelowTheMost, given_most
from engine.attachments import attachment_actions
from engine.core.game import BaseGame
from engine.describe import dividend_account, unattended_words
from engine.legal import legal_moves, make_unattended_moves
from storage import GameRepository, SeatRecord, SeqConflict, StorageError

log = logging.getLogger(__name__)

Listener = Callable[[int], Awaitable[None]]
MAX_LOG_LINES = 12
_PAYS_LINE = re.compile(r"^\S+ pays \$\d+ and keeps \$\d+$")  # the account goes after it


def discord_mention(seat: SeatRecord) -> str:
    return f"<@{seat.discord_user_id}>" if seat.discord_user_id is not None else f"@{seat.display_name}"


def plain_mention(seat: SeatRecord) -> str:
    return f"@{seat.display_name}"


@dataclass
class Outcome:
    """A command's result before pictures: final for refusals, the base of the reply otherwise."""

    reply: Reply
    committed: bool = False
    session: Session | None = None
    snapshot: BaseGame | None = None
    lines: tuple[str, ...] = ()


class Moderator(LifecycleMixin, InfoMixin, ConsentMixin, EndingMixin, RouteSearchMixin):
    def __init__(self, repo: GameRepository, *, clock: Callable[[], float] = time.time,
                 images: bool = True, router_budget: float = 2.0,
                 reminders: ReminderDefaults | None = None,
                 mention: Callable[[SeatRecord], str] = discord_mention, follow_up_seconds: float = 0.0) -> None:
        self.repo = repo
        self.sessions = Sessions(repo)
        self.clock = clock
        self.images = images and pics.RENDER
        self.router_budget = router_budget
        self.reminder_defaults = reminders or ReminderDefaults()
        self.mention = mention
        self.listeners: list[Listener] = []
        # game id -> (who and what, commit time, seq) of its last move made by a command
        self.repeats = Repeats(self.clock)
        # Longer searches after unproven proposals, posted through `announce` (set by the front door).
        self.follow_ups = FollowUps(follow_up_seconds)
        self.announce: Announce | None = None

    def now(self) -> int:
        return int(self.clock())

    async def changed(self, game_id: int) -> None:
        """Tell listeners (the reminder scheduler) that a game's position or status changed."""
        for listener in self.listeners:
            try:
                await listener(game_id)
            except Exception:  # a listener's failure must not undo an acknowledged move
                log.exception("listener failed for game %s", game_id)

    # --- shared checks -------------------------------------------------------------------------
    async def _playable(self, game_id: int) -> tuple[Session | None, str | None]:
        session = await self.sessions.get(game_id)
        status = session.loaded.game.status
        problems = {
            "setup": "The game has not started yet (/game start).",
            "paused": "The game is paused (/game resume).",
            "finished": "The game is over.",
            "abandoned": "The game was abandoned.",
        }
        if session.broken is not None and status != "abandoned":
            return session, session.broken
        if status in problems or session.game is None:
            return session, problems.get(status, "The game is not running.")
        return session, None

    async def _seated(self, game_id: int, actor: Actor) -> tuple[Session | None, SeatRecord | None, Outcome | None]:
        """The running game and the actor's seat in it, or the refusal to answer with."""
        session, problem = await self._playable(game_id)
        if problem or session is None or session.game is None:
            return None, None, Outcome(Reply.error(problem or "No such game.", game_id))
        seat = session.seat_of(actor)
        if seat is None:
            return None, None, Outcome(Reply.error("You have no seat in this game; only its players make moves.",
                                                   game_id))
        return session, seat, None

    def turn_text(self, session: Session, state: BaseGame, ping: bool = True,
                  notes: bool = True) -> tuple[str, list[SeatRecord]]:
        if state.finished:
            return final_scores(state, session.seats), []
        mention = self.mention if ping else plain_mention
        moves = legal_moves(state)
        text, acting = whose_turn(state, moves, session.seats, mention)
        if notes:
            text = "\n".join([text, *notes_for(state, moves)])
        waiting = waiting_line(session, state, mention)
        if waiting is not None:  # a purchase waits for the selling president's answer (12.6)
            line, seller = waiting
            text = f"{line}\n{text}"
            acting = acting + [seller] if seller is not None and seller not in acting else acting
        return text, acting

    # --- moves ---------------------------------------------------------------------------------
    async def act(self, game_id: int, actor: Actor, command: Command, expected_seq: int | None = None) -> Outcome:
        """Apply a move command (bid, par, buy, ..., action) for the actor's seat.

        ``expected_seq`` (from a button) refuses the move if the game has moved on since."""
        if command.name == "action":
            return await self.raw_action(game_id, actor, str(command.get("json", "")), command.sent_at)
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
                        f"To run those, /run with no routes (or press “Run for ${proposal.total}” if it is "
                        f"offered).\nNow: {turn}", game_id))
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
        """The refusal a move command gets whatever its options, if its word is not the actor's
        to make now (another's turn, or not possible at this point); None if it could be made.
        For callers that must ask before they ask for the command's missing options."""
        async with self.sessions.lock(game_id):
            session, seat, refusal = await self._seated(game_id, actor)
            if refusal is not None:
                return refusal.reply
            assert session is not None and session.game is not None and seat is not None
            try:
                candidate_moves(session.game.state, session.game.legal_moves(), seat.player_id, command.name)
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

    def _remember(self, session: Session, actor: Actor, command: Command, outcome: Outcome) -> Outcome:
        if outcome.committed:
            self.repeats.remember(session.game_id, actor, command, session.seq)
        return outcome

    async def raw_action(self, game_id: int, actor: Actor, text: str, sent_at: float | None = None) -> Outcome:
        """`/action json:...`: one 18xx.games action for the actor's own seat or company."""
        command = Command("action", {"json": text}, sent_at)
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
            except CommandError as error:
                return Outcome(Reply.error(str(error), game_id))
            if not controls(state, seat.player_id, probe):
                return Outcome(Reply.error("You act only for your own seat and the companies you preside.", game_id))
            if (repeat := self._repeat(session, actor, command)) is not None:
                return repeat
            return self._remember(session, actor, command, await self._commit(session, actor, {**action, **probe},
                                                                               raw=True))

    async def undo(self, game_id: int, actor: Actor, steps: int = 1) -> Outcome:
        """Take back moves: your own last move until the next player moves; more needs an admin."""
        async with self.sessions.lock(game_id):
            session = await self.sessions.get(game_id)
            status = session.loaded.game.status
            if session.broken is not None and status != "abandoned":
                return await self._undo_unreplayable(session, actor, steps)
            if session.game is None or status in ("setup", "abandoned"):
                return Outcome(Reply.error("There is nothing to undo in this game.", game_id))
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
                await self._set_status(session, "active")
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
            asked = await self._ask_consent(session, actor, action)
            if asked is not None:
                return asked
        game_id = session.game_id
        seq = session.seq + 1
        action = {**action, "id": session.max_action_id + 1, "created_at": self.now()}
        before_log = list(game.state.log)
        acting_before = acting_seats(game.state, session.seats)
        # A dividend's account compares the positions around it (who received what).
        before_dividend = game.state.snapshot() if action["type"] == "dividend" else None
        main_log: list[str] = []  # the log after the move itself, before any unattended moves
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
                made = make_unattended_moves(game.state)
                if made:
                    # The moves no player decides that follow are part of this one: stored inside
                    # it, as the reference site stores its automatic moves, so an undo takes both.
                    action["auto_actions"] = made
        except GameError as error:
            turn, _ = self.turn_text(session, game.state, ping=False)
            hint = ""
            if isinstance(error, RunsBelowTheMost):  # rule 12.4: offer the optimizer's runs
                hint = (f"\nTo run for ${error.best.total}: /run with no routes runs the proposed runs (or press "
                        f"“Run for ${error.best.total}” under the last move).")
            reason = raw_refusal(game.state, action, error) if raw else str(error)
            return Outcome(Reply.error(f"That move is not allowed: {reason}.{hint}\nNow: {turn}", game_id))
        _complete_runs(game.state, action)
        try:
            stored = await self.repo.append_action(game_id, seq, action, actor.user_id)
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
        if game.finished:
            await self._set_status(session, "finished")
        for seat in acting_before:
            await self.repo.reset_reminder(game_id, seat.player_id)
        await self.changed(game_id)
        made = action.get("auto_actions", [])
        lines = new_log_lines(before_log, main_log if made else game.state.log)
        if before_dividend is not None:
            account = dividend_account(before_dividend, game.state, str(action.get("entity")))
            if account is not None:
                at = next((i + 1 for i, line in enumerate(lines) if _PAYS_LINE.match(line)), len(lines))
                lines = lines[:at] + [account] + lines[at:]
        if note is None and (not lines or action["type"] == "pass"):  # some steps log no pass
            names = {str(s.player_id): s.display_name for s in session.seats}
            described = describe_action(action, names, game.state)
            if described not in lines:
                lines = [described] + lines
        if made:
            lines += [unattended_words(auto) for auto in made]
            lines += new_log_lines(main_log, game.state.log)
        if len(lines) > MAX_LOG_LINES:
            lines = [f"… {len(lines) - MAX_LOG_LINES} earlier lines (/game log)"] + lines[-MAX_LOG_LINES:]
        if note:
            lines = [note] + lines
        reply = Reply(text="\n".join(lines), game_id=game_id, seq=seq)
        return Outcome(reply, True, session, game.state.snapshot(), tuple(lines))

    async def _set_status(self, session: Session, status: Any) -> None:
        await self.repo.set_status(session.game_id, status)
        session.loaded = replace(session.loaded, game=replace(session.loaded.game, status=status))
        await self.changed(session.game_id)

    # --- after the commit: text, proposal, pictures ------------------------------------------------
    async def _proposal(self, session: Session, state: BaseGame, seq: int) -> pics.Proposal | None:
        cached = session.proposal
        if cached is not None and cached[0] == seq:
            return cached[1]
        move = next((m for m in legal_moves(state) if m["type"] == "run_routes"), None)
        proposal = None
        if move is not None:
            try:
                proposal = await pics.propose_in_worker(state, str(move["entity"]), self.router_budget)
            except Exception:  # a proposal is a convenience; the president can still type runs
                log.exception("route optimizer failed in game %s at seq %s", session.game_id, seq)
        session.proposal = (seq, proposal)
        return proposal

    async def finish(self, outcome: Outcome) -> Reply:
        """The full reply for a committed move: log lines, whose turn, proposal, pictures."""
        if not outcome.committed or outcome.session is None or outcome.snapshot is None:
            return outcome.reply
        session, state, reply = outcome.session, outcome.snapshot, outcome.reply
        seq = reply.seq or 0
        moves = legal_moves(state)
        running = next((m for m in moves if m["type"] == "run_routes"), None)
        proposal = await self._proposal(session, state, seq) if running is not None else None
        turn, acting = self.turn_text(session, state)
        parts = list(outcome.lines) + [turn]
        if proposal is not None:
            parts.append(proposal_text(state, proposal))
        if running is not None and (proposal is None or not proposal.proven_optimal):
            self.follow_ups.begin(self, session.game_id, seq, state, str(running["entity"]))
        pictures = []
        if self.images:
            try:
                pictures = await self._draw(session, state, proposal)
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
        cached = session.proposal
        proposal = cached[1] if cached is not None and cached[0] == session.seq else None
        return suggest(state, legal_moves(state), seat.player_id, word, option, typed, filled,
                       proposal.action if proposal else None, proposal.total if proposal else None)

    async def perform(self, game_id: int, actor: Actor, command: Command) -> Reply:
        """act + finish, for callers that wait for the whole reply (the terminal)."""
        return await self.finish(await self.act(game_id, actor, command))

    async def _draw(self, session: Session, state: BaseGame, proposal: pics.Proposal | None) -> list[Any]:
        """The pictures that changed since the session's last reply, drawn in the workers."""
        views = await asyncio.to_thread(pics.views_of, state, proposal)
        if views is None:
            return []
        old = session.views
        which = ["map"] if old is None or old.map != views.map else []
        if which and views.close_up is not None and (old is None or old.close_up != views.close_up):
            which.append("close_up")
        if old is None or old.market.cells != views.market.cells:
            which.append("market")
        if old is None or _table_key(old.table) != _table_key(views.table):
            which.append("table")
        session.views = views
        return await drawing.draw(views, tuple(which))


def _table_key(table: Any) -> tuple[Any, ...]:
    return (table.players, table.corporations, table.bank_cash, table.depot, table.phase)


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

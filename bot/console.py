"""The terminal front door: ``stationmaster play 18USA --players Alice,Bob,Carol``.

Each input line is ``@<player> /<command> <option>:<value> ...`` with the same command words
as on Discord (the player's name runs from ``@`` to the first `` /``, so it may contain
spaces). Replies are printed; pictures are written to a folder. Input may come from a
terminal or a pipe, so a whole game can be replayed from a file.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from bot.config import MAX_FOLLOW_UP, MAX_ROUTER_BUDGET
from bot.console_hints import choices_text, lay_text
from bot.console_input import (
    ENDLESS,
    Interrupts,
    LineReader,
    Overlong,
    line_or_interrupt,
    player_names,
)
from bot.console_parse import BY_A_PLAYER, MAX_LINE, ParseError, help_text, parse_line, too_long
from bot.dispatch import handle
from bot.front_door import TERMINAL
from bot.model import Actor, Command, Reply
from bot.moderator import Moderator
from bot.store_trouble import STORE_TROUBLE, log_failure, trouble_text
from bot.vocabulary import MOVES
from engine.catalog import default_title, title_infos
from storage import GameNotFound, StorageError, open_repository, parse_database_url
from storage.cli import DEFAULT_DB
from untrusted.files import folder_problem
from untrusted.numbers import INT64_MAX, whole_number

log = logging.getLogger(__name__)
TABLE = Actor(user_id=None, name="", manager=True)  # lines without @name: the person at the terminal


class Console:
    def __init__(self, moderator: Moderator, game_id: int, out: Path | None, output: TextIO,
                 strict: bool = False) -> None:
        self.moderator = moderator
        self.game_id = game_id
        self.out = out
        self.output = output
        self.strict = strict
        self.errors = 0
        self.hints = False  # list the choices after each move (an interactive terminal)
        self.interrupted = False  # the session ended with Ctrl-C
        self.lines_read = 0
        self.unreadable = False  # the input went on with no end of line in sight
        # The game's seq as the last reply showed it: a move typed now is made at that position
        # and refused if the game has moved on since (another process, another terminal).
        self.seen: int | None = None

    def show(self, reply: Reply) -> None:
        prefix = "" if reply.ok else "error: "
        if reply.text:
            print(prefix + reply.text, file=self.output)
        for whisper in reply.whispers:  # one keyboard: marked for the player it is meant for
            print(f"(to {whisper.name} only) {whisper.text}", file=self.output)
        if reply.document is not None:
            print(json.dumps(reply.document, ensure_ascii=False), file=self.output)
        pngs = [p for p in reply.pictures if p.name.endswith(".png")]
        if pngs and self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            for picture in pngs:
                path = self.out / picture.name
                path.write_bytes(picture.data)
            print("pictures: " + ", ".join(str(self.out / p.name) for p in pngs), file=self.output)
        self.output.flush()

    async def announce(self, reply: Reply) -> None:
        """A reply no typed line waits for (a follow-up search's answer)."""
        print("", file=self.output)
        self.show(reply)
        if self.hints:
            print("> ", end="", file=self.output, flush=True)

    def refuse(self, text: str) -> bool:
        self.show(Reply.error(text))
        self.errors += 1
        return not self.strict

    def note_position(self) -> None:
        """Remember the position the game is at in this process, as the last reply showed it."""
        seq = self.moderator.sessions.held_seq(self.game_id)
        if seq is not None:
            self.seen = seq

    def _overlong(self, line: Overlong) -> bool:
        """A line too long to be a command, skipped unread; False when the session ends."""
        if line.endless:
            self.refuse(f"line {self.lines_read} goes on for more than {ENDLESS:,} characters with no end: this "
                        "input is not a list of commands, and nothing after it is read")
            self.unreadable = True
            return False
        return self.refuse(too_long(line.length))

    async def line(self, text: str) -> bool:
        """Handle one input line; False when the caller should stop (strict mode error)."""
        try:
            return await self._line(text)
        except STORE_TROUBLE as error:  # the database restarting or a stuck game ends no session
            return self.refuse(trouble_text(error, detail=True) or str(error))
        finally:
            self.note_position()

    async def _line(self, text: str) -> bool:
        if text.strip().split("/", 1)[-1].strip() == "moves":  # "/moves" or "@Alice /moves"
            try:
                listed = await choices_text(self.moderator, self.game_id, limit=25) or "Nobody can move now."
            except STORE_TROUBLE:
                raise
            except Exception as error:  # a listing's bug must not end the session
                log.exception("listing the moves failed")
                return self.refuse(f"Listing the moves failed inside Stationmaster ({type(error).__name__}); "
                                   "/game status says who is to act.")
            print(listed, file=self.output)
            return True
        try:
            parsed = parse_line(text)
        except ParseError as error:
            tiles_listed = await self._lay_choices(text)
            if tiles_listed is not None:
                print(tiles_listed, file=self.output)
                return True
            refusal = await self._not_now(text)
            if refusal is not None:
                self.show(refusal)
                self.errors += 1
                return not self.strict
            return self.refuse(str(error))
        if parsed is None:
            return True
        name, command = parsed
        # Typed after the previous reply was shown, at the position it showed.
        at_seq = self.seen if command.name in MOVES or command.name == "game undo" else None
        command = replace(command, sent_at=time.time(), at_seq=at_seq)
        if command.name == "help":
            title = (await self.moderator.sessions.get(self.game_id)).loaded.game.title
            print(help_text(title), file=self.output)
            return True
        if name is None and (command.name in MOVES or command.name in BY_A_PLAYER):
            seats = (await self.moderator.sessions.get(self.game_id)).seats
            names = ", ".join(f"@{s.display_name}" for s in seats)
            what = "a move" if command.name in MOVES else f"/{command.name}"
            return self.refuse(f"Start {what} with the name of the player making it, e.g. @{seats[0].display_name} "
                               f"/{command.name} … (players: {names}).")
        actor = TABLE if name is None else Actor(user_id=None, name=name, manager=True)
        if name is not None and command.name in MOVES:
            session = await self.moderator.sessions.get(self.game_id)
            if session.seats and session.seat_of(actor) is None:
                names = ", ".join(f"@{s.display_name}" for s in session.seats)
                return self.refuse(f"No player of this game is called {name[:32]}: the players are {names}.")
        try:
            reply = await handle(self.moderator, self.game_id, actor, command, shuffle=False)
        except STORE_TROUBLE:
            raise
        except Exception as error:  # a bug must not end the session: the log is safe on disk
            log.exception("command %r failed", text)
            reply = Reply.error(f"That command failed inside Stationmaster ({type(error).__name__}); the game "
                                "is as it was before the last reply. /game status shows where it stands.")
        self.show(reply)
        self.moderator.delivered(reply)
        if not reply.ok:
            self.errors += 1
            return not self.strict
        if self.hints and command.name in MOVES:
            try:
                hints = await choices_text(self.moderator, self.game_id)
            except Exception as error:  # the move is made; a listing's bug must not end the session
                log_failure(log, "listing the choices after a move failed", error)
                hints = ""
            if hints:
                print("Choices (/moves lists them all):\n" + hints, file=self.output)
        return True

    async def _not_now(self, text: str) -> Reply | None:
        """A move whose options are missing but which the player could not make anyway (another's
        turn, a /lay in the auction): that refusal, rather than asking for the options."""
        try:
            parsed = parse_line(text, require=False)
        except ParseError:
            return None
        if parsed is None or parsed[0] is None or parsed[1].name not in MOVES:
            return None
        actor = Actor(user_id=None, name=parsed[0], manager=True)
        return await self.moderator.unavailable(self.game_id, actor, parsed[1])

    async def _lay_choices(self, text: str) -> str | None:
        """`@Alice /lay hex:J5` without tile and rotation: what fits there."""
        try:
            parsed = parse_line(text, require=False)
        except ParseError:
            return None
        if parsed is None or parsed[0] is None or parsed[1].name != "lay" or not parsed[1].get("hex"):
            return None
        if parsed[1].get("tile") is not None and parsed[1].get("rotation") is not None:
            return None
        actor = Actor(user_id=None, name=parsed[0], manager=True)
        return await lay_text(self.moderator, self.game_id, actor, str(parsed[1].get("hex")))

    async def run(self, source: TextIO) -> None:
        """Handle lines until the input ends, a strict session meets an error, or Ctrl-C
        (``self.interrupted``): at the prompt it ends the session, during a command once that
        command is made and answered."""
        interactive = source.isatty()
        self.hints = self.hints or interactive
        self.note_position()
        reader, interrupts = LineReader(source, MAX_LINE), Interrupts()
        with interrupts.watching():
            while True:
                if interactive:
                    print("> ", end="", file=self.output, flush=True)
                text = await line_or_interrupt(reader, interrupts)
                if text is None:
                    self.interrupted = True
                    return
                if not text:
                    return
                self.lines_read += 1
                if isinstance(text, Overlong):
                    if not self._overlong(text):
                        return
                elif not await self.line(text):
                    return
                if interrupts.pressed:
                    self.interrupted = True
                    return


async def play(args: argparse.Namespace, source: TextIO = sys.stdin, output: TextIO = sys.stdout) -> int:
    # What can be refused without a store is refused before one is opened or a game created.
    if args.images != "none" and (problem := folder_problem(args.out)) is not None:
        print(f"error: --out: {problem}; nothing was created", file=output)
        return 2
    if args.game is None:
        try:
            names = player_names(args.players)
        except ValueError as error:
            print(f"error: {error}; nothing was created", file=output)
            return 2
    repo = await open_repository(args.db)
    where = parse_database_url(args.db).describe()  # no password in what is printed
    moderator = Moderator(repo, images=args.images == "each", front_door=TERMINAL,
                          router_budget=args.router_budget, follow_up_seconds=args.router_follow_up)
    moderator.coming_back.one_line = True  # the table saw every move: one line says what it did to you
    try:
        out = Path(args.out) if args.images != "none" else None
        if args.game is not None:
            game_id = args.game
            console = Console(moderator, game_id, out, output, args.strict)
            try:
                console.show(await moderator.status(game_id))
            except GameNotFound:
                print(f"error: there is no game {game_id} in {where}", file=output)
                return 2
        else:
            created = await moderator.create_game(TABLE, args.title, seed=args.seed, site_rules=args.site_rules,
                                                  players=names)
            if not created.ok or created.game_id is None:
                print("error: " + created.text, file=output)
                return 2
            game_id = created.game_id
            console = Console(moderator, game_id, out, output, args.strict)
            console.show(created)
            started = await handle(moderator, game_id, TABLE, Command("game start"), shuffle=False)
            console.show(started)
            if not started.ok:
                return 2
        if source.isatty():  # a script's output stays as its lines made it: no answers in between
            moderator.announce = console.announce
            print("Type @<player> /<command> option:value …  (/moves lists your choices, /help the commands; "
                  "Ctrl-D or Ctrl-C ends)", file=output)
            print(await choices_text(moderator, game_id), file=output)
        await console.run(source)
        if source.isatty() or console.interrupted:
            print(("\n" + _interrupted(console, source) if console.interrupted else "\n")
                  + f"Game #{game_id} is saved in {where}. Resume it with: stationmaster play --game {game_id}"
                  + ("" if parse_database_url(args.db) == parse_database_url(DEFAULT_DB) else f" --db {where}"),
                  file=output)
        if args.images == "end":
            moderator.images = True
            console.show(await moderator.pictures(game_id, ("map", "market", "table")))
        if console.interrupted:
            return 130  # as a shell reports a command ended by Ctrl-C
        return 1 if console.unreadable or args.strict and console.errors else 0
    finally:
        await moderator.follow_ups.close()
        await repo.close()


def _interrupted(console: Console, source: TextIO) -> str:
    if source.isatty():
        return "Interrupted (Ctrl-C). "
    return (f"Interrupted (Ctrl-C) after line {console.lines_read}, which was made and answered; the lines "
            "after it were not read. ")


def last_terminal_game(db: str) -> int | None:
    """The newest unfinished game played in the terminal (one with no Discord thread), so a
    bare `stationmaster` goes on with it instead of starting another. ``db``: a SQLite file or
    a database URL."""
    url = parse_database_url(db)
    if url.kind == "sqlite" and not Path(url.target).exists():
        return None

    async def find() -> int | None:
        async with await open_repository(db) as repo:
            games = await repo.list_games(statuses=["active", "paused"])
        return max((g.id for g in games if g.thread_id is None and g.guild_id is None), default=None)

    return asyncio.run(find())


def run_play(args: argparse.Namespace) -> int:
    if isinstance(sys.stdin, io.TextIOWrapper):
        # Bytes that are not UTF-8 become U+FFFD instead of ending the session with a traceback.
        sys.stdin.reconfigure(errors="replace")
    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:  # Ctrl-C before the session's first prompt
        print("\nstationmaster play: interrupted before the game was ready; nothing more was done. "
              "`stationmaster play --game N` resumes a game that was saved.", file=sys.stderr)
        return 130
    except StorageError as error:  # a database URL that is wrong or a server that is down
        print(f"stationmaster play: {error}", file=sys.stderr)
        return 2


def _seconds(text: str, high: float, zero: bool) -> float:
    """A number of seconds from the command line: more than 0 (or from 0, when `zero`) up to `high`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not (0 <= value if zero else 0 < value) or not value <= high:  # (NaN fails this too)
        allowed = f"from 0 to {high:g}" if zero else f"more than 0 and at most {high:g}"
        raise argparse.ArgumentTypeError(f"must be {allowed} seconds")
    return value


def _budget(text: str) -> float:
    return _seconds(text, MAX_ROUTER_BUDGET, zero=False)


def _follow_up(text: str) -> float:
    return _seconds(text, MAX_FOLLOW_UP, zero=True)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=whole_number(0, INT64_MAX), default=None, help="random seed (default: random)")
    parser.add_argument("--site-rules", action="store_true",
                        help="follow 18xx.games' reading of every rule option (default: the rulebook's)")
    parser.add_argument("--db", default=DEFAULT_DB,
                        help=f"where games are kept: a SQLite file (default {DEFAULT_DB}), sqlite:///FILE "
                             "or postgresql://USER@HOST:PORT/DATABASE")
    parser.add_argument("--out", default="./stationmaster-images", help="folder for the PNG pictures")
    parser.add_argument("--images", choices=("each", "end", "none"), default="each",
                        help="write pictures after each move (default), only at the end, or never")
    parser.add_argument("--game", type=whole_number(1, INT64_MAX), default=None, help="continue a stored game instead of a new one")
    parser.add_argument("--strict", action="store_true", help="stop at the first refused command (exit 1)")
    parser.add_argument("--router-budget", type=_budget, default=2.0,
                        help=f"seconds for the route optimizer (more than 0, at most {MAX_ROUTER_BUDGET:g})")
    parser.add_argument("--router-follow-up", type=_follow_up, default=20.0,
                        help="seconds it searches on by itself after a proposal it could not prove, posting "
                             f"a better or proven answer (0 to {MAX_FOLLOW_UP:g}; 0: only /game routes)")


def add_subcommands(subparsers: Any) -> None:
    parser = subparsers.add_parser("play", help="play a game in the terminal (no Discord needed)")
    labels = ", ".join(info.label for info in title_infos())
    parser.add_argument("title", nargs="?", default=default_title(), help=f"the game: {labels}")
    parser.add_argument("--players", default="Alice,Bob,Carol", help="names in seat order, comma-separated")
    add_play_arguments(parser)
    parser.set_defaults(func=run_play)

"""The moves a game makes by itself after each action, as 18xx.games makes them: the players'
standing orders (`engine.core.programs`), a title's moves no one decides (18USA: the bidder
who cannot reach the minimum bid passes), and a company nobody presides passing
(`engine.legal.unattended_move`).

After a top-level action (not undo or redo), the step the game waits for is asked what it does
by itself for the entity to act; each move it answers is made in turn, and the question is asked
again, until the answer is nothing. The chain crosses turns and rounds: standing orders fire one
at a time, in turn order, as play reaches their owners. The moves are stored in the top-level
action's `auto_actions`, in the site's form (no id, `created_at` kept), and a replay makes
exactly those again rather than working them out (`BaseGame.apply`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from engine.core.game import BaseGame
from engine.core.step import Move, controller
from engine.legal import unattended_move

# More moves than any chain makes (a stock round of passes is a few dozen): past it the chain
# stops, and the game waits for a player.
MOST_MOVES = 2_000

# Why the game made a move by itself.
STANDING_ORDER = "standing order"  # a player's program
RULE = "rule"  # a move the rules leave no choice about (18USA: a bidder who cannot bid passes)
UNATTENDED = "unattended"  # a company nobody presides


@dataclass(frozen=True)
class AutomaticMove:
    """One move the game made by itself: as stored, why, and the log lines it wrote."""

    move: dict[str, Any]
    cause: str
    lines: tuple[str, ...]


def automatic_moves(game: BaseGame) -> tuple[list[Move], str]:
    """What the game does by itself now, before anyone decides, and why: a move the rules
    force, a standing order's moves, or a move no one decides; [] when the game waits for a
    player."""
    if game.finished:
        return [], ""
    rnd = game.round
    step = rnd.blocking_step(game)
    if step is None:
        return [], ""
    entity = step.acting_entity(game, rnd)
    if entity is None:
        return [], ""
    rules = type(game).PROGRAM_RULES
    forced = rules.forced(game, step, entity)
    if forced:
        return forced, RULE
    moves = rules.answer(game, step, entity)
    if moves:
        return moves, STANDING_ORDER
    if controller(entity) is None:
        unattended = unattended_move(game)
        if unattended is not None:
            return [unattended], UNATTENDED
    return [], ""


def cause_of(answer: tuple[list[Move], str], move: dict[str, Any]) -> str:
    """Why the game made a recorded automatic move, from what it would make at that point
    (`automatic_moves`): that answer's cause if its first move is this one, else a standing
    order's (a log from elsewhere may record what today's rules would not make)."""
    moves, cause = answer
    return cause if moves and comparable(moves[:1]) == comparable([move]) else STANDING_ORDER


def pass_for_absent(game: BaseGame, absent: Collection[str]) -> Move | None:
    """The pass to make for the player the game waits for, if they are `absent` (player keys)
    and passing is the only sensible choice there (`ProgramRules.idle_pass`); else None."""
    if game.finished:
        return None
    rnd = game.round
    step = rnd.blocking_step(game)
    entity = step.acting_entity(game, rnd) if step is not None else None
    player = controller(entity)
    if step is None or entity is None or player is None or player.key not in absent:
        return None
    return type(game).PROGRAM_RULES.idle_pass(game, step, entity)


def follow_up(game: BaseGame, created_at: int | None = None,
              stamp: Callable[[int], int | None] | None = None, safe: bool = True,
              account: list[AutomaticMove] | None = None) -> list[dict[str, Any]]:
    """Make the moves that follow the action just processed, and return them as stored:
    `created_at` is the top-level action's (or `stamp(n)` gives the n-th move's), as the site
    stamps its automatic moves; `account`, if given, receives each move with its cause and log
    lines. With `safe`, a move the rules refuse (which would be a bug) ends the chain before it,
    with the game as after the moves made; without, the error is raised and the game is left
    half-way (a replay, which stops there)."""
    made: list[dict[str, Any]] = []
    told: list[AutomaticMove] = []
    checkpoint: dict[str, Any] | None = None
    refused = False
    while not refused and len(made) < MOST_MOVES:
        moves, cause = automatic_moves(game)
        if not moves:
            break
        if safe and checkpoint is None:
            checkpoint = game.checkpoint()  # one copy for the chain, taken only if there is one
        for move in moves:
            when = stamp(len(made)) if stamp is not None else created_at
            stored = {**move, "created_at": when} if when is not None else dict(move)
            before = len(game.log)
            try:
                game.apply_automatic(stored)
            except Exception:
                if checkpoint is None:
                    raise
                game.restore(checkpoint)
                for earlier in made:
                    game.apply_automatic(earlier)
                refused = True
                break
            made.append(stored)
            told.append(AutomaticMove(stored, cause, tuple(game.log[before:])))
    if account is not None:
        account.extend(told)
    return made


def comparable(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Automatic moves as the site compares them: everything but the time."""
    return [{key: value for key, value in move.items() if key not in ("created_at", "id", "user")} for move in moves]

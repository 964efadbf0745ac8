"""What the terminal shows a player about their choices: `/moves`, the short list after each
move, and `/lay hex:J5` alone (the tiles and rotations that fit there).

All of it comes from the Moderator's autocomplete, which asks the engine's legal moves, so
the terminal offers exactly what Discord's autocomplete offers.
"""

from __future__ import annotations

from bot.commands import candidate_moves
from bot.errors import CommandError
from bot.model import Actor
from bot.moderator import Moderator
from bot.replies import controller
from bot.vocabulary import SUGGESTED
from engine.core.commands import CommandSpec
from engine.legal import legal_moves
from engine.status import status_lines


def _first_choosable(spec: CommandSpec) -> str | None:
    """The option whose choices best say what a command can do now: its first one that
    autocomplete fills (the hex of /lay, the company of /bid, the train of /scrap)."""
    return next((o.name for o in spec.options if o.choice_field is not None or (spec.word, o.name) in SUGGESTED),
                None)


def _listing(labels: list[str], limit: int) -> str:
    shown = "; ".join(labels[:limit])
    return shown + (f"; … {len(labels) - limit} more" if len(labels) > limit else "")


async def choices_text(moderator: Moderator, game_id: int, limit: int = 6) -> str:
    """One line per command each acting player can use now (every word of the title's table
    that the legal moves allow them), with the first choices of its first choosable option."""
    session = await moderator.sessions.get(game_id)
    if session.broken is not None:
        return session.broken
    if session.game is None or session.game.finished or session.loaded.game.status != "active":
        return ""
    state = session.game.state
    moves = legal_moves(state)
    by_id = {str(seat.player_id): seat for seat in session.seats}
    deciders = dict.fromkeys(str(controller(state, move)) for move in moves)  # a president's loan too
    lines = []
    for seat in [by_id[player] for player in deciders if player in by_id]:
        actor = Actor(None, seat.display_name, True)
        for spec in type(state).COMMANDS:
            try:
                candidate_moves(state, moves, seat.player_id, spec.word)
            except CommandError:
                continue
            option = _first_choosable(spec)
            choices = await moderator.suggest(game_id, actor, spec.word, option, "", {}) if option else []
            # What to type must show: a label that does not hold its value (an attachment's
            # words for the code "0-1") is given after the value.
            shown = [label if str(value) in label else f"{value} ({label})" for label, value in choices]
            listed = f" {option}: {_listing(shown, limit)}" if choices else ""
            lines.append(f"  @{seat.display_name} /{spec.word}{listed}")
    # A move listed here that would put a company into liquidation is named with it.
    acting = set(deciders) | {str(move["entity"]) for move in moves}
    lines += [f"  Warning: {line.text}" for line in status_lines(state) if line.warning and line.about & acting]
    return "\n".join(lines)


async def lay_text(moderator: Moderator, game_id: int, actor: Actor, coord: str) -> str | None:
    """The tiles that fit on ``coord`` and, for each, its rotations and where their track goes;
    None if the actor cannot lay a tile there."""
    tiles = await moderator.suggest(game_id, actor, "lay", "tile", "", {"hex": coord})
    if not tiles:
        return None
    lines = [f"Tiles that fit on {coord.upper()}:"]
    for label, tile in tiles:
        rotations = await moderator.suggest(game_id, actor, "lay", "rotation", "",
                                            {"hex": coord, "tile": tile})
        lines.append(f"  {label.split(' — ')[0]}: " + "; ".join(text for text, _ in rotations))
    lines.append(f"Lay one with: @{actor.name} /lay hex:{coord.upper()} tile:<tile> rotation:<n>")
    return "\n".join(lines)

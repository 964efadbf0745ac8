"""What the terminal shows a player about their choices: `/moves`, the short list after each
move, and `/lay hex:J5` alone (the tiles and rotations that fit there).

All of it comes from the Moderator's autocomplete, which asks the engine's legal moves, so
the terminal offers exactly what Discord's autocomplete offers.
"""

from __future__ import annotations

from bot.model import Actor
from bot.moderator import Moderator
from bot.replies import acting_seats

# The option whose choices best say what a command can do now.
FIRST_OPTION = {"bid": "company", "par": "corporation", "buy": "corporation", "sell": "corporation",
                "lay": "hex", "token": "city", "dividend": "kind", "train": "train", "issue": "count",
                "redeem": "count", "discard": "train"}


def _listing(labels: list[str], limit: int) -> str:
    shown = "; ".join(labels[:limit])
    return shown + (f"; … {len(labels) - limit} more" if len(labels) > limit else "")


async def choices_text(moderator: Moderator, game_id: int, limit: int = 6) -> str:
    """One line per command each acting player can use, with its first choices."""
    session = await moderator.sessions.get(game_id)
    if session.broken is not None:
        return session.broken
    if session.game is None or session.game.finished or session.loaded.game.status != "active":
        return ""
    lines = []
    for seat in acting_seats(session.game.state, session.seats):
        actor = Actor(None, seat.display_name, True)
        for word, option in FIRST_OPTION.items():
            choices = await moderator.suggest(game_id, actor, word, option, "", {})
            if choices:
                lines.append(f"  @{seat.display_name} /{word} {option}: "
                             f"{_listing([label for label, _ in choices], limit)}")
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

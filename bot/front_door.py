"""How players reach the Moderator, for the words its replies use: Discord (mentions, buttons,
each player at their own client) or the terminal (one keyboard, every command typed after the
name of the player it is for, no buttons).

A reply that names a way to act names one the front door has: no "press Run for $60" where no
button is shown, and `@Bob /game accept` where commands are typed after a player's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from storage import SeatRecord


def discord_mention(seat: SeatRecord) -> str:
    return f"<@{seat.discord_user_id}>" if seat.discord_user_id is not None else f"@{seat.display_name}"


def plain_mention(seat: SeatRecord) -> str:
    return f"@{seat.display_name}"


@dataclass(frozen=True)
class FrontDoor:
    name: str
    mention: Callable[[SeatRecord], str]
    buttons: bool  # replies show buttons players can press
    typed_by_name: bool  # a player's command is typed after their name: @Bob /game accept

    def seat_command(self, seat: SeatRecord | None, words: str) -> str:
        """How the player of ``seat`` gives the command ``words`` (such as "/game accept")."""
        return f"@{seat.display_name} {words}" if self.typed_by_name and seat is not None else words

    def press(self, label: str, where: str = "") -> str:
        """" (or press “Run for $60” under the last move)" where buttons are shown, else nothing."""
        return f" (or press “{label}”{where})" if self.buttons else ""


DISCORD = FrontDoor("Discord", discord_mention, buttons=True, typed_by_name=False)
TERMINAL = FrontDoor("terminal", plain_mention, buttons=False, typed_by_name=True)

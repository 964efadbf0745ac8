"""Values passed between the Moderator and its front doors (Discord, terminal).

They carry no transport types: a front door turns a Reply into a Discord message or into
printed lines and files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Actor:
    """Who sent a command.

    ``user_id`` is the Discord user (None in the terminal, where seats are matched by name);
    ``manager`` marks someone with admin rights over every game (a server manager, or the
    person at the terminal, who types for the whole table).
    """

    user_id: int | None
    name: str
    manager: bool = False


@dataclass(frozen=True)
class Command:
    """A command as typed: its word (``lay``, ``game undo``) and its options."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    # When the player sent it (Unix seconds; Discord's interaction time, the terminal's read
    # time): a command sent before the same player's identical move was committed is that
    # move sent twice, not a second one.
    sent_at: float | None = field(default=None, compare=False)
    # The game's seq where the player typed it (the terminal: as its last reply showed the
    # game): a move (or an undo) is refused if the game has moved on since, in whichever
    # process it lands, so a copy made at the same position is never made twice.
    at_seq: int | None = field(default=None, compare=False)

    def get(self, key: str, default: Any = None) -> Any:
        value = self.options.get(key, default)
        return default if value is None else value


@dataclass(frozen=True)
class Picture:
    """A file to attach: a PNG picture or an exported JSON document."""

    name: str
    data: bytes


@dataclass(frozen=True)
class Button:
    """A small choice offered under a reply; ``verb`` is what the moderator runs on a click."""

    label: str
    verb: str  # "pass", "dividend:payout", "run:990", "join", "start"
    style: str = "secondary"  # primary, secondary, success, danger


@dataclass(frozen=True)
class Whisper:
    """Words for one player alone, whoever's command caused them (their standing order ended):
    a direct message on Discord, a line marked for them in the terminal."""

    user_id: int | None
    name: str
    text: str


@dataclass
class Reply:
    """What a front door shows after a command.

    ``private`` replies (errors, choices lists) go only to the caller; ``mentions`` are the
    Discord users to ping (only the players who must act now); ``document`` is an exported
    game (printed on its own line in the terminal, attached as a file on Discord);
    ``whispers`` are for one player each, not the channel.
    """

    text: str
    ok: bool = True
    private: bool = False
    mentions: tuple[int, ...] = ()
    pictures: list[Picture] = field(default_factory=list)
    buttons: list[Button] = field(default_factory=list)
    document: dict[str, Any] | None = None
    game_id: int | None = None
    seq: int | None = None
    whispers: tuple[Whisper, ...] = ()

    @classmethod
    def error(cls, text: str, game_id: int | None = None) -> Reply:
        return cls(text=text, ok=False, private=True, game_id=game_id)

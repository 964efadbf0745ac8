"""Reading a terminal line: ``@Player 2 /lay hex:E11 tile:57 rotation:2``.

An option's value runs to the next `` <known option>:`` of that command, so values may hold
spaces and colons (``/run routes:2-0: I14-J13; 3-0: ...``, ``/action json:{"type": "pass"}``).
"""

from __future__ import annotations

import re
from typing import Any

from bot.model import Command
from bot.vocabulary import ALL, AUTO, GAME, MOVES, Spec, move_spec
from engine import command_table
from untrusted.quote import acting_character, cut, quoted


class ParseError(ValueError):
    pass


# /game words with no use in the terminal: it creates and starts its game from the command line,
# every seat is at its keyboard, and reminders are sent on Discord only.
NOT_IN_THE_TERMINAL = frozenset({"game new", "game join", "game start", "game replace", "game settings"})
# /game words a player gives for their own seat, so typed after their name as moves are.
BY_A_PLAYER = frozenset({"game routes", "game accept", "game decline"})


def _help(title: str | None = None) -> str:
    """The terminal's help: every title's moves, or only those of the game's title in its own
    words (an 18USA game is not shown /par or /issue, and /bid says what an 18USA bid is for),
    and the /game commands that work in the terminal, as they are typed there."""
    moves = MOVES if title is None else {**{w: move_spec(c) for w, c in command_table(title).items()},
                                         "action": MOVES["action"]}
    lines = ["Moves (write @<player> before each, e.g. @Alice /pass):"]
    for spec in moves.values():
        lines.append(_line("", spec))
    lines.append("Game commands (@<player> before those a player gives for their own seat):")
    for spec in GAME.values():
        if spec.name not in NOT_IN_THE_TERMINAL:
            lines.append(_line("@<player> " if spec.name in BY_A_PLAYER else "", spec))
    lines.append("Standing orders (each player's own: @<player> before each):")
    for spec in AUTO.values():
        lines.append(_line("@<player> ", spec))
    lines += [
        "In the terminal:",
        "  /moves — the choices of every player who must act now",
        "  @<player> /lay hex:J5 — the tiles that fit on J5, each rotation and the hexes its track leads to",
        "  Rotations 0-5 turn a tile in 60° steps; the lists name the neighbouring hexes its track reaches.",
        "  Everyone shares this keyboard, so /game undo takes back the last move whoever made it",
        "  (/game undo steps:N takes back N).",
        "  Ctrl-D or Ctrl-C ends the session; stationmaster play --game N goes on with it.",
    ]
    return "\n".join(lines)


def _line(prefix: str, spec: Spec) -> str:
    options = " ".join(f"{o.name}:…" if o.required else f"[{o.name}:…]" for o in spec.options)
    return f"  {prefix}/{spec.name} {options}".rstrip() + f" — {spec.description}"


HELP = _help()


def help_text(title: str | None) -> str:
    return _help(title) if title is not None else HELP


TRUE = {"true", "yes", "y", "1", "on"}
FALSE = {"false", "no", "n", "0", "off"}
MAX_LINE = 6_000  # as a Discord slash command's options together
# Numbers as Discord's integer and number options take them: the digits 0-9 only (not "١٠٠" or
# "１００", which Python's int() reads), no "1_00", within what a JSON number holds exactly.
WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
LARGEST = 2**53 - 1


def _convert(spec: Spec, name: str, raw: str) -> Any:
    option = spec.option(name)
    assert option is not None
    value = raw.strip()
    if option.kind is int:
        digits = value[1:] if value.startswith("$") else value
        if not WHOLE.fullmatch(digits):
            raise ParseError(f"{name}: must be a whole number written with the digits 0-9, not {quoted(value)}")
        number = int(digits) if len(digits) <= len(str(LARGEST)) + 1 else LARGEST + 1
        if abs(number) > LARGEST:
            raise ParseError(f"{name}: must lie within -{LARGEST} and {LARGEST}")
        return number
    if option.kind is float:
        if not DECIMAL.fullmatch(value) or not abs(float(value)) <= LARGEST:
            raise ParseError(f"{name}: must be a number written with the digits 0-9 (such as 2.5), "
                             f"not {quoted(value)}")
        return float(value)
    if option.kind is bool:
        if value.lower() in TRUE:
            return True
        if value.lower() in FALSE:
            return False
        raise ParseError(f"{name}: must be true or false, not {quoted(value)}")
    if len(value) > option.max_length:
        raise ParseError(f"{name}: takes at most {option.max_length} characters; this one has {len(value)}")
    return value


def parse_options(spec: Spec, text: str, require: bool = True) -> dict[str, Any]:
    text = text.strip()
    options: dict[str, Any] = {}
    if text and not spec.options:
        raise ParseError(f"/{spec.name} takes no options")
    if text:
        names = "|".join(re.escape(o.name) for o in spec.options)
        pieces = re.split(rf"(?:^|\s+)({names}):", text)
        if pieces[0].strip():
            allowed = ", ".join(f"{o.name}:" for o in spec.options)
            raise ParseError(f"/{spec.name} does not understand {quoted(pieces[0].strip())}; its options are {allowed}")
        for name, raw in zip(pieces[1::2], pieces[2::2], strict=True):
            if name in options:
                raise ParseError(f"{name}: is given twice")
            option = spec.option(name)
            if not raw.strip() and option is not None and option.kind is not str:
                continue  # "price:" with nothing after it: not given (a text option keeps its "")
            options[name] = _convert(spec, name, raw)
    # A command without its required options is refused as one with some of them (Discord
    # asks for them before sending): never a guess at the first choice.
    missing = [o.name for o in spec.options if o.required and o.name not in options]
    if missing and require:
        raise ParseError(f"/{spec.name} needs {', '.join(m + ':' for m in missing)}")
    return options


def too_long(length: int) -> str:
    """The refusal of a line of ``length`` characters, over MAX_LINE."""
    return f"that line is {length:,} characters long; a command has at most {MAX_LINE:,}"


def parse_line(line: str, require: bool = True) -> tuple[str | None, Command] | None:
    """(player name or None, command), or None for a blank or comment line; ``require=False``
    accepts a command without its required options (to list the choices for them)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    if len(text) > MAX_LINE:
        raise ParseError(too_long(len(text)))
    if (char := acting_character(text)) is not None:
        raise ParseError(f"that line holds the control character U+{ord(char):04X} (at character "
                         f"{text.index(char) + 1}); a command is printable text")
    name: str | None = None
    if text.startswith("@"):
        player, sep, rest = text[1:].partition(" /")
        if not sep or not player.strip():
            raise ParseError("write @<player> /<command> option:value …, e.g. @Alice /pass")
        name, text = player.strip(), "/" + rest
    if not text.startswith("/"):
        raise ParseError("start a move with the player's name and a command, e.g. @Alice /pass; "
                         "game commands start with / (/game status, /moves, /help)")
    words = text[1:].split(None, 2)
    if not words:
        raise ParseError("a command word follows the /")
    if words[0] == "help":
        return name, Command("help")
    word = words[0]
    rest = text[1 + len(word):]
    if word == "auto":
        if len(words) > 1 and ":" not in words[1]:
            word, rest = f"auto {words[1]}", words[2] if len(words) > 2 else ""
        else:
            word = "auto show"  # "/auto" alone shows the player's standing order
    elif word == "game":
        if len(words) < 2:
            raise ParseError("/game needs a word: " + ", ".join(sorted(n.split()[1] for n in GAME)))
        word = f"game {words[1]}"
        rest = text[1:].split(None, 2)[2] if len(words) > 2 else ""
    spec = ALL.get(word)
    if spec is None:
        raise ParseError(f"unknown command /{cut(word)}; /help lists the commands")
    return name, Command(word, parse_options(spec, rest, require))

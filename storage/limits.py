"""Limits on what a game may hold, so that nobody can fill the database or the bot's memory.

A real 18Texas game has about 500 actions and an 18USA game rarely more than 2,000; player
names come from Discord (at most 32 characters) or 18xx.games. Both the importers and the
bot's own commands check against these numbers.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from untrusted.files import MAX_LOG_BYTES
from untrusted.json_text import INT_MAX, INT_MIN

MAX_IMPORT_BYTES = MAX_LOG_BYTES
MAX_ACTIONS = 5_000
MAX_NAME_LENGTH = 32
MAX_OPEN_GAMES_PER_USER = 10  # unfinished games one Discord user created or imported


class LimitError(ValueError):
    """A value is over a limit or not allowed; the message says what is allowed."""


# What ends a player's name in a terminal line ("@Ann Lee /pass"): a name holding it could never move.
NAME_END = " /"


def name_key(name: str) -> str:
    """What two names are compared by: letters as NFKC folds them, in any case, without the
    invisible characters (zero-width spaces and joiners, bidi controls: Unicode's format
    characters) and with runs of spaces as one. Two names with one key look the same."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    visible = "".join(char for char in folded if unicodedata.category(char) != "Cf")
    return " ".join(visible.split())


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, or None if it can."""
    if not name.strip():
        return "a player's name cannot be empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"the name {name[:MAX_NAME_LENGTH]!r}… is {len(name)} characters long; at most {MAX_NAME_LENGTH}"
    for char in name:
        category = unicodedata.category(char)
        if category in ("Cc", "Cs", "Zl", "Zp"):  # control, lone surrogate, line/paragraph breaks
            what = "a lone surrogate" if category == "Cs" else "a control character"
            return (f"the name {name.encode('utf-8', 'backslashreplace').decode()!r} holds {what} "
                    f"(U+{ord(char):04X}); names are printable text")
    if name != name.strip():
        return f"the name {name!r} starts or ends with spaces"
    if not name_key(name):
        return f"the name {_shown(name)} holds only invisible characters"
    if NAME_END in name:
        return (f"the name {name!r} holds {NAME_END!r}, which ends a player's name in a terminal line "
                f"(@{name.split(NAME_END)[0]} /pass), so that seat could never move")
    return None


def _shown(name: str) -> str:
    """A name in quotes with its invisible characters written out (U+200B)."""
    return "'" + "".join(f"<U+{ord(c):04X}>" if unicodedata.category(c) == "Cf" else c for c in name) + "'"


def twin_problem(name: str, others: Iterable[str]) -> str | None:
    """Why ``name`` cannot sit beside ``others``: the same name, in any case or differing only by
    invisible characters."""
    key = name_key(name)
    for other in others:
        if name_key(other) != key:
            continue
        if name.casefold() == other.casefold():
            return f"two players are called {name!r}; every player needs a different name"
        return (f"the names {_shown(other)} and {_shown(name)} differ only by invisible characters or "
                "the way a letter is written; every player needs a name others can tell apart")
    return None


def check_names(names: Iterable[str]) -> None:
    """Raise LimitError unless every name is allowed and no two look the same."""
    seen: list[str] = []
    for name in names:
        problem = name_problem(name) or twin_problem(name, seen)
        if problem is not None:
            raise LimitError(problem)
        seen.append(name)


def in_int64(value: int) -> bool:
    return INT_MIN <= value <= INT_MAX

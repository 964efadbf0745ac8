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
    return None


def check_names(names: Iterable[str]) -> None:
    """Raise LimitError unless every name is allowed and no two are the same (ignoring case)."""
    seen: dict[str, str] = {}
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise LimitError(problem)
        key = name.casefold()
        if key in seen:
            raise LimitError(f"two players are called {name!r}; every player needs a different name")
        seen[key] = name


def in_int64(value: int) -> bool:
    return INT_MIN <= value <= INT_MAX

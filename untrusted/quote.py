"""What a refusal quotes of what someone typed or sent: enough to recognise it, never the
whole of it (a refusal that echoed a 100 KB line back would itself be the flood)."""

from __future__ import annotations

import re

MAX_QUOTE = 60
MAX_RUN = 200  # a word longer than this (a path is shorter) is something someone sent, not ours
MAX_MESSAGE = 2000  # Discord's limit for a message: no refusal needs more
# What a message quotes and may be long: a passage in quotes as repr writes one (an apostrophe
# inside a word, "company's", neither opens nor closes one), or a run with no space.
# Characters a terminal acts on instead of showing (the bell, escape sequences that clear the
# screen or recolour it, C1 controls) and those that reorder the text shown around them (bidi
# embeddings, overrides and isolates): a refusal names them, it does not send them.
_ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LONG_QUOTE_OR_RUN = re.compile(
    rf"""(?<!\w)'[^'\n]{{{MAX_RUN},}}'(?!\w)|(?<!\w)"[^"\n]{{{MAX_RUN},}}"(?!\w)|\S{{{MAX_RUN + 1},}}""")


def cut(text: str, limit: int = MAX_QUOTE) -> str:
    """``text``, or its first ``limit`` characters and how many more there were."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def quoted(text: str, limit: int = MAX_QUOTE) -> str:
    """``text`` in quotes as ``repr`` writes it, cut to ``limit`` characters."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}… ({len(text) - limit:,} more characters)"


def acting_character(text: str) -> str | None:
    """The first character of ``text`` a terminal would act on or reorder text by, or None."""
    found = _ACTING.search(text)
    return found.group() if found else None


def shown(text: str) -> str:
    """``text`` with each character a terminal would act on written as <U+XXXX>."""
    return _ACTING.sub(lambda char: f"<U+{ord(char.group()):04X}>", text)


def shortened(message: str, limit: int = MAX_MESSAGE) -> str:
    """A message that may hold values from a file or a command, whoever built it: each quoted
    passage or run without a space of more than ``MAX_RUN`` characters cut as a quote is, the
    whole cut to ``limit`` (a log's action type of 100 KB is named, not echoed), and control
    characters written as <U+XXXX> (a log's escape sequence does not clear the reader's screen)."""
    return shown(cut(_LONG_QUOTE_OR_RUN.sub(lambda long: cut(long.group()), message), limit))

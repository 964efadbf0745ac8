"""What a refusal quotes of what someone typed or sent: enough to recognise it, never the
whole of it (a refusal that echoed a 100 KB line back would itself be the flood)."""

from __future__ import annotations

MAX_QUOTE = 60


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

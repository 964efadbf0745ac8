"""Message nonces as Discord enforces them: a message created with ``enforce_nonce`` whose
nonce the same author used in the same channel a few minutes before is not created again;
Discord answers with the earlier message instead (how a sender retries without doubles)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

WINDOW_SECONDS = 300.0  # Discord documents "the past few minutes"


@dataclass
class Nonces:
    _seen: dict[tuple[int, int, str], tuple[int, float]] = field(default_factory=dict)
    reused: int = 0  # sends answered with an earlier message (for tests)

    def earlier(self, channel_id: int, author_id: int, body: dict[str, object]) -> int | None:
        """The id of the message this body repeats, if it enforces a nonce already used."""
        nonce = body.get("nonce")
        if nonce is None or not body.get("enforce_nonce"):
            return None
        found = self._seen.get((channel_id, author_id, str(nonce)))
        if found is None or time.monotonic() - found[1] > WINDOW_SECONDS:
            return None
        self.reused += 1
        return found[0]

    def remember(self, channel_id: int, author_id: int, body: dict[str, object], message_id: int) -> None:
        nonce = body.get("nonce")
        if nonce is not None and body.get("enforce_nonce"):
            self._seen[(channel_id, author_id, str(nonce))] = (message_id, time.monotonic())

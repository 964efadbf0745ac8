"""Per-route rate limits with Discord's headers and 429 answers.

Discord counts requests per bucket (a route and its major parameter, e.g. one channel) in a
fixed window. Every answer carries ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``;
discord.py reads them and waits by itself once ``Remaining`` is 0. A request beyond the limit
gets 429 with ``retry_after`` (JSON) and ``Retry-After`` (header); discord.py sleeps and retries,
and only treats the 429 as Discord's (not a Cloudflare ban) when a ``Via`` header is present.
Sending again to a bucket before its ``retry_after`` has passed is a bot bug: the fake records
it as an error.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .validation import DiscordError

# The write limit Discord applies to one channel's messages: 5 per 5 seconds.
CHANNEL_MESSAGES = "channel-messages"
DEFAULT_RULES: dict[str, tuple[int, float]] = {CHANNEL_MESSAGES: (5, 5.0)}
EARLY_TOLERANCE = 0.05  # seconds: timer jitter, not a client ignoring retry_after


class RateLimited(DiscordError):
    """A 429; not a refusal the test fails on, since the client is told when to retry."""

    def __init__(self, retry_after: float, headers: dict[str, str], ignored: bool) -> None:
        super().__init__(429, 0, "You are being rate limited.", headers)
        self.retry_after = retry_after
        self.ignored = ignored  # the client sent again before retry_after had passed

    def body(self) -> dict[str, object]:
        # Rounded up, so a client that sleeps exactly this long is never early.
        return {"message": self.message, "retry_after": math.ceil(self.retry_after * 1000) / 1000,
                "global": False}


@dataclass
class Bucket:
    limit: int
    window: float
    started: float = -math.inf
    used: int = 0
    blocked_until: float = -math.inf  # set by a 429: the client must wait until then


@dataclass
class RateLimits:
    clock: Callable[[], float]
    rules: dict[str, tuple[int, float]] = field(default_factory=lambda: dict(DEFAULT_RULES))
    buckets: dict[tuple[str, str], Bucket] = field(default_factory=dict)
    # Every 429 answered, as (rule, key): tests may check that a burst was slowed down.
    hits: list[tuple[str, str]] = field(default_factory=list)

    def take(self, rule: str, key: str) -> dict[str, str]:
        """Count one request; the headers for its answer, or RateLimited (a 429) over the limit."""
        limit, window = self.rules[rule]
        bucket = self.buckets.get((rule, key))
        now = self.clock()
        if bucket is None or (bucket.limit, bucket.window) != (limit, window):
            bucket = self.buckets[(rule, key)] = Bucket(limit, window)
        if now >= bucket.started + bucket.window:
            bucket.started, bucket.used = now, 0
        reset_after = bucket.started + bucket.window - now
        headers = {
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Bucket": f"fake-{rule}",
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        }
        if bucket.used >= limit:
            ignored = now < bucket.blocked_until - EARLY_TOLERANCE
            bucket.blocked_until = bucket.started + bucket.window
            self.hits.append((rule, key))
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                            "Retry-After": str(math.ceil(reset_after)), "Via": "1.1 google"})
            raise RateLimited(reset_after, headers, ignored)
        bucket.used += 1
        headers["X-RateLimit-Remaining"] = str(limit - bucket.used)
        return headers

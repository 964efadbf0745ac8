"""Snowflake ids shaped like Discord's, so discord.py derives sensible creation times."""

import itertools
import time

DISCORD_EPOCH_MS = 1420070400000

_counter = itertools.count(1)


def new_snowflake() -> int:
    """Return a unique snowflake: milliseconds since the Discord epoch, then a counter."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def snowflake_on_shard(shard_id: int, shard_count: int) -> int:
    """A unique snowflake whose guild would be served by ``shard_id`` of ``shard_count``
    (Discord: ``(id >> 22) % shard_count``): a millisecond or a few earlier than now."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    ms -= (ms - shard_id) % shard_count
    return (ms << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    """Current UTC time in the ISO-8601 form Discord uses for timestamps."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + ".000000+00:00"

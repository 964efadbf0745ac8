"""Point the real discord.py client at a FakeDiscord and run a bot against it.

discord.py 2.7.1 builds every REST URL from the class attribute ``discord.http.Route.BASE``
(webhooks and interaction callbacks included) and opens the gateway at
``DiscordWebSocket.DEFAULT_GATEWAY`` (a yarl.URL) without asking REST first, unless it is an
AutoShardedClient, which calls GET /gateway/bot (served by the fake too). Resumes use READY's
``resume_gateway_url``, which the fake sets to itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TypeVar

import discord
import discord.gateway
import discord.http
import discord.utils
import yarl

from .server import FakeDiscord, FakeDiscordTimeout

ClientT = TypeVar("ClientT", bound=discord.Client)


class ZstdNotSupported(RuntimeError):
    pass


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Iterator[FakeDiscord]:
    """Make every discord.py client in this process talk to ``fake``; restores on exit."""
    compression = discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
    if compression != "zlib-stream":
        # discord.py picks zstd-stream when zstandard is importable; the fake speaks zlib only.
        raise ZstdNotSupported(
            f"discord.py will ask for compress={compression}; fakediscord supports zlib-stream only. "
            "Uninstall zstandard from the test environment."
        )
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_url
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.ws_url)
    try:
        yield fake
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord,
    client: ClientT,
    *,
    wait_ready: bool = False,
    timeout: float = 10.0,
) -> AsyncIterator[ClientT]:
    """Start ``client`` (login, setup_hook, gateway) and stop it on exit.

    Returns once the fake has sent READY and GUILD_CREATEs, so interactions can be sent.
    ``wait_ready=True`` also waits for ``on_ready``, which discord.py delays by the client's
    ``guild_ready_timeout`` (2 s by default; pass e.g. ``guild_ready_timeout=0.05`` to the client).
    """
    before = len([s for s in fake.gateway.sessions if s.identified.is_set()])
    task = asyncio.create_task(client.start(fake.token), name="fakediscord-bot")
    try:
        wait = asyncio.create_task(fake.wait_for_session(after=before, timeout=timeout))
        done, _ = await asyncio.wait({task, wait}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            wait.cancel()
            # The bot stopped before connecting: surface its own exception.
            task.result()
            raise FakeDiscordTimeout(f"the bot exited before connecting\n{fake.describe()}")
        wait.result()
        if wait_ready:
            await asyncio.wait_for(client.wait_until_ready(), timeout)
        yield client
    finally:
        if not client.is_closed():
            await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await asyncio.wait_for(task, timeout)
            except discord.ConnectionClosed:
                pass
        if not task.done():
            task.cancel()

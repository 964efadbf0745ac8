"""A local fake of the Discord gateway and REST API for end-to-end bot tests.

The real discord.py client connects to it over HTTP and a websocket on 127.0.0.1; tests play
the Discord users (slash commands, autocomplete, button clicks) and inspect what the bot sent.
See ``server.FakeDiscord`` for the entry point and ``fixtures`` for the pytest fixtures.

Typical test (the ``fake_discord`` fixture is started and has discord.py pointed at it)::

    async def test_ping(fake_discord):
        alice = fake_discord.add_user("alice")
        async with running_bot(fake_discord, MyBot(...)) as bot:   # bot.start(fake.token)
            handle = await fake_discord.invoke_slash(alice, "game", "new", options={"title": "18USA"})
            message = await handle.wait_message()            # StoredMessage
            assert message.content == "..." and not message.ephemeral

Other user actions: ``autocomplete(...)`` + ``handle.wait_choices()``, ``click(user, message,
custom_id, values=...)``, ``submit_modal(user, handle, {...})``, ``send_message(user, channel,
text)``. State: ``messages_in(channel)``, ``threads()``, ``commands`` (synced), ``interactions``,
``requests``, ``unknown_routes``, ``errors``.
"""

from .client import pointed_at, running_bot
from .commands import CommandNotSynced
from .handles import InteractionHandle
from .interactions import CannotInvoke
from .models import (
    CallbackRecord,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    InteractionRecord,
    StoredAttachment,
    StoredMessage,
)
from .server import FakeDiscord, FakeDiscordTimeout

__all__ = [
    "CallbackRecord",
    "CannotInvoke",
    "CommandNotSynced",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeRole",
    "FakeUser",
    "InteractionHandle",
    "InteractionRecord",
    "StoredAttachment",
    "StoredMessage",
    "pointed_at",
    "running_bot",
]

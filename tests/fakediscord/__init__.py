"""A local fake of the Discord gateway and REST API for end-to-end bot tests.

The real discord.py client connects to it over HTTP and a websocket on 127.0.0.1; tests play
the Discord users (slash commands, autocomplete, button clicks) and inspect what the bot sent.
See ``server.FakeDiscord`` for the entry point and ``fixtures`` for the pytest fixtures.
"""

from .client import pointed_at, running_bot
from .handles import InteractionHandle
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

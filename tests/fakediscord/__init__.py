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
``requests``, ``unknown_routes``, ``errors``, ``rate_limits``.

It is as strict as Discord: the first answer to an interaction within 3 seconds (else the user
sees "The application did not respond" and the handle's waits raise ``InteractionFailed``),
follow-ups within the token's 15 minutes (``advance_clock`` jumps ahead), messages of at most
2,000 characters, 10 attachments and 10 MiB per file, button labels of 80 and choices, thread
names and command descriptions of 100 characters, per-channel rate limits (429 with
retry-after). Whatever it refuses is kept in ``errors``: a wait fails at once on a new one
(``FakeDiscordRefused``), and the ``fake_discord`` fixture fails the test at teardown, unless
the test expects them inside ``with fake.expecting_errors() as refused:``.
"""

from .client import pointed_at, running_bot
from .commands import CommandNotSynced
from .handles import InteractionFailed, InteractionHandle
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
from .server import FakeDiscord, FakeDiscordRefused, FakeDiscordTimeout

__all__ = [
    "CallbackRecord",
    "CannotInvoke",
    "CommandNotSynced",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordRefused",
    "FakeDiscordTimeout",
    "FakeGuild",
    "FakeRole",
    "FakeUser",
    "InteractionFailed",
    "InteractionHandle",
    "InteractionRecord",
    "StoredAttachment",
    "StoredMessage",
    "pointed_at",
    "running_bot",
]

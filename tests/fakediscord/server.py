"""FakeDiscord: owns the world state (guilds, users, messages, interactions) and the server.

Tests create one, add users, point discord.py at it (see ``client.pointed_at``), run a bot
(``client.running_bot``) and then act as users through ``invoke_slash``/``autocomplete``/
``click``/``send_message``. Everything the bot does over REST is recorded here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from aiohttp import web

from . import deadlines
from . import interactions as ix
from .bodies import UploadedFile
from .commands import CommandRegistry
from .gateway import Gateway
from .handles import InteractionHandle
from .ids import new_snowflake, snowflake_on_shard
from .messages import apply_body
from .models import (
    ALL_PERMISSIONS,
    DM_CHANNEL,
    EVERYONE_PERMISSIONS,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    InteractionRecord,
    RequestLog,
    StoredMessage,
)
from .nonces import Nonces
from .ratelimits import RateLimits
from .rest import build_app
from .validation import DEFAULT_UPLOAD_LIMIT, check_thread_name

log = logging.getLogger("fakediscord")

T = TypeVar("T")


class FakeDiscordTimeout(AssertionError):
    """The bot did not do what the test waited for; the message tells what it did do."""


class FakeDiscordRefused(AssertionError):
    """Discord would have refused something the bot did (a post, an answer, a late reply)."""


class FakeDiscord:
    """A local Discord: gateway websocket plus REST API on one 127.0.0.1 port."""

    def __init__(self, *, token: str = "fake-bot-token", bot_name: str = "Stationmaster") -> None:
        self.token = token
        self.bot_user = FakeUser(id=new_snowflake(), username=bot_name, bot=True, permissions=ALL_PERMISSIONS)
        # Modern applications share their id with their bot user.
        self.application_id = self.bot_user.id
        self.owner = FakeUser(id=new_snowflake(), username="owner", permissions=ALL_PERMISSIONS)
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self.messages: dict[int, StoredMessage] = {}
        self.nonces = Nonces()  # enforce_nonce: a repeated send returns the first message
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.commands = CommandRegistry(self.application_id)
        self.requests: list[RequestLog] = []
        self.unknown_routes: list[str] = []
        # Everything the fake refused, as Discord would have: a test that causes one fails
        # (its waits at once, and the fixture at teardown) unless it is inside
        # ``expecting_errors()``.
        self.errors: list[str] = []
        self._expecting = 0
        # Discord's clocks: 3 s for the first answer, 15 min for follow-ups (see deadlines.py).
        self.response_deadline = deadlines.RESPONSE_SECONDS
        self.token_lifetime = deadlines.TOKEN_SECONDS
        self._clock_offset = 0.0
        self._timers: list[asyncio.TimerHandle] = []
        self.upload_limit = DEFAULT_UPLOAD_LIMIT
        self.rate_limits = RateLimits(self.now)
        self.gateway = Gateway(self)
        # What GET /gateway/bot recommends (an AutoShardedClient without shard_count runs this many).
        self.recommended_shards = 1
        # How long an interaction waits for a connected bot (covers a RESUME in progress).
        self.session_wait = 2.0
        self._pending_events: list[tuple[str, dict[str, Any]]] = []
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

        self.guild = self.add_guild("Test Guild")
        self.channel = self.add_text_channel("general")

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = build_app(self)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None and server.sockets, "fakediscord: server did not bind"
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway/"

    # -- building the world ------------------------------------------------------------------

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild; ``shard=(shard_id, shard_count)`` gives it an id served by that shard."""
        guild_id = new_snowflake() if shard is None else snowflake_on_shard(*shard)
        guild = FakeGuild(id=guild_id, name=name, owner_id=self.owner.id)
        # The @everyone role shares the guild's id.
        guild.roles[guild.id] = FakeRole(id=guild.id, name="@everyone", permissions=EVERYONE_PERMISSIONS)
        guild.members[self.owner.id] = self.owner
        guild.members[self.bot_user.id] = self.bot_user
        self.guilds[guild.id] = guild
        self._queue_event("GUILD_CREATE", guild.payload)
        return guild

    def add_text_channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        guild = guild or self.guild
        channel = FakeChannel(
            id=new_snowflake(), guild_id=guild.id, name=name, type=TEXT_CHANNEL, position=len(guild.channels)
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self._queue_event("CHANNEL_CREATE", channel.payload)
        return channel

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The direct-message channel between the bot and `user` (one per user, as on Discord)."""
        found = next((c for c in self.channels.values() if c.recipient is user), None)
        if found is None:
            found = FakeChannel(id=new_snowflake(), guild_id=0, name="", type=DM_CHANNEL, recipient=user)
            self.channels[found.id] = found
        return found

    def direct_messages(self, user: FakeUser) -> list[StoredMessage]:
        """What the bot has sent `user` privately, oldest first."""
        channel = next((c for c in self.channels.values() if c.recipient is user), None)
        return [] if channel is None else self.messages_in(channel)

    def add_role(self, name: str, permissions: int = 0, guild: FakeGuild | None = None) -> FakeRole:
        guild = guild or self.guild
        role = FakeRole(id=new_snowflake(), name=name, permissions=permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self._queue_event("GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": role.payload()})
        return role

    def add_user(
        self,
        username: str,
        *,
        permissions: int = EVERYONE_PERMISSIONS,
        roles: list[FakeRole] | None = None,
        guild: FakeGuild | None = None,
    ) -> FakeUser:
        """A human test user, member of ``guild`` (default guild) with these channel permissions."""
        guild = guild or self.guild
        user = FakeUser(
            id=new_snowflake(),
            username=username,
            permissions=permissions,
            role_ids=[r.id for r in roles or []],
        )
        self.users[user.id] = user
        guild.members[user.id] = user
        self._queue_event("GUILD_MEMBER_ADD", lambda: {**user.member_payload(), "guild_id": str(guild.id)})
        return user

    def _queue_event(self, event: str, build: Callable[[], dict[str, Any]]) -> None:
        """World changes after the bot connected reach it before the next event we dispatch."""
        if self.gateway.active_sessions():
            self._pending_events.append((event, build()))

    async def flush_events(self) -> None:
        pending, self._pending_events = self._pending_events, []
        for event, data in pending:
            await self.gateway.broadcast(event, data)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a raw gateway event to every connected bot session."""
        await self.flush_events()
        await self.gateway.broadcast(event, data)

    async def request_reconnect(self) -> None:
        """Make connected clients drop the socket and RESUME (like a Discord gateway restart)."""
        await self.gateway.request_reconnect()

    # -- Discord's clock and refusals ---------------------------------------------------------

    def now(self) -> float:
        """The fake's clock (monotonic seconds), which ``advance_clock`` moves forward."""
        return time.monotonic() + self._clock_offset

    def advance_clock(self, seconds: float) -> None:
        """Let ``seconds`` pass for Discord's clocks (e.g. past an interaction token's 15 minutes)."""
        self._clock_offset += seconds

    def refuse(self, message: str) -> None:
        """Record something Discord would refuse; waits fail on it unless it is expected."""
        self.errors.append(message)
        log.error("fakediscord refused: %s", message)
        self.notify()

    @contextlib.contextmanager
    def expecting_errors(self) -> Iterator[list[str]]:
        """For tests of refusals: the errors recorded inside are moved into the yielded list."""
        start = len(self.errors)
        found: list[str] = []
        self._expecting += 1
        try:
            yield found
        finally:
            self._expecting -= 1
            found.extend(self.errors[start:])
            del self.errors[start:]

    def problems(self) -> list[str]:
        """What must fail the test: refusals, unknown routes, interactions never answered."""
        found = [f"the fake refused: {e}" for e in self.errors]
        found += [f"the bot called a route the fake does not know: {r}" for r in self.unknown_routes]
        found += [deadlines.unanswered(r, self.response_deadline) for r in self.interactions.values()
                  if r.callback is None and r.failure is None]
        return found

    def _deadline_passed(self, record: InteractionRecord) -> None:
        if record.callback is None and record.failure is None:
            record.failure = deadlines.what_the_user_sees(record)
            self.refuse(deadlines.unanswered(record, self.response_deadline))

    # -- waiting -----------------------------------------------------------------------------

    def notify(self) -> None:
        """Wake every waiter: called after each state change."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(self, predicate: Callable[[], T | None], *, timeout: float = 5.0, what: str = "condition") -> T:
        """Wait until ``predicate()`` returns something truthy and return it."""
        deadline = time.monotonic() + timeout
        errors_before = len(self.errors)
        while True:
            result = predicate()
            if result:
                return result
            if len(self.errors) > errors_before and not self._expecting:
                raise FakeDiscordRefused(f"while waiting for {what}: {self.errors[errors_before:]}\n{self.describe()}")
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise FakeDiscordTimeout(f"timed out after {timeout}s waiting for {what}\n{self.describe()}")
            event = self._changed
            try:
                # Re-check at least every 50 ms: predicates may also read the bot's own state,
                # which changes without telling the fake.
                await asyncio.wait_for(event.wait(), min(remaining, 0.05))
            except TimeoutError:
                pass

    async def wait_for_session(self, *, after: int = 0, timeout: float = 10.0) -> None:
        """Wait until more than ``after`` gateway sessions have identified (a bot is online)."""
        await self.wait_for(
            lambda: len([s for s in self.gateway.sessions if s.identified.is_set()]) > after,
            timeout=timeout,
            what="a bot to IDENTIFY on the gateway",
        )

    def describe(self) -> str:
        """A summary for failure messages: recent REST calls, unknown routes, errors."""
        lines = ["recent REST calls:"]
        lines += [f"  {r.method} {r.path} -> {r.status}" for r in self.requests[-15:]] or ["  (none)"]
        if self.unknown_routes:
            lines.append(f"UNKNOWN ROUTES: {self.unknown_routes}")
        if self.errors:
            lines.append(f"errors: {self.errors[-10:]}")
        lines.append(f"gateway sessions: {[(s.session_id[:6], s.live, s.invalid) for s in self.gateway.sessions]}")
        return "\n".join(lines)

    # -- reading state -----------------------------------------------------------------------

    def messages_in(self, channel: FakeChannel | int, *, include_ephemeral: bool = True) -> list[StoredMessage]:
        """Messages in a channel or thread, oldest first (deleted ones excluded)."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel_id and not m.deleted and (include_ephemeral or not m.ephemeral)
        ]

    def threads(self, parent: FakeChannel | None = None) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread and (parent is None or c.parent_id == parent.id)]

    async def wait_for_message(
        self,
        channel: FakeChannel | int,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        *,
        timeout: float = 5.0,
    ) -> StoredMessage:
        def find() -> StoredMessage | None:
            return next((m for m in self.messages_in(channel) if predicate(m)), None)

        return await self.wait_for(find, timeout=timeout, what=f"a message in channel {channel}")

    # -- acting as users ---------------------------------------------------------------------

    async def invoke_slash(
        self,
        user: FakeUser,
        name: str,
        *path: str,
        options: dict[str, Any] | None = None,
        channel: FakeChannel | None = None,
    ) -> InteractionHandle:
        """Run ``/name [group] [sub]`` as ``user`` with typed option values (users as FakeUser)."""
        record = ix.slash_command(self, user, name, path, options or {}, channel or self.channel)
        return await self._send_interaction(record)

    async def autocomplete(
        self,
        user: FakeUser,
        name: str,
        *path: str,
        focused: str,
        value: str,
        options: dict[str, Any] | None = None,
        channel: FakeChannel | None = None,
    ) -> InteractionHandle:
        """Type ``value`` into option ``focused``; ``await handle.wait_choices()`` gives the answer."""
        record = ix.autocomplete(self, user, name, path, focused, value, options or {}, channel or self.channel)
        return await self._send_interaction(record)

    async def click(
        self, user: FakeUser, message: StoredMessage, custom_id: str, *, values: list[str] | None = None
    ) -> InteractionHandle:
        """Click the button (or choose ``values`` in the select) ``custom_id`` on ``message``."""
        record = ix.component(self, user, message, custom_id, values)
        return await self._send_interaction(record)

    async def submit_modal(
        self, user: FakeUser, parent: InteractionHandle, values: dict[str, str]
    ) -> InteractionHandle:
        """Submit the modal the bot opened in answer to ``parent`` with text input values."""
        record = ix.modal_submit(self, user, parent.record, values)
        return await self._send_interaction(record)

    async def send_message(self, user: FakeUser, channel: FakeChannel, content: str) -> StoredMessage:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        message = StoredMessage(
            id=new_snowflake(), channel_id=channel.id, guild_id=channel.guild_id, author=user, content=content
        )
        self._store_message(message)
        await self.dispatch("MESSAGE_CREATE", self._message_event(message))
        return message

    async def _send_interaction(self, record: InteractionRecord) -> InteractionHandle:
        await self.flush_events()
        session = await self.wait_for(
            lambda: self.gateway.newest_session(record.guild_id), timeout=self.session_wait,
            what=f"a bot connected to the gateway on guild {record.guild_id}'s shard",
        )
        self.interactions[record.id] = record
        self.interactions_by_token[record.token] = record
        record.sent_at = self.now()
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(self.response_deadline, self._deadline_passed, record))
        await session.dispatch("INTERACTION_CREATE", record.payload)
        return InteractionHandle(self, record)

    # -- mutations used by the REST handlers -------------------------------------------------

    def _store_message(self, message: StoredMessage) -> None:
        self.messages[message.id] = message
        channel = self.channels.get(message.channel_id)
        if channel is not None:
            channel.last_message_id = message.id
            channel.message_count += 1
        self.notify()

    def _message_event(self, message: StoredMessage) -> dict[str, Any]:
        data = message.payload()
        guild = self.guilds.get(message.guild_id or 0)
        if guild is not None and message.author.id in guild.members:
            member = message.author.member_payload()
            member.pop("user")
            data["member"] = member
        return data

    async def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        body: dict[str, Any],
        files: list[UploadedFile],
        *,
        interaction: InteractionRecord | None = None,
        extra_flags: int = 0,
    ) -> StoredMessage:
        message = StoredMessage(id=new_snowflake(), channel_id=channel.id, guild_id=channel.guild_id, author=author)
        apply_body(message, body, files, base_url=self.base_url, creating=True, upload_limit=self.upload_limit)
        message.flags |= extra_flags
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_type = interaction.type
            message.interaction_user = interaction.user
            message.webhook_id = self.application_id
        self._store_message(message)
        if not message.ephemeral:
            # Keeps the client's message cache and channel.last_message_id as on Discord.
            await self.dispatch("MESSAGE_CREATE", self._message_event(message))
        return message

    async def edit_message(self, message: StoredMessage, body: dict[str, Any], files: list[UploadedFile]) -> StoredMessage:
        apply_body(message, body, files, base_url=self.base_url, creating=False, upload_limit=self.upload_limit)
        self.notify()
        if not message.ephemeral:
            await self.dispatch("MESSAGE_UPDATE", self._message_event(message))
        return message

    async def delete_message(self, message: StoredMessage) -> None:
        message.deleted = True
        self.notify()
        event = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id:
            event["guild_id"] = str(message.guild_id)
        await self.dispatch("MESSAGE_DELETE", event)

    async def create_thread(
        self, parent: FakeChannel, owner: FakeUser, body: dict[str, Any], starter: StoredMessage | None
    ) -> FakeChannel:
        check_thread_name(body.get("name"))
        thread = FakeChannel(
            # Threads started from a message share the message's id, as on Discord.
            id=starter.id if starter is not None else new_snowflake(),
            guild_id=parent.guild_id,
            name=str(body.get("name", "thread")),
            type=int(body.get("type", PUBLIC_THREAD)),
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
            invitable=bool(body.get("invitable", True)),
            member_ids={owner.id},
        )
        guild = self.guilds[parent.guild_id]
        guild.channels[thread.id] = thread
        self.channels[thread.id] = thread
        if starter is not None:
            starter.thread_id = thread.id
        self.notify()
        await self.dispatch("THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return thread

"""The fake's state objects and their JSON wire form (what discord.py parses).

Every ``payload()`` method returns a fresh dict shaped like Discord API v10 so callers may
mutate it without touching the stored state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .ids import iso_now, new_snowflake

EPHEMERAL = 1 << 6
LOADING = 1 << 7
# Every permission bit Discord currently defines fits below 2**51; "all" keeps tests simple.
ALL_PERMISSIONS = (1 << 51) - 1
# The @everyone default: view channel, send messages, read history, use application commands,
# create public threads, send in threads, embed links, attach files, add reactions.
EVERYONE_PERMISSIONS = (
    (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31) | (1 << 35) | (1 << 38) | (1 << 14) | (1 << 15) | (1 << 6)
)

TEXT_CHANNEL = 0
DM_CHANNEL = 1
CATEGORY = 4
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass
class FakeUser:
    """A Discord user; test users also carry the guild permissions Discord would compute."""

    id: int
    username: str
    bot: bool = False
    global_name: str | None = None
    permissions: int = EVERYONE_PERMISSIONS
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    accepts_dms: bool = True  # the user's "allow direct messages from server members"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    def member_payload(self, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": self.payload(),
            "nick": self.nick,
            "avatar": None,
            "roles": [str(r) for r in self.role_ids],
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_permissions:
            # Interactions carry the member's resolved permissions in the channel.
            data["permissions"] = str(self.permissions)
        return data


@dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class FakeChannel:
    """A guild text channel, category or thread (threads have a ``parent_id``), or a direct
    message channel with one user (``recipient``, no guild)."""

    id: int
    guild_id: int
    name: str
    type: int = TEXT_CHANNEL
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    topic: str | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    invitable: bool = True
    member_ids: set[int] = field(default_factory=set)
    message_count: int = 0
    last_message_id: int | None = None
    recipient: FakeUser | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> dict[str, Any]:
        if self.type == DM_CHANNEL:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM_CHANNEL, "flags": 0, "recipients": [self.recipient.payload()],
                    "last_message_id": str(self.last_message_id) if self.last_message_id else None}
        data: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild_id),
            "type": self.type,
            "name": self.name,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "last_message_id": str(self.last_message_id) if self.last_message_id else None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=len(self.member_ids),
                thread_metadata={
                    "archived": self.archived,
                    "locked": self.locked,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso_now(),
                    "invitable": self.invitable,
                    "create_timestamp": iso_now(),
                },
            )
        else:
            data.update(
                position=self.position,
                permission_overwrites=[],
                nsfw=False,
                topic=self.topic,
                default_auto_archive_duration=1440,
            )
        return data


@dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeUser] = field(default_factory=dict)

    def text_channels(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.type == TEXT_CHANNEL]

    def threads(self) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread]

    def payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE body: channels, roles, members and active threads."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "unavailable": False,
            "large": False,
            "member_count": len(self.members),
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "features": [],
            "emojis": [],
            "stickers": [],
            "roles": [r.payload() for r in self.roles.values()],
            "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in self.threads() if not c.archived],
            "members": [m.member_payload() for m in self.members.values()],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "system_channel_id": None,
            "rules_channel_id": None,
        }


@dataclass
class StoredAttachment:
    """An uploaded file; ``data`` holds the exact bytes the bot sent."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""
    # A test's broken CDN: the download never ends (zeros after ``data``), whatever the size says.
    endless: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
        }


@dataclass
class StoredMessage:
    """A message as Discord stores it, whoever created it (bot via REST/webhook, or a test user)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    allowed_mentions: dict[str, Any] | None = None
    attachments: list[StoredAttachment] = field(default_factory=list)
    tts: bool = False
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    interaction_id: int | None = None
    interaction_type: int | None = None
    interaction_user: FakeUser | None = None
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None
    deleted: bool = False
    # Each body that edited this message, in order (tests may check what changed when).
    edits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def iter_components(self) -> list[dict[str, Any]]:
        """All components, flattening action rows and containers."""
        found: list[dict[str, Any]] = []
        stack = list(self.components)
        while stack:
            comp = stack.pop(0)
            found.append(comp)
            stack.extend(comp.get("components", []))
            if isinstance(comp.get("accessory"), dict):
                stack.append(comp["accessory"])
        return found

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def mentions(self) -> list[int]:
        """User ids mentioned in the content (``<@id>`` or ``<@!id>``)."""
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content or "")]

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": 0 if self.interaction_id is None or self.interaction_type != 2 else 20,
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": [dict(e) for e in self.embeds],
            "components": [dict(c) for c in self.components],
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            data["message_reference"] = dict(self.message_reference)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": {},
            }
        return data


@dataclass
class RequestLog:
    """One REST call the bot made, for failure messages and assertions."""

    method: str
    path: str
    status: int


@dataclass
class CallbackRecord:
    """The bot's initial answer to an interaction (POST .../callback)."""

    type: int
    data: dict[str, Any]
    message: StoredMessage | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.data.get("flags", 0) & EPHEMERAL)


@dataclass
class InteractionRecord:
    """One interaction sent to the bot and everything the bot did in answer to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    guild_id: int | None
    channel_id: int
    data: dict[str, Any]
    payload: dict[str, Any]
    component_message: StoredMessage | None = None
    callback: CallbackRecord | None = None
    # The message @original refers to: the reply (type 4/5) or the clicked message (type 6/7).
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    # Bodies of PATCH @original / PATCH followup calls, in order.
    edits: list[dict[str, Any]] = field(default_factory=list)
    # Every callback attempt after the first is an error on Discord; kept for diagnostics.
    rejected_callbacks: list[dict[str, Any]] = field(default_factory=list)
    # When the fake sent it (FakeDiscord.now()): the 3-second and 15-minute clocks start here.
    sent_at: float = 0.0
    # What the user saw instead of an answer ("The application did not respond"), if anything.
    failure: str | None = None

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """Autocomplete choices, once the bot answered with callback type 8."""
        if self.callback is None or self.callback.type != 8:
            return None
        return list(self.callback.data.get("choices", []))


def new_attachment(filename: str, data: bytes, content_type: str | None, base_url: str, channel_id: int) -> StoredAttachment:
    """Create an attachment whose URL the fake serves back (so ``Attachment.read()`` works)."""
    att_id = new_snowflake()
    url = f"{base_url}/attachments/{channel_id}/{att_id}/{filename}"
    return StoredAttachment(id=att_id, filename=filename, data=data, content_type=content_type, url=url)

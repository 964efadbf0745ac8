"""Build INTERACTION_CREATE payloads the way Discord sends them (see discord/interactions.py
``Interaction._from_data`` and app_commands/tree.py for what the client reads)."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from .commands import build_options
from .ids import new_snowflake
from .models import ALL_PERMISSIONS, FakeChannel, FakeUser, InteractionRecord, StoredMessage

if TYPE_CHECKING:
    from .server import FakeDiscord

APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5
SELECT_TYPES = (3, 5, 6, 7, 8)


class CannotInvoke(PermissionError):
    """Discord would not let this user run the command (default_member_permissions)."""


def _record(
    fake: FakeDiscord,
    itype: int,
    user: FakeUser,
    channel: FakeChannel,
    data: dict[str, Any],
    message: StoredMessage | None = None,
) -> InteractionRecord:
    interaction_id = new_snowflake()
    token = f"fake-interaction-{secrets.token_urlsafe(24)}"
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(fake.application_id),
        "type": itype,
        "data": data,
        "guild_id": str(channel.guild_id),
        "guild": {"id": str(channel.guild_id), "locale": "en-US", "features": []},
        "channel_id": str(channel.id),
        "channel": channel.payload(),
        "member": user.member_payload(with_permissions=True),
        "token": token,
        "version": 1,
        "locale": "en-US",
        "guild_locale": "en-US",
        "app_permissions": str(ALL_PERMISSIONS),
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(channel.guild_id)},
        "context": 0,
        "attachment_size_limit": fake.upload_limit,
    }
    if message is not None:
        payload["message"] = message.payload()
    return InteractionRecord(
        id=interaction_id,
        token=token,
        type=itype,
        user=user,
        guild_id=channel.guild_id,
        channel_id=channel.id,
        data=data,
        payload=payload,
        component_message=message,
    )


def _command_data(
    fake: FakeDiscord,
    user: FakeUser,
    name: str,
    path: tuple[str, ...],
    values: dict[str, Any],
    channel: FakeChannel,
    focused: str | None,
) -> dict[str, Any]:
    command = fake.commands.find(name, channel.guild_id)
    required = command.get("default_member_permissions")
    if required is not None and int(required) & ~user.permissions:
        raise CannotInvoke(f"{user.username} lacks default_member_permissions {required} for /{name}")
    built = build_options(command, path, values, focused=focused)
    data: dict[str, Any] = {
        "id": command["id"],
        "name": name,
        "type": 1,
        "options": built.options,
    }
    if "guild_id" in command:
        data["guild_id"] = command["guild_id"]
    if built.resolved:
        data["resolved"] = built.resolved
    return data


def slash_command(
    fake: FakeDiscord,
    user: FakeUser,
    name: str,
    path: tuple[str, ...],
    values: dict[str, Any],
    channel: FakeChannel,
) -> InteractionRecord:
    data = _command_data(fake, user, name, path, values, channel, focused=None)
    return _record(fake, APPLICATION_COMMAND, user, channel, data)


def autocomplete(
    fake: FakeDiscord,
    user: FakeUser,
    name: str,
    path: tuple[str, ...],
    focused: str,
    typed: str,
    values: dict[str, Any],
    channel: FakeChannel,
) -> InteractionRecord:
    data = _command_data(fake, user, name, path, {**values, focused: typed}, channel, focused=focused)
    return _record(fake, AUTOCOMPLETE, user, channel, data)


def component(
    fake: FakeDiscord,
    user: FakeUser,
    message: StoredMessage,
    custom_id: str,
    values: list[str] | None,
) -> InteractionRecord:
    found = message.find_component(custom_id)
    if found is None:
        raise LookupError(f"message {message.id} has no component {custom_id!r}; it has {message.custom_ids()}")
    if found.get("disabled"):
        raise CannotInvoke(f"component {custom_id!r} is disabled")
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": found["type"]}
    if found["type"] in SELECT_TYPES:
        data["values"] = list(values or [])
    elif values:
        raise ValueError("values= only applies to select menus")
    channel = fake.channels[message.channel_id]
    return _record(fake, MESSAGE_COMPONENT, user, channel, data, message=message)


def modal_submit(
    fake: FakeDiscord, user: FakeUser, parent: InteractionRecord, values: dict[str, str]
) -> InteractionRecord:
    if parent.callback is None or parent.callback.type != 9:
        raise LookupError("the bot did not answer that interaction with a modal (callback type 9)")
    modal = parent.callback.data
    rows = []
    for row in modal.get("components", []):
        inputs = row.get("components", [row.get("component")] if "component" in row else [])
        answered = [
            {"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], c.get("value", ""))}
            for c in inputs
            if c and "custom_id" in c
        ]
        if row.get("type") == 18:  # label wrapping one component (components v2 modals)
            rows.append({"type": 18, "component": answered[0]} if answered else row)
        else:
            rows.append({"type": 1, "components": answered})
    data = {"custom_id": modal["custom_id"], "components": rows}
    channel = fake.channels[parent.channel_id]
    return _record(fake, MODAL_SUBMIT, user, channel, data, message=parent.component_message)

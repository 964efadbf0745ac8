"""Interaction callbacks and the interaction webhook (follow-ups, @original), with Discord's
clocks: the first answer within 3 seconds, the token for 15 minutes (see deadlines.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from . import deadlines
from .bodies import read_body
from .ids import new_snowflake
from .messages import apply_body
from .models import (
    EPHEMERAL,
    LOADING,
    CallbackRecord,
    FakeChannel,
    InteractionRecord,
    StoredMessage,
)
from .rest_base import fake_of, json_response
from .validation import DiscordError, check_choices

if TYPE_CHECKING:
    from .server import FakeDiscord


def _interaction(request: web.Request) -> InteractionRecord:
    fake = fake_of(request)
    if request.match_info.get("app") not in (None, str(fake.application_id)):
        raise DiscordError(404, 10015, "Unknown Webhook")
    record = fake.interactions_by_token.get(request.match_info["token"])
    if record is None:
        raise DiscordError(404, 10015, "Unknown Webhook")
    deadlines.check_token(record, fake.now(), fake.token_lifetime)
    return record


async def interaction_callback(request: web.Request) -> web.Response:
    fake = fake_of(request)
    record = fake.interactions.get(int(request.match_info["id"]))
    if record is None or record.token != request.match_info["token"]:
        raise DiscordError(404, 10062, "Unknown interaction")
    body, files = await read_body(request)
    if record.callback is not None:
        record.rejected_callbacks.append(body)
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
    late = deadlines.late_answer(record, fake.now(), fake.response_deadline)
    if late is not None:
        record.failure = record.failure or deadlines.what_the_user_sees(record)
        fake.notify()
        raise DiscordError(404, 10062, f"Unknown interaction: {late}")
    cb_type = int(body["type"])
    data = body.get("data") or {}
    _check_callback_type(record, cb_type)
    channel = fake.channels[record.channel_id]
    message: StoredMessage | None = None
    if cb_type == 4:
        message = await fake.create_message(channel, fake.bot_user, data, files, interaction=record)
        record.original = message
    elif cb_type == 5:
        # The "Bot is thinking..." placeholder; ephemeral is fixed now, at defer time.
        placeholder = {"content": "", "flags": (data.get("flags") or 0) & EPHEMERAL}
        message = await _create_placeholder(fake, channel, record, placeholder)
        record.original = message
    elif cb_type in (6, 7):
        message = record.component_message
        record.original = message
        if cb_type == 7 and message is not None:
            await fake.edit_message(message, data, files)
    elif cb_type == 8:
        check_choices(body)
    record.callback = CallbackRecord(type=cb_type, data=data, message=message)
    fake.notify()
    result: dict[str, Any] = {
        "interaction": {
            "id": str(record.id),
            "type": record.type,
            "activity_instance_id": None,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": bool(message and message.loading),
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
    }
    if message is not None:
        result["resource"] = {"type": cb_type, "message": message.payload()}
    if request.query.get("with_response") in ("1", "true", "True"):
        return json_response(result)
    return web.Response(status=204)


def _check_callback_type(record: InteractionRecord, cb_type: int) -> None:
    allowed = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}[record.type]
    if cb_type not in allowed:
        raise DiscordError(400, 50035, f"Invalid Form Body: callback type {cb_type} not valid for interaction type {record.type}")


async def _create_placeholder(
    fake: FakeDiscord, channel: FakeChannel, record: InteractionRecord, body: dict[str, Any]
) -> StoredMessage:
    message = StoredMessage(
        id=new_snowflake(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author=fake.bot_user,
        flags=body["flags"] | LOADING,
        interaction_id=record.id,
        interaction_type=record.type,
        interaction_user=record.user,
        webhook_id=fake.application_id,
    )
    fake._store_message(message)
    return message


async def webhook_execute(request: web.Request) -> web.Response:
    """A follow-up message. The first one after a defer replaces the "thinking" message."""
    fake = fake_of(request)
    record = _interaction(request)
    if record.callback is None:
        raise DiscordError(404, 10015, "Unknown Webhook (the interaction was not acknowledged yet)")
    body, files = await read_body(request)
    channel = fake.channels[record.channel_id]
    original = record.original
    if record.callback.type == 5 and original is not None and original.loading:
        body = {**body, "flags": (original.flags & EPHEMERAL) | (int(body.get("flags") or 0) & ~EPHEMERAL)}
        # Checked before the placeholder changes: a refused follow-up leaves it "thinking".
        apply_body(original, body, files, base_url=fake.base_url, creating=True, upload_limit=fake.upload_limit)
        original.flags = int(body["flags"])
        message = original
        fake.notify()
        if not message.ephemeral:
            await fake.dispatch("MESSAGE_UPDATE", fake._message_event(message))
    else:
        message = await fake.create_message(channel, fake.bot_user, body, files, interaction=record)
    record.followups.append(message)
    fake.notify()
    if request.query.get("wait") in ("1", "true", "True"):
        return json_response(message.payload())
    return web.Response(status=204)


def _webhook_message(request: web.Request, record: InteractionRecord) -> StoredMessage:
    wanted = request.match_info["message"]
    if wanted == "@original":
        if record.original is None:
            raise DiscordError(404, 10008, "Unknown Message (no original response)")
        return record.original
    message = fake_of(request).messages.get(int(wanted))
    if message is None or message.deleted or message.interaction_id != record.id:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


async def webhook_get_message(request: web.Request) -> web.Response:
    record = _interaction(request)
    return json_response(_webhook_message(request, record).payload())


async def webhook_edit_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    record = _interaction(request)
    message = _webhook_message(request, record)
    body, files = await read_body(request)
    if message.loading:
        message.flags &= ~LOADING
    await fake.edit_message(message, body, files)
    record.edits.append(body)
    fake.notify()
    return json_response(message.payload())


async def webhook_delete_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    record = _interaction(request)
    await fake.delete_message(_webhook_message(request, record))
    return web.Response(status=204)

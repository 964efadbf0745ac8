"""The REST API under /api/v10 (plus the gateway socket and attachment downloads).

Only the routes a moderator bot needs exist; anything else answers 404 with a JSON body and
is logged loudly and recorded in ``FakeDiscord.unknown_routes`` so gaps are easy to spot.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .bodies import read_body
from .ids import new_snowflake
from .messages import apply_body
from .models import (
    EPHEMERAL,
    LOADING,
    CallbackRecord,
    FakeChannel,
    InteractionRecord,
    RequestLog,
    StoredMessage,
)
from .validation import DiscordError, check_choices

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")

API = "/api/v10"
FAKE_KEY = web.AppKey("fake", object)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes bodies whose content-type is exactly "application/json";
    # aiohttp's json_response appends "; charset=utf-8", so set the header by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _fake(request: web.Request) -> FakeDiscord:
    return request.app[FAKE_KEY]  # type: ignore[return-value]


@web.middleware
async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    fake = _fake(request)
    path = request.path
    try:
        if path.startswith(API) and not _token_in_url(path):
            if request.headers.get("Authorization") != f"Bot {fake.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
        response = await handler(request)
    except DiscordError as exc:
        fake.errors.append(f"{request.method} {path}: {exc}")
        response = json_response(exc.body(), status=exc.status)
    except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
        route = f"{request.method} {path}"
        fake.unknown_routes.append(route)
        log.error("fakediscord: UNKNOWN ROUTE %s (add it to tests/fakediscord/rest.py)", route)
        response = json_response({"code": 0, "message": f"404: Not Found (fakediscord has no {route})"}, 404)
    except Exception as exc:  # a fake bug must surface in the test, not as a silent 500
        fake.errors.append(f"{request.method} {path}: fake crashed: {exc!r}")
        log.exception("fakediscord: handler crashed on %s %s", request.method, path)
        response = json_response({"code": 0, "message": f"fakediscord crashed: {exc!r}"}, 500)
    if not path.startswith("/gateway"):
        fake.requests.append(RequestLog(request.method, path, response.status))
        fake.notify()
    return response


def _token_in_url(path: str) -> bool:
    # Interaction callbacks and webhooks authenticate with the token in the URL.
    return path.startswith((f"{API}/interactions/", f"{API}/webhooks/"))


def build_app(fake: FakeDiscord) -> web.Application:
    app = web.Application(middlewares=[middleware], client_max_size=64 * 1024 * 1024)
    app[FAKE_KEY] = fake
    r = app.router
    r.add_get("/gateway/", fake.gateway.handle)
    r.add_get("/attachments/{channel}/{attachment}/{filename}", get_attachment)
    r.add_get(API + "/users/@me", get_me)
    r.add_get(API + "/gateway", get_gateway)
    r.add_get(API + "/gateway/bot", get_gateway)
    r.add_get(API + "/oauth2/applications/@me", get_application)
    r.add_get(API + "/applications/@me", get_application)
    for prefix in ("/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands"):
        r.add_get(API + prefix, get_commands)
        r.add_put(API + prefix, put_commands)
        r.add_post(API + prefix, post_command)
        r.add_delete(API + prefix + "/{command}", delete_command)
    r.add_post(API + "/interactions/{id}/{token}/callback", interaction_callback)
    r.add_post(API + "/webhooks/{app}/{token}", webhook_execute)
    r.add_get(API + "/webhooks/{app}/{token}/messages/{message}", webhook_get_message)
    r.add_patch(API + "/webhooks/{app}/{token}/messages/{message}", webhook_edit_message)
    r.add_delete(API + "/webhooks/{app}/{token}/messages/{message}", webhook_delete_message)
    r.add_get(API + "/channels/{channel}", get_channel)
    r.add_patch(API + "/channels/{channel}", patch_channel)
    r.add_get(API + "/channels/{channel}/messages", list_messages)
    r.add_post(API + "/channels/{channel}/messages", post_message)
    r.add_get(API + "/channels/{channel}/messages/{message}", get_message)
    r.add_patch(API + "/channels/{channel}/messages/{message}", patch_message)
    r.add_delete(API + "/channels/{channel}/messages/{message}", delete_message)
    r.add_post(API + "/channels/{channel}/threads", post_thread)
    r.add_post(API + "/channels/{channel}/messages/{message}/threads", post_thread)
    r.add_put(API + "/channels/{channel}/thread-members/{user}", put_thread_member)
    r.add_delete(API + "/channels/{channel}/thread-members/{user}", delete_thread_member)
    r.add_post(API + "/channels/{channel}/typing", no_content)
    r.add_put(API + "/channels/{channel}/messages/{message}/reactions/{emoji}/{user}", no_content)
    r.add_delete(API + "/channels/{channel}/messages/{message}/reactions/{emoji}/{user}", no_content)
    r.add_get(API + "/guilds/{guild}/channels", get_guild_channels)
    r.add_get(API + "/guilds/{guild}/members/{user}", get_member)
    return app


# -- small lookups -----------------------------------------------------------------------------


def _channel(request: web.Request) -> FakeChannel:
    channel = _fake(request).channels.get(int(request.match_info["channel"]))
    if channel is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    return channel


def _message(request: web.Request, channel: FakeChannel) -> StoredMessage:
    message = _fake(request).messages.get(int(request.match_info["message"]))
    if message is None or message.deleted or message.channel_id != channel.id:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


def _interaction(request: web.Request) -> InteractionRecord:
    fake = _fake(request)
    if request.match_info.get("app") not in (None, str(fake.application_id)):
        raise DiscordError(404, 10015, "Unknown Webhook")
    record = fake.interactions_by_token.get(request.match_info["token"])
    if record is None:
        raise DiscordError(404, 10015, "Unknown Webhook")
    return record


async def no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


# -- identity and gateway discovery ------------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    fake = _fake(request)
    return json_response({**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})


async def get_gateway(request: web.Request) -> web.Response:
    fake = _fake(request)
    return json_response(
        {
            "url": fake.ws_url,
            "shards": fake.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }
    )


async def get_application(request: web.Request) -> web.Response:
    fake = _fake(request)
    return json_response(
        {
            "id": str(fake.application_id),
            "name": fake.bot_user.username,
            "description": "fakediscord application",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": fake.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "summary": "",
            "flags": 0,
            "bot": fake.bot_user.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
        }
    )


async def get_attachment(request: web.Request) -> web.Response:
    fake = _fake(request)
    wanted = int(request.match_info["attachment"])
    for message in fake.messages.values():
        for att in message.attachments:
            if att.id == wanted:
                return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")
    raise DiscordError(404, 0, "Unknown attachment")


# -- application commands ----------------------------------------------------------------------


def _scope(request: web.Request) -> int | None:
    fake = _fake(request)
    if request.match_info["app"] != str(fake.application_id):
        raise DiscordError(403, 50001, "Missing Access (wrong application id)")
    guild = request.match_info.get("guild")
    if guild is not None and int(guild) not in fake.guilds:
        raise DiscordError(403, 50001, "Missing Access (unknown guild)")
    return int(guild) if guild is not None else None


async def get_commands(request: web.Request) -> web.Response:
    return json_response(_fake(request).commands.list(_scope(request)))


async def put_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    body, _ = await read_body(request)
    if not isinstance(body, list):
        raise DiscordError(400, 50035, "Invalid Form Body: expected a list of commands")
    return json_response(_fake(request).commands.overwrite(scope, body))


async def post_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    body, _ = await read_body(request)
    return json_response(_fake(request).commands.upsert(scope, body), status=201)


async def delete_command(request: web.Request) -> web.Response:
    fake = _fake(request)
    scope = _scope(request)
    commands = fake.commands.scopes.get(scope, [])
    fake.commands.scopes[scope] = [c for c in commands if c["id"] != request.match_info["command"]]
    return web.Response(status=204)


# -- interactions ------------------------------------------------------------------------------


async def interaction_callback(request: web.Request) -> web.Response:
    fake = _fake(request)
    record = fake.interactions.get(int(request.match_info["id"]))
    if record is None or record.token != request.match_info["token"]:
        raise DiscordError(404, 10062, "Unknown interaction")
    body, files = await read_body(request)
    if record.callback is not None:
        record.rejected_callbacks.append(body)
        raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
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
    fake = _fake(request)
    record = _interaction(request)
    if record.callback is None:
        raise DiscordError(404, 10015, "Unknown Webhook (the interaction was not acknowledged yet)")
    body, files = await read_body(request)
    channel = fake.channels[record.channel_id]
    original = record.original
    if record.callback.type == 5 and original is not None and original.loading:
        body = {**body, "flags": (original.flags & EPHEMERAL) | (int(body.get("flags") or 0) & ~EPHEMERAL)}
        original.flags &= ~LOADING
        apply_body(original, body, files, base_url=fake.base_url, creating=True)
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
    message = _fake(request).messages.get(int(wanted))
    if message is None or message.deleted or message.interaction_id != record.id:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


async def webhook_get_message(request: web.Request) -> web.Response:
    record = _interaction(request)
    return json_response(_webhook_message(request, record).payload())


async def webhook_edit_message(request: web.Request) -> web.Response:
    fake = _fake(request)
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
    fake = _fake(request)
    record = _interaction(request)
    await fake.delete_message(_webhook_message(request, record))
    return web.Response(status=204)


# -- channels, messages, threads ---------------------------------------------------------------


async def get_channel(request: web.Request) -> web.Response:
    return json_response(_channel(request).payload())


async def patch_channel(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = _channel(request)
    body, _ = await read_body(request)
    for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
        if key in body:
            setattr(channel, key, body[key])
    fake.notify()
    event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
    await fake.dispatch(event, channel.payload())
    return json_response(channel.payload())


async def get_guild_channels(request: web.Request) -> web.Response:
    guild = _fake(request).guilds.get(int(request.match_info["guild"]))
    if guild is None:
        raise DiscordError(404, 10004, "Unknown Guild")
    return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])


async def get_member(request: web.Request) -> web.Response:
    guild = _fake(request).guilds.get(int(request.match_info["guild"]))
    user_id = int(request.match_info["user"])
    if guild is None or user_id not in guild.members:
        raise DiscordError(404, 10007, "Unknown Member")
    return json_response(guild.members[user_id].member_payload())


async def list_messages(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = _channel(request)
    messages = fake.messages_in(channel, include_ephemeral=False)
    before, after = request.query.get("before"), request.query.get("after")
    if before:
        messages = [m for m in messages if m.id < int(before)]
    if after:
        messages = [m for m in messages if m.id > int(after)]
    limit = int(request.query.get("limit", 50))
    # Discord returns newest first.
    newest_first = list(reversed(messages))
    chosen = newest_first[-limit:] if after else newest_first[:limit]
    return json_response([m.payload() for m in chosen])


async def post_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = _channel(request)
    if channel.is_thread and channel.locked:
        raise DiscordError(403, 50083, "Thread is locked")
    body, files = await read_body(request)
    if channel.is_thread and channel.archived:
        # Posting as the bot unarchives a thread, as on Discord.
        channel.archived = False
    repeated = fake.nonces.earlier(channel.id, fake.bot_user.id, body)
    if repeated is not None and repeated in fake.messages:
        return json_response(fake.messages[repeated].payload())
    message = await fake.create_message(channel, fake.bot_user, body, files)
    fake.nonces.remember(channel.id, fake.bot_user.id, body, message.id)
    if channel.is_thread:
        channel.member_ids.add(fake.bot_user.id)
    return json_response(message.payload())


async def get_message(request: web.Request) -> web.Response:
    channel = _channel(request)
    return json_response(_message(request, channel).payload())


async def patch_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = _channel(request)
    message = _message(request, channel)
    if message.author.id != fake.bot_user.id:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    body, files = await read_body(request)
    await fake.edit_message(message, body, files)
    return json_response(message.payload())


async def delete_message(request: web.Request) -> web.Response:
    fake = _fake(request)
    channel = _channel(request)
    await fake.delete_message(_message(request, channel))
    return web.Response(status=204)


async def post_thread(request: web.Request) -> web.Response:
    fake = _fake(request)
    parent = _channel(request)
    if parent.is_thread:
        raise DiscordError(400, 50024, "Cannot execute action on this channel type")
    starter = _message(request, parent) if "message" in request.match_info else None
    if starter is not None and starter.thread_id is not None:
        raise DiscordError(400, 160004, "A thread has already been created for this message")
    body, _ = await read_body(request)
    if not body.get("name"):
        raise DiscordError(400, 50035, "Invalid Form Body: name is required")
    if starter is not None:
        body = {**body, "type": 11}
    thread = await fake.create_thread(parent, fake.bot_user, body, starter)
    return json_response(thread.payload(), status=201)


async def put_thread_member(request: web.Request) -> web.Response:
    fake = _fake(request)
    thread = _channel(request)
    user = request.match_info["user"]
    user_id = fake.bot_user.id if user == "@me" else int(user)
    thread.member_ids.add(user_id)
    fake.notify()
    return web.Response(status=204)


async def delete_thread_member(request: web.Request) -> web.Response:
    fake = _fake(request)
    thread = _channel(request)
    user = request.match_info["user"]
    thread.member_ids.discard(fake.bot_user.id if user == "@me" else int(user))
    fake.notify()
    return web.Response(status=204)

"""The REST API under /api/v10 (plus the gateway socket and attachment downloads).

Only the routes a moderator bot needs exist; anything else answers 404 with a JSON body and
is logged loudly and recorded in ``FakeDiscord.unknown_routes`` so gaps are easy to spot.
Interaction callbacks and follow-ups are in rest_interactions.py. A refusal (DiscordError)
is answered as Discord answers it and recorded in ``FakeDiscord.errors``; a 429 is not a
refusal unless the client ignored its retry_after.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from aiohttp import web

from . import rest_interactions as ix
from .bodies import read_body
from .command_limits import check_command, check_commands
from .models import FakeChannel, RequestLog, StoredMessage
from .ratelimits import CHANNEL_MESSAGES, RateLimited
from .rest_base import API, FAKE_KEY, fake_of, json_response
from .validation import DiscordError, check_thread_name

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    fake = fake_of(request)
    path = request.path
    try:
        if path.startswith(API) and not _token_in_url(path):
            if request.headers.get("Authorization") != f"Bot {fake.token}":
                raise DiscordError(401, 0, "401: Unauthorized")
        response = await handler(request)
    except RateLimited as exc:
        if exc.ignored:
            fake.refuse(f"{request.method} {path}: sent again before the 429's retry_after had passed")
        response = json_response(exc.body(), status=exc.status)
        response.headers.update(exc.headers)
    except DiscordError as exc:
        fake.refuse(f"{request.method} {path}: {exc}")
        response = json_response(exc.body(), status=exc.status)
        response.headers.update(exc.headers)
    except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
        route = f"{request.method} {path}"
        fake.unknown_routes.append(route)
        log.error("fakediscord: UNKNOWN ROUTE %s (add it to tests/fakediscord/rest.py)", route)
        response = json_response({"code": 0, "message": f"404: Not Found (fakediscord has no {route})"}, 404)
    except Exception as exc:  # a fake bug must surface in the test, not as a silent 500
        fake.refuse(f"{request.method} {path}: fake crashed: {exc!r}")
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
    r.add_post(API + "/users/@me/channels", post_dm_channel)
    r.add_get(API + "/gateway", get_gateway)
    r.add_get(API + "/gateway/bot", get_gateway)
    r.add_get(API + "/oauth2/applications/@me", get_application)
    r.add_get(API + "/applications/@me", get_application)
    for prefix in ("/applications/{app}/commands", "/applications/{app}/guilds/{guild}/commands"):
        r.add_get(API + prefix, get_commands)
        r.add_put(API + prefix, put_commands)
        r.add_post(API + prefix, post_command)
        r.add_delete(API + prefix + "/{command}", delete_command)
    r.add_post(API + "/interactions/{id}/{token}/callback", ix.interaction_callback)
    r.add_post(API + "/webhooks/{app}/{token}", ix.webhook_execute)
    r.add_get(API + "/webhooks/{app}/{token}/messages/{message}", ix.webhook_get_message)
    r.add_patch(API + "/webhooks/{app}/{token}/messages/{message}", ix.webhook_edit_message)
    r.add_delete(API + "/webhooks/{app}/{token}/messages/{message}", ix.webhook_delete_message)
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
    channel = fake_of(request).channels.get(int(request.match_info["channel"]))
    if channel is None:
        raise DiscordError(404, 10003, "Unknown Channel")
    return channel


def _message(request: web.Request, channel: FakeChannel) -> StoredMessage:
    message = fake_of(request).messages.get(int(request.match_info["message"]))
    if message is None or message.deleted or message.channel_id != channel.id:
        raise DiscordError(404, 10008, "Unknown Message")
    return message


async def no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


# -- identity and gateway discovery ------------------------------------------------------------


async def get_me(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return json_response({**fake.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"})


async def post_dm_channel(request: web.Request) -> web.Response:
    """Open (or find) the direct-message channel with a user; a user who turned off direct
    messages from the server (``FakeUser.accepts_dms``) is refused when the bot posts in it."""
    fake = fake_of(request)
    body, _ = await read_body(request)
    user = fake.users.get(int(body.get("recipient_id") or 0))
    if user is None:
        raise DiscordError(400, 50033, "Invalid Recipient(s)")
    return json_response(fake.dm_channel(user).payload())


async def get_gateway(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return json_response(
        {
            "url": fake.ws_url,
            "shards": fake.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
        }
    )


async def get_application(request: web.Request) -> web.Response:
    fake = fake_of(request)
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
    fake = fake_of(request)
    wanted = int(request.match_info["attachment"])
    for message in fake.messages.values():
        for att in message.attachments:
            if att.id == wanted and att.endless:
                return await _endless(request, att.data)
            if att.id == wanted:
                return web.Response(body=att.data, content_type=att.content_type or "application/octet-stream")
    raise DiscordError(404, 0, "Unknown attachment")


async def _endless(request: web.Request, start: bytes) -> web.StreamResponse:
    """A download that never ends, until the client stops reading and goes away."""
    response = web.StreamResponse(headers={"Content-Type": "application/json"})
    await response.prepare(request)
    await response.write(start)
    try:
        while True:
            await response.write(b" " * 65536)
    except (ConnectionError, RuntimeError):  # the client closed the connection
        pass
    return response


# -- application commands ----------------------------------------------------------------------


def _scope(request: web.Request) -> int | None:
    fake = fake_of(request)
    if request.match_info["app"] != str(fake.application_id):
        raise DiscordError(403, 50001, "Missing Access (wrong application id)")
    guild = request.match_info.get("guild")
    if guild is not None and int(guild) not in fake.guilds:
        raise DiscordError(403, 50001, "Missing Access (unknown guild)")
    return int(guild) if guild is not None else None


async def get_commands(request: web.Request) -> web.Response:
    return json_response(fake_of(request).commands.list(_scope(request)))


async def put_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    body, _ = await read_body(request)
    if not isinstance(body, list):
        raise DiscordError(400, 50035, "Invalid Form Body: expected a list of commands")
    check_commands(body)
    return json_response(fake_of(request).commands.overwrite(scope, body))


async def post_command(request: web.Request) -> web.Response:
    scope = _scope(request)
    body, _ = await read_body(request)
    check_command(body)
    return json_response(fake_of(request).commands.upsert(scope, body), status=201)


async def delete_command(request: web.Request) -> web.Response:
    fake = fake_of(request)
    scope = _scope(request)
    commands = fake.commands.scopes.get(scope, [])
    fake.commands.scopes[scope] = [c for c in commands if c["id"] != request.match_info["command"]]
    return web.Response(status=204)


# -- channels, messages, threads ---------------------------------------------------------------


async def get_channel(request: web.Request) -> web.Response:
    return json_response(_channel(request).payload())


async def patch_channel(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = _channel(request)
    body, _ = await read_body(request)
    if "name" in body:
        check_thread_name(body["name"])
    for key in ("name", "topic", "archived", "locked", "auto_archive_duration", "invitable"):
        if key in body:
            setattr(channel, key, body[key])
    fake.notify()
    event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
    await fake.dispatch(event, channel.payload())
    return json_response(channel.payload())


async def get_guild_channels(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(int(request.match_info["guild"]))
    if guild is None:
        raise DiscordError(404, 10004, "Unknown Guild")
    return json_response([c.payload() for c in guild.channels.values() if not c.is_thread])


async def get_member(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(int(request.match_info["guild"]))
    user_id = int(request.match_info["user"])
    if guild is None or user_id not in guild.members:
        raise DiscordError(404, 10007, "Unknown Member")
    return json_response(guild.members[user_id].member_payload())


async def list_messages(request: web.Request) -> web.Response:
    fake = fake_of(request)
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
    fake = fake_of(request)
    channel = _channel(request)
    limits = fake.rate_limits.take(CHANNEL_MESSAGES, str(channel.id))
    if channel.recipient is not None and not channel.recipient.accepts_dms:
        raise DiscordError(403, 50007, "Cannot send messages to this user")
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
    response = json_response(message.payload())
    response.headers.update(limits)
    return response


async def get_message(request: web.Request) -> web.Response:
    channel = _channel(request)
    return json_response(_message(request, channel).payload())


async def patch_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = _channel(request)
    message = _message(request, channel)
    if message.author.id != fake.bot_user.id:
        raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
    body, files = await read_body(request)
    await fake.edit_message(message, body, files)
    return json_response(message.payload())


async def delete_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    channel = _channel(request)
    await fake.delete_message(_message(request, channel))
    return web.Response(status=204)


async def post_thread(request: web.Request) -> web.Response:
    fake = fake_of(request)
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
    fake = fake_of(request)
    thread = _channel(request)
    user = request.match_info["user"]
    user_id = fake.bot_user.id if user == "@me" else int(user)
    thread.member_ids.add(user_id)
    fake.notify()
    return web.Response(status=204)


async def delete_thread_member(request: web.Request) -> web.Response:
    fake = fake_of(request)
    thread = _channel(request)
    user = request.match_info["user"]
    thread.member_ids.discard(fake.bot_user.id if user == "@me" else int(user))
    fake.notify()
    return web.Response(status=204)

"""What every REST handler shares: the API prefix, the app key of the fake, JSON answers."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import web

if TYPE_CHECKING:
    from .server import FakeDiscord

API = "/api/v10"
FAKE_KEY = web.AppKey("fake", object)


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes bodies whose content-type is exactly "application/json";
    # aiohttp's json_response appends "; charset=utf-8", so set the header by hand.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def fake_of(request: web.Request) -> FakeDiscord:
    return request.app[FAKE_KEY]  # type: ignore[return-value]

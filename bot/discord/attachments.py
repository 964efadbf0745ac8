"""An attachment's bytes, up to a limit and never further.

Discord states an attachment's size before anything is downloaded: a file declared larger
than the limit is refused unread. The download itself stops one byte past the limit, so an
attachment whose content does not match its declared size cannot fill the memory either.
"""

from __future__ import annotations

import aiohttp
import discord

from untrusted.files import FileRefused
from untrusted.quote import cut

CHUNK = 64 * 1024


async def read_attachment(attachment: discord.Attachment, limit: int, http: discord.http.HTTPClient | None = None,
                          ) -> bytes:
    """The attachment's content, or FileRefused naming it and what was wrong."""
    name = cut(attachment.filename)
    if attachment.size > limit:
        raise FileRefused(f"{name} is {attachment.size} bytes; the limit is {limit} bytes")
    proxy = getattr(http, "proxy", None)
    proxy_auth = getattr(http, "proxy_auth", None)
    received = bytearray()
    try:
        async with aiohttp.ClientSession() as session, \
                session.get(attachment.url, proxy=proxy, proxy_auth=proxy_auth) as response:
            if response.status != 200:
                raise FileRefused(f"{name} could not be downloaded from Discord (HTTP {response.status}); "
                                  "try again")
            async for chunk in response.content.iter_chunked(CHUNK):
                received += chunk
                if len(received) > limit:  # stop reading: one byte past the limit refuses it
                    raise FileRefused(f"{name} holds more than the limit of {limit} bytes")
    except aiohttp.ClientError as error:
        raise FileRefused(f"{name} could not be downloaded from Discord ({type(error).__name__}); "
                          "try again") from None
    return bytes(received)

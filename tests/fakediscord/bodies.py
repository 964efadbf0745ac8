"""Read request bodies the way Discord does: plain JSON, or multipart with ``payload_json``
plus ``files[n]`` parts (discord.py switches to multipart whenever files are attached)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import web

_FILE_PART = re.compile(r"files\[(\d+)\]")


@dataclass
class UploadedFile:
    index: int
    filename: str
    content_type: str | None
    data: bytes


async def read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """Return (json payload, uploaded files) for JSON or multipart/form-data requests."""
    if request.content_type.startswith("multipart/"):
        return await _read_multipart(request)
    raw = await request.read()
    if not raw:
        return {}, []
    return json.loads(raw), []


async def _read_multipart(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    payload: Any = {}
    files: list[UploadedFile] = []
    reader = await request.multipart()
    while True:
        part = await reader.next()
        if part is None:
            break
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(await part.text())  # type: ignore[union-attr]
            continue
        match = _FILE_PART.fullmatch(name)
        data = await part.read(decode=False)  # type: ignore[union-attr]
        if match is None:
            # Old clients used "file"/"file0"; keep them too rather than lose bytes silently.
            index = len(files)
        else:
            index = int(match.group(1))
        files.append(
            UploadedFile(
                index=index,
                filename=part.filename or f"file{index}",
                content_type=part.headers.get("Content-Type"),
                data=bytes(data),
            )
        )
    return payload, files

"""The message limits Discord enforces, so a bot that breaks them fails in tests too."""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
MAX_CHOICES = 25


class DiscordError(Exception):
    """An error Discord would answer with: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def _form_error(message: str) -> DiscordError:
    return DiscordError(400, 50035, f"Invalid Form Body: {message}")


def check_message(body: dict[str, Any], total_upload: int, *, creating: bool, has_attachments: bool) -> None:
    """Raise DiscordError if ``body`` would be refused by Discord."""
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise _form_error(f"content must be {MAX_CONTENT} or fewer in length")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise _form_error(f"embeds must have at most {MAX_EMBEDS} items")
    components = body.get("components") or []
    flags = int(body.get("flags") or 0)
    if not flags & (1 << 15):  # classic components (not "components v2" layouts)
        if len(components) > MAX_ACTION_ROWS:
            raise _form_error(f"components must have at most {MAX_ACTION_ROWS} action rows")
        for row in components:
            if len(row.get("components", [])) > MAX_ROW_ITEMS:
                raise _form_error(f"an action row holds at most {MAX_ROW_ITEMS} components")
    for custom_id in _custom_ids(components):
        if len(custom_id) > MAX_CUSTOM_ID:
            raise _form_error(f"custom_id must be {MAX_CUSTOM_ID} or fewer in length: {custom_id!r}")
    if total_upload > MAX_UPLOAD_BYTES:
        raise DiscordError(413, 40005, "Request entity too large")
    if creating and not (content or embeds or components or has_attachments or body.get("sticker_ids") or body.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def check_choices(body: dict[str, Any]) -> None:
    choices = (body.get("data") or {}).get("choices") or []
    if len(choices) > MAX_CHOICES:
        raise _form_error(f"autocomplete returns at most {MAX_CHOICES} choices, got {len(choices)}")


def _custom_ids(components: list[dict[str, Any]]) -> list[str]:
    found = []
    stack = list(components)
    while stack:
        comp = stack.pop()
        if "custom_id" in comp:
            found.append(str(comp["custom_id"]))
        stack.extend(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
    return found

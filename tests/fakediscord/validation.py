"""The message limits Discord enforces, so a bot that breaks them fails in tests too.

Figures are Discord's documented limits for API v10 (discord.py's docstrings repeat most of
them: ``ui.Button`` labels up to 80 characters, ``app_commands.Choice`` names and string
values up to 100, ``Thread`` names up to 100).
"""

from __future__ import annotations

from typing import Any

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_ACTION_ROWS = 5
MAX_ROW_ITEMS = 5
MAX_CUSTOM_ID = 100
MAX_BUTTON_LABEL = 80
MAX_SELECT_OPTIONS = 25
MAX_SELECT_TEXT = 100  # a select option's label, value and description
MAX_ATTACHMENTS = 10
# The default upload limit per file for a server without boosts (Discord lowered it from
# 25 MiB to 10 MiB in 2025); interactions carry it as ``attachment_size_limit``.
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024
MAX_REQUEST_BYTES = 25 * 1024 * 1024  # all files of one request together
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100  # an autocomplete or static choice's name, and a string value
MAX_THREAD_NAME = 100
BUTTON = 2
SELECT_TYPES = (3, 5, 6, 7, 8)


class DiscordError(Exception):
    """An error Discord would answer with: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}

    def body(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message}


def form_error(message: str) -> DiscordError:
    return DiscordError(400, 50035, f"Invalid Form Body: {message}")


def check_message(
    body: dict[str, Any],
    file_sizes: list[int],
    *,
    creating: bool,
    has_attachments: bool,
    upload_limit: int = DEFAULT_UPLOAD_LIMIT,
    attachment_count: int = 0,
) -> None:
    """Raise DiscordError if ``body`` would be refused by Discord.

    ``file_sizes`` are the new uploads; ``attachment_count`` is every attachment the message
    would hold (kept and new).
    """
    content = body.get("content")
    if content is not None and len(str(content)) > MAX_CONTENT:
        raise form_error(f"content must be {MAX_CONTENT} or fewer in length (got {len(str(content))})")
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        raise form_error(f"embeds must have at most {MAX_EMBEDS} items")
    components = body.get("components") or []
    flags = int(body.get("flags") or 0)
    if not flags & (1 << 15):  # classic components (not "components v2" layouts)
        if len(components) > MAX_ACTION_ROWS:
            raise form_error(f"components must have at most {MAX_ACTION_ROWS} action rows")
        for row in components:
            if len(row.get("components", [])) > MAX_ROW_ITEMS:
                raise form_error(f"an action row holds at most {MAX_ROW_ITEMS} components")
    for component in _all_components(components):
        check_component(component)
    if attachment_count > MAX_ATTACHMENTS:
        raise form_error(f"a message holds at most {MAX_ATTACHMENTS} attachments (got {attachment_count})")
    for size in file_sizes:
        if size > upload_limit:
            raise DiscordError(413, 40005, f"Request entity too large: a file of {size} bytes is over the "
                                           f"upload limit of {upload_limit} bytes")
    if sum(file_sizes) > MAX_REQUEST_BYTES:
        raise DiscordError(413, 40005, "Request entity too large")
    if creating and not (content or embeds or components or has_attachments or body.get("sticker_ids") or body.get("poll")):
        raise DiscordError(400, 50006, "Cannot send an empty message")


def check_component(component: dict[str, Any]) -> None:
    custom_id = component.get("custom_id")
    if custom_id is not None and len(str(custom_id)) > MAX_CUSTOM_ID:
        raise form_error(f"custom_id must be {MAX_CUSTOM_ID} or fewer in length: {custom_id!r}")
    kind = component.get("type")
    label = component.get("label")
    if kind == BUTTON and label is not None and len(str(label)) > MAX_BUTTON_LABEL:
        raise form_error(f"a button label must be {MAX_BUTTON_LABEL} or fewer in length: {label!r}")
    if kind in SELECT_TYPES:
        options = component.get("options") or []
        if len(options) > MAX_SELECT_OPTIONS:
            raise form_error(f"a select holds at most {MAX_SELECT_OPTIONS} options (got {len(options)})")
        for option in options:
            for key in ("label", "value", "description"):
                text = option.get(key)
                if text is not None and not 1 <= len(str(text)) <= MAX_SELECT_TEXT:
                    raise form_error(f"a select option's {key} must be 1 to {MAX_SELECT_TEXT} in length: {text!r}")


def check_choices(body: dict[str, Any]) -> None:
    """An autocomplete answer (callback type 8)."""
    choices = (body.get("data") or {}).get("choices") or []
    if len(choices) > MAX_CHOICES:
        raise form_error(f"autocomplete returns at most {MAX_CHOICES} choices, got {len(choices)}")
    for choice in choices:
        check_choice(choice, "an autocomplete choice")


def check_choice(choice: dict[str, Any], what: str) -> None:
    name = str(choice.get("name", ""))
    if not 1 <= len(name) <= MAX_CHOICE_TEXT:
        raise form_error(f"{what}'s name must be 1 to {MAX_CHOICE_TEXT} in length: {name!r}")
    value = choice.get("value")
    if isinstance(value, str) and len(value) > MAX_CHOICE_TEXT:
        raise form_error(f"{what}'s value must be {MAX_CHOICE_TEXT} or fewer in length: {value!r}")


def check_thread_name(name: Any) -> None:
    text = str(name or "")
    if not 1 <= len(text) <= MAX_THREAD_NAME:
        raise form_error(f"a thread name must be 1 to {MAX_THREAD_NAME} in length (got {len(text)}): {text[:120]!r}")


def _all_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    stack = list(components)
    while stack:
        comp = stack.pop()
        found.append(comp)
        stack.extend(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            stack.append(comp["accessory"])
    return found

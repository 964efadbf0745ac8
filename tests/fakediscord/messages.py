"""Apply a create/edit message body (plus uploaded files) to a StoredMessage."""

from __future__ import annotations

from typing import Any

from .bodies import UploadedFile
from .ids import iso_now
from .models import StoredAttachment, StoredMessage, new_attachment
from .validation import DEFAULT_UPLOAD_LIMIT, DiscordError, check_message

_COPIED_FIELDS = ("content", "embeds", "components", "allowed_mentions", "tts", "message_reference")
# Flags a client may set; LOADING/EPHEMERAL on an existing message are Discord's to manage.
_CLIENT_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)


def apply_body(
    message: StoredMessage,
    body: dict[str, Any],
    files: list[UploadedFile],
    *,
    base_url: str,
    creating: bool,
    upload_limit: int = DEFAULT_UPLOAD_LIMIT,
) -> None:
    """Copy the fields present in ``body`` onto ``message``; absent fields stay unchanged on edit.

    Raises DiscordError (changing nothing) when Discord would refuse the body."""
    kept = _kept_attachments(message, body, creating)
    new = _new_attachments(body, files, base_url, message.channel_id)
    check_message(
        body,
        [f.size for f in new],
        creating=creating,
        has_attachments=bool(kept or new),
        upload_limit=upload_limit,
        attachment_count=len(kept) + len(new),
    )
    for name in _COPIED_FIELDS:
        if name in body:
            value = body[name]
            if name in ("embeds", "components") and value is None:
                value = []
            if name == "content" and value is None:
                value = ""
            setattr(message, name, value)
    if "flags" in body and body["flags"] is not None:
        requested = int(body["flags"])
        if creating:
            message.flags = requested
        else:
            message.flags = (message.flags & ~_CLIENT_FLAGS) | (requested & _CLIENT_FLAGS)
    message.attachments = kept + new
    if not creating:
        message.edited_timestamp = iso_now()
        message.edits.append(body)


def _kept_attachments(message: StoredMessage, body: dict[str, Any], creating: bool) -> list[StoredAttachment]:
    if creating or "attachments" not in body:
        return list(message.attachments)
    # On edit, "attachments" lists what survives: existing ids (snowflakes) are kept.
    wanted = {str(a.get("id")) for a in body.get("attachments") or []}
    return [a for a in message.attachments if str(a.id) in wanted]


def _new_attachments(
    body: dict[str, Any], files: list[UploadedFile], base_url: str, channel_id: int
) -> list[StoredAttachment]:
    described = {str(a.get("id")): a for a in body.get("attachments") or []}
    result = []
    for upload in sorted(files, key=lambda f: f.index):
        meta = described.get(str(upload.index), {})
        filename = meta.get("filename") or upload.filename
        if not filename:
            raise DiscordError(400, 50035, f"Invalid Form Body: files[{upload.index}] has no filename")
        att = new_attachment(filename, upload.data, upload.content_type, base_url, channel_id)
        att.description = meta.get("description")
        result.append(att)
    return result

"""What Discord refuses when a bot registers application commands (PUT/POST .../commands).

A slash command's name and each option's name: 1-32 characters, lower case where a letter
has a lower case, letters, digits, ``-`` and ``_``. Descriptions: 1-100 characters. At most
25 options per level, 25 choices per option (names 1-100 characters, string values at most
100), required options before optional ones, and at most 4,000 characters of names,
descriptions and choices in one command. At most 100 slash commands per scope.
"""

from __future__ import annotations

import re
from typing import Any

from .validation import check_choice, form_error

CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP, STRING = 1, 2, 3
MAX_NAME = 32
MAX_DESCRIPTION = 100
MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_TEXT = 4000
MAX_COMMANDS = 100
_NAME = re.compile(r"^[-_\w]{1,32}$")


def check_commands(commands: list[dict[str, Any]]) -> None:
    """A bulk overwrite: every command valid, names unique per type, at most 100 slash commands."""
    seen: set[tuple[str, int]] = set()
    for command in commands:
        check_command(command)
        key = (str(command.get("name")), int(command.get("type", CHAT_INPUT)))
        if key in seen:
            raise form_error(f"application command names must be unique: {key[0]!r} is there twice")
        seen.add(key)
    slash = sum(1 for c in commands if int(c.get("type", CHAT_INPUT)) == CHAT_INPUT)
    if slash > MAX_COMMANDS:
        raise form_error(f"at most {MAX_COMMANDS} slash commands per scope (got {slash})")


def check_command(command: dict[str, Any]) -> None:
    kind = int(command.get("type", CHAT_INPUT))
    name = str(command.get("name", ""))
    if kind == CHAT_INPUT:
        _check_name(name, "command")
        _check_description(command.get("description"), f"/{name}")
        _check_options(command.get("options") or [], f"/{name}", depth=0)
        total = _text_length(command)
        if total > MAX_COMMAND_TEXT:
            raise form_error(f"/{name}: names, descriptions and choices add up to {total} characters; "
                             f"at most {MAX_COMMAND_TEXT}")
    elif not 1 <= len(name) <= MAX_NAME:
        raise form_error(f"a context menu command's name must be 1 to {MAX_NAME} in length: {name!r}")


def _check_name(name: str, what: str) -> None:
    if not _NAME.match(name) or name != name.lower():
        raise form_error(f"{what} name {name!r} must be 1 to {MAX_NAME} lower-case letters, digits, - or _")


def _check_description(description: Any, where: str) -> None:
    text = str(description or "")
    if not 1 <= len(text) <= MAX_DESCRIPTION:
        raise form_error(f"{where}: a description must be 1 to {MAX_DESCRIPTION} in length "
                         f"(got {len(text)}): {text[:120]!r}")


def _check_options(options: list[dict[str, Any]], where: str, depth: int) -> None:
    if len(options) > MAX_OPTIONS:
        raise form_error(f"{where}: at most {MAX_OPTIONS} options (got {len(options)})")
    optional_seen = False
    for option in options:
        name = str(option.get("name", ""))
        here = f"{where} {name}"
        _check_name(name, "option")
        _check_description(option.get("description"), here)
        kind = int(option.get("type", STRING))
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if depth >= (1 if kind == SUB_COMMAND_GROUP else 2):
                raise form_error(f"{here}: subcommands nest at most group > subcommand")
            _check_options(option.get("options") or [], here, depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                raise form_error(f"{here}: required options must come before optional ones")
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            raise form_error(f"{here}: at most {MAX_CHOICES} choices (got {len(choices)})")
        if choices and option.get("autocomplete"):
            raise form_error(f"{here}: an option has choices or autocomplete, not both")
        for choice in choices:
            check_choice(choice, f"{here}: a choice")


def _text_length(item: dict[str, Any]) -> int:
    total = len(str(item.get("name", ""))) + len(str(item.get("description") or ""))
    for choice in item.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total + sum(_text_length(option) for option in item.get("options") or [])

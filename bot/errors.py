"""Errors of the bot layer; their messages are written for players."""

from __future__ import annotations


class CommandError(ValueError):
    """The command cannot be turned into an action; the message says why and what is allowed."""


class NotYourTurn(CommandError):
    """Someone else (or a company someone else presides) must make this move."""


class NotPossibleNow(CommandError):
    """No legal move at all is made by this command word now (the engine may know why)."""

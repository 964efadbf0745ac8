"""Answers to read-only questions about a board, kept while the board stays as it is.

A legal-moves query asks the same things many times (what a company reaches, where it may lay
track or put a station), and the bot asks for the legal moves several times in one position
(autocomplete, the offered-move check, the reply). Each answer is kept with the board's
fingerprint (`Board.fingerprint`: every tile, rotation, station and marker) and dropped as
soon as the board differs in any of them, however it was changed, so a cached answer is never
one of an older position. The cache stays outside the board's own state: copies and pickles
of a board or a game start without one, and comparing two boards never sees it.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from engine.core.board import Board

T = TypeVar("T")


class _Answers:
    def __init__(self, fingerprint: tuple[Any, ...]) -> None:
        self.fingerprint = fingerprint
        self.values: dict[Hashable, Any] = {}


_CACHES: weakref.WeakKeyDictionary[Board, _Answers] = weakref.WeakKeyDictionary()


def cached(board: Board, key: Hashable, compute: Callable[[], T]) -> T:
    """`compute()`'s answer for `key` in the board's current position, computed at most once
    per position. The answer is shared by every caller: treat it as read-only."""
    fingerprint = board.fingerprint()
    answers = _CACHES.get(board)
    if answers is None or answers.fingerprint != fingerprint:
        answers = _CACHES[board] = _Answers(fingerprint)
    if key in answers.values:
        value: T = answers.values[key]
        return value
    value = compute()
    answers.values[key] = value
    return value


def kept(board: Board, key: Hashable) -> Any | None:
    """The answer for `key` if one is kept for the board's current position, else None (nothing
    is computed)."""
    answers = _CACHES.get(board)
    if answers is None or key not in answers.values or answers.fingerprint != board.fingerprint():
        return None
    return answers.values[key]


def forget(board: Board) -> None:
    """Drop every answer kept for the board."""
    _CACHES.pop(board, None)

"""JSON from people who may be hostile: refused with a clear reason, never a crash.

Python's ``json`` turns some inputs into errors nobody catches (``RecursionError`` for deep
nesting, ``ValueError`` for integers of thousands of digits) and accepts others that fail only
later, at the database (``NaN``, integers past 64 bits, lone surrogates such as ``"\\ud800"``
that cannot be written as UTF-8). ``loads`` refuses all of them up front with
:class:`UnsafeJSON`, whose message says what was wrong and what is allowed; ``check_value``
does the same for a value built in Python (an action dict about to be stored).
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 64  # 18xx.games actions nest a handful of levels; 64 is far beyond any real log
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # what SQLite (and PostgreSQL's BIGINT) can hold
_MAX_DIGITS = len(str(INT_MAX))


class UnsafeJSON(ValueError):
    """The JSON text or value cannot be taken; the message says why."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        raise UnsafeJSON(f"the number {_short(text)} is too large: whole numbers must lie within "
                         f"{INT_MIN} and {INT_MAX}")
    value = int(text)
    if not INT_MIN <= value <= INT_MAX:
        raise UnsafeJSON(f"the number {text} is too large: whole numbers must lie within "
                         f"{INT_MIN} and {INT_MAX}")
    return value


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise UnsafeJSON(f"the number {_short(text)} is too large")
    return value


def _constant(text: str) -> Any:
    raise UnsafeJSON(f"{text} is not a JSON number; use a finite number")


def _short(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} characters)"


def loads(raw: bytes | str) -> Any:
    """Parse JSON text, refusing what cannot be stored or would crash the parser."""
    if isinstance(raw, bytes | bytearray):
        try:
            raw = bytes(raw).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise UnsafeJSON(f"the file is not UTF-8 text (byte {exc.start})") from None
    try:
        value = json.loads(raw, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise UnsafeJSON(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise UnsafeJSON(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH, numbers the database cannot hold and text that
    is not valid Unicode. Iterative, so hostile depth cannot exhaust the stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > MAX_DEPTH:
                raise UnsafeJSON(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
            if isinstance(item, dict):
                for key, child in item.items():
                    _check_text(key)
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            _check_text(item)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not INT_MIN <= item <= INT_MAX:
                raise UnsafeJSON(f"a number is too large: whole numbers must lie within {INT_MIN} and {INT_MAX}")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise UnsafeJSON(f"{item} is not a JSON number; use a finite number")
        else:
            raise UnsafeJSON(f"a {type(item).__name__} cannot be written as JSON")


def _check_text(text: Any) -> None:
    if not isinstance(text, str):
        raise UnsafeJSON(f"object keys must be text, not {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise UnsafeJSON(f"text holds an unpaired surrogate (\\u{ord(text[exc.start]):04x}), "
                         "which is not a character; send valid Unicode text") from None

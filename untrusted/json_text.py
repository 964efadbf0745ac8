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
import re
from typing import Any

MAX_DEPTH = 64  # 18xx.games actions nest a handful of levels; 64 is far beyond any real log
INT_MIN, INT_MAX = -(2**63), 2**63 - 1  # what SQLite (and PostgreSQL's BIGINT) can hold
_MAX_DIGITS = len(str(INT_MAX))
# What in a JSON text can be refused besides nesting: an escaped lone surrogate, and a run of as
# many digits as INT_MAX has (shorter whole numbers always fit). Found anywhere, even inside a
# string, they send the text through the careful parse: every number in the text read by `_int`
# (so one a repeated key overwrites is refused too) and the whole check of the value. Digits are
# found by marking every byte of the UTF-8 text (a digit "0", anything else " "), many times
# faster than a regular expression for runs of digits.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_DIGIT_MARKS = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_LONG_DIGITS = b"0" * _MAX_DIGITS


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
    encoded = _utf8(raw)
    careful = encoded is None or _SURROGATE_ESCAPE.search(raw) is not None or \
        _LONG_DIGITS in encoded.translate(_DIGIT_MARKS)
    try:
        # Without a long run of digits, whole numbers by the parser's own fast path: all fit.
        value = json.loads(raw, parse_int=_int if careful else None, parse_float=_float,
                           parse_constant=_constant)
    except RecursionError:
        raise UnsafeJSON(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    except json.JSONDecodeError as exc:
        raise UnsafeJSON(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})") from None
    if careful:
        check_value(value)
    else:
        # Parsed from text that holds neither: its strings are valid Unicode, its keys are text,
        # its numbers fit and are finite (parse_float, parse_constant); only the nesting is left
        # to check. A whole game log is read in a third of the time of the careful way.
        _check_depth(value)
    return value


def _utf8(text: str) -> bytes | None:
    """The text as UTF-8, or None where it holds a lone surrogate."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return None


def _check_depth(value: Any) -> None:
    """Refuse nesting deeper than MAX_DEPTH, a level at a time (so hostile depth cannot exhaust the
    stack), reading each container's items only to find the containers among them."""
    level = [value] if isinstance(value, dict | list) else []
    depth = 1
    while level:
        if depth > MAX_DEPTH:
            raise UnsafeJSON(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)")
        inner: list[Any] = []
        for item in level:
            inner += [child for child in (item.values() if type(item) is dict else item)
                      if type(child) is dict or type(child) is list]
        level = inner
        depth += 1


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

"""Hostile JSON text is refused with its reason, whichever path the check takes: the whole check
of every value, or, where the text holds no escaped surrogate and no long run of digits, the
check of the nesting alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from untrusted.json_text import INT_MAX, INT_MIN, MAX_DEPTH, UnsafeJSON, check_value, loads

LOG = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18USA" / "109372.json"

REFUSED = {
    "nested one level too deep": ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested too deeply"),
    "nested too deep in an object": ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "nested too deeply"),
    "nested past the parser's own limit": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    "one past the largest whole number": (f'{{"a": {INT_MAX + 1}}}', "is too large"),
    "one below the smallest": (f"[{INT_MIN - 1}]", "is too large"),
    "thousands of digits": ("[" + "9" * 5000 + "]", "is too large"),
    "too large under a key repeated later": (f'{{"seed": {INT_MAX + 1}, "seed": 7}}', "is too large"),
    "an escaped lone surrogate": ('{"name": "a\\ud800b"}', "unpaired surrogate"),
    "an escaped lone surrogate in capitals": ('["\\uDFFF"]', "unpaired surrogate"),
    "NaN": ("[NaN]", "not a JSON number"),
    "an infinite number": ("[1e999]", "is too large"),
    "not JSON": ('{"a": }', "not valid JSON"),
}


@pytest.mark.parametrize("text, reason", REFUSED.values(), ids=REFUSED.keys())
def test_hostile_text_is_refused_with_its_reason(text: str, reason: str) -> None:
    with pytest.raises(UnsafeJSON, match=reason):
        loads(text)
    with pytest.raises(UnsafeJSON, match=reason):
        loads(text.encode("utf-8"))


def test_a_lone_surrogate_character_in_the_text_itself_is_refused() -> None:
    with pytest.raises(UnsafeJSON, match="unpaired surrogate"):
        loads('["a\ud800"]')


ACCEPTED = {
    "nested exactly as deep as allowed": ("[" * MAX_DEPTH + "]" * MAX_DEPTH),
    "the smallest and largest whole numbers": f"[{INT_MIN}, {INT_MAX}]",
    "an escaped backslash before u-d-8 (no surrogate)": '{"a": "\\\\ud800"}',
    "a long run of digits inside a string": '{"a": "9223372036854775808 and more"}',
    "a paired surrogate": '["\\ud83d\\ude82"]',
    "text beyond ASCII": '{"gare": "Saint-Lazare \u00e9 \u4e2d"}',
}


@pytest.mark.parametrize("text", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_what_fits_is_read_as_json_reads_it(text: str) -> None:
    assert loads(text) == json.loads(text)


def test_a_whole_game_log_reads_as_json_reads_it_and_passes_the_whole_check() -> None:
    text = LOG.read_text()
    value = loads(text)
    assert value == json.loads(text)
    check_value(value)  # the nesting-only path took nothing the whole check would refuse

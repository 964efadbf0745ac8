"""The hostile inputs of issue 9 (items 1 and 2), each with the words its refusal must say.

Imports: 18xx.games documents (the first 20 actions of fixture 65394) spoilt one way each,
written out as raw JSON text, since several of them cannot be built as Python values and
dumped (NaN, lone surrogates, integers of thousands of digits).
"""

from __future__ import annotations

import json
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
BIG = str(2**63)  # one past the largest 64-bit integer


def _base() -> dict:
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:20]
    return document


def _swap(text: str, old: str, new: str) -> bytes:
    assert old in text, old
    return text.replace(old, new, 1).encode("utf-8")


def hostile_documents() -> dict[str, tuple[bytes, str]]:
    """name -> (file contents, words of the refusal)."""
    document = _base()
    text = json.dumps(document)
    first = document["players"][0]
    return {
        "nesting 5000 deep": (_swap(text, '"actions": [', '"junk": ' + "[" * 5000 + "]" * 5000 + ', "actions": ['),
                              "nested too deeply"),
        "integer of 5000 digits": (_swap(text, '"actions": [', '"junk": ' + "7" * 5000 + ', "actions": ['),
                                   "is too large"),
        "NaN in an unknown field": (_swap(text, '"actions": [{', '"actions": [{"junk": NaN, '),
                                    "NaN is not a JSON number"),
        "lone surrogate in a player name": (_swap(text, json.dumps(first["name"]), '"\\ud800"'),
                                            "unpaired surrogate"),
        "lone surrogate in an action": (_swap(text, '"actions": [{', '"actions": [{"junk": "a\\udfffb", '),
                                        "unpaired surrogate"),
        "seed of 2^63": (_swap(text, '"settings": {', f'"settings": {{"seed": {BIG}, '), "is too large"),
        "player id of 2^63": (_swap(text, f'"id": {json.dumps(first["id"])}, "name"', f'"id": {BIG}, "name"'),
                              "is too large"),
        "action id of 2^63": (_swap(text, '"actions": [{', f'"actions": [{{"id": {BIG}, '), "is too large"),
        "control character in a name": (_swap(text, json.dumps(first["name"]), '"Al\\u0000ice"'),
                                        "control character"),
        "name of 200 characters": (_swap(text, json.dumps(first["name"]), json.dumps("N" * 200)),
                                   "at most 32"),
    }


def hostile_raw_actions() -> dict[str, tuple[str, str]]:
    """`/action json:` texts (at most 2,000 characters, Discord allows 6,000) -> refusal words."""
    return {
        "nesting 980 deep": ('{"type": "pass", "junk": ' + "[" * 980 + "]" * 980 + "}", "nested too deeply"),
        "integer of 5000 digits": ('{"type": "pass", "junk": ' + "7" * 5000 + "}", "at most 2000"),
        "NaN in an unknown field": ('{"type": "pass", "junk": NaN}', "NaN is not a JSON number"),
        "lone surrogate in a message": ('{"type": "message", "message": "\\ud800"}', "unpaired surrogate"),
        "id of 2^63": (f'{{"type": "pass", "id": {BIG}}}', "is too large"),
        "entity of 2^63": (f'{{"type": "pass", "entity": {BIG}}}', "is too large"),
        "unknown field": ('{"type": "pass", "junk": "x"}', "Unknown field(s) 'junk'"),
        "extra_revenue": ('{"type": "pass", "extra_revenue": 10}', "extra_revenue is not taken"),
        "bid without a company": ('{"type": "bid", "price": 80}', 'A bid action (/bid) needs "company" or "corporation".'),
    }


# /game settings values that once bricked the bot on its next start.
HOSTILE_SETTINGS: dict[str, dict[str, float]] = {
    "first after 1e8 h": {"first_after_hours": 100_000_000.0},
    "first after inf": {"first_after_hours": float("inf")},
    "first after 1e308": {"first_after_hours": 1e308},
    "repeat 1e308": {"repeat_hours": 1e308},
    "first after NaN": {"first_after_hours": float("nan")},
    "first after 0": {"first_after_hours": 0.0},
    "repeat every 1 minute": {"repeat_hours": 1 / 60},
}


def database_rows(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table, read with plain sqlite3: equal before and after a refused
    command means the database is unchanged."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: sorted(conn.execute(f'SELECT * FROM "{table}"').fetchall(), key=repr) for table in tables}
    finally:
        conn.close()

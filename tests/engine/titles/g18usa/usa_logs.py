"""The 18USA logs in tests/data and their reference traces, for the 18USA tests."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[3] / "data"
FIXTURE = DATA / "fixtures" / "18USA" / "109372.json"
GENERATED = sorted((DATA / "generated" / "18USA").glob("*.json"))
LOGS = [(FIXTURE, DATA / "traces" / "109372.jsonl.gz")] + [
    (path, path.parent / "traces" / f"{path.stem}.jsonl.gz") for path in GENERATED
]
MORE = sorted((DATA / "generated" / "18USA-more").glob("*.json"))
# The larger corpus of random games (issue 29), each with its trace.
MORE_LOGS = [(path, path.parent / "traces" / f"{path.stem}.jsonl.gz") for path in MORE]
ALL_LOGS = LOGS + MORE_LOGS
SETUPS = DATA / "setups"


@cache
def read_log(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def trace_lines(path: Path) -> Iterator[dict[str, Any]]:
    # Read whole: a gzip file read line by line took longer than parsing its lines.
    for line in gzip.decompress(path.read_bytes()).splitlines():
        yield json.loads(line)


def trace_head(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The setup line and the state after the first action."""
    lines = trace_lines(path)
    return next(lines)["setup"], next(lines)


def seeded_setups(title: str) -> list[dict[str, Any]]:
    with (SETUPS / f"{title}.jsonl").open() as handle:
        return [json.loads(line) for line in handle]

"""The field-by-field comparison of our state with a reference trace line, shared by every
title's trace checker."""

from __future__ import annotations

from typing import Any


def differences(ours: Any, theirs: Any, path: str = "") -> list[str]:
    """Each path where `ours` differs from `theirs`: dicts by key, lists of dicts by index."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        found = []
        for key in sorted(set(ours) | set(theirs), key=str):
            found += differences(ours.get(key), theirs.get(key), f"{path}.{key}")
        return found
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs) and \
            all(isinstance(x, dict) for x in ours):
        found = []
        for index, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            found += differences(a, b, f"{path}[{index}]")
        return found
    return [] if ours == theirs else [f"{path}: ours {ours!r}, reference {theirs!r}"]

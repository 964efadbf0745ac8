"""Fixtures of the storage tests: real SQLite files in tmp_path, no mocks."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# The dev venv's editable install resolves top-level packages as namespace packages (their
# __init__ never runs) unless the repository root comes first on sys.path, as it does with
# ``python -m pytest`` but not with the ``pytest`` script.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from storage_helpers import load_fixture  # noqa: E402

from storage import SqliteGameRepository  # noqa: E402


@pytest.fixture
def fixture_doc() -> dict[str, Any]:
    return load_fixture()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
async def repo(db_path: Path) -> AsyncIterator[SqliteGameRepository]:
    store = await SqliteGameRepository.open(db_path)
    try:
        yield store
    finally:
        await store.close()

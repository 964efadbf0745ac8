"""Fixtures of the storage tests: real SQLite files in tmp_path and real PostgreSQL databases
(one per test, on a server the session starts), no mocks. ``backend`` and ``repo`` run a
test once on each."""

from __future__ import annotations

import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
# The dev venv's editable install resolves top-level packages as namespace packages (their
# __init__ never runs) unless the repository root comes first on sys.path, as it does with
# ``python -m pytest`` but not with the ``pytest`` script.
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from backends import BACKENDS, Backend, PostgresBackend, SqliteBackend  # noqa: E402
from storage_helpers import load_fixture  # noqa: E402

from storage import GameRepository  # noqa: E402


@pytest.fixture
def fixture_doc() -> dict[str, Any]:
    return load_fixture()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture(params=BACKENDS)
async def backend(request: pytest.FixtureRequest, db_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield SqliteBackend(db_path)
        return
    server = request.getfixturevalue("postgres_server")
    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    yield PostgresBackend(server.url(name))
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture
async def repo(backend: Backend) -> AsyncIterator[GameRepository]:
    store = await backend.open()
    try:
        yield store
    finally:
        await store.close()

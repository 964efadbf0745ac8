"""Fixtures of the storage tests: real SQLite files in tmp_path and real PostgreSQL databases
(one per test, on a server the session starts), no mocks. ``backend`` and ``repo`` run a
test once on each."""

from __future__ import annotations

import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
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


BackendFactory = Callable[[], Awaitable[Backend]]


async def create_pg_database(server: Any) -> str:
    """A new empty database on the test server; returns its name."""
    name = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return name


async def drop_pg_databases(server: Any, names: list[str]) -> None:
    admin = await asyncpg.connect(server.url())
    try:
        for name in names:
            await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(params=BACKENDS)
async def backend_factory(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[BackendFactory]:
    """Makes empty stores of the test's backend: a new SQLite file, or a new PostgreSQL
    database (dropped after the test)."""
    created: list[str] = []
    server = request.getfixturevalue("postgres_server") if request.param == "postgresql" else None

    async def make() -> Backend:
        if server is None:
            path = tmp_path / (f"games{len(created)}.db" if created else "games.db")
            created.append(str(path))
            return SqliteBackend(path)
        name = await create_pg_database(server)
        created.append(name)
        return PostgresBackend(server.url(name))

    yield make
    if server is not None and created:
        await drop_pg_databases(server, created)


@pytest.fixture
async def postgres_backend(postgres_server: Any) -> AsyncIterator[PostgresBackend]:
    """A PostgreSQL store for tests that use both backends at once."""
    name = await create_pg_database(postgres_server)
    yield PostgresBackend(postgres_server.url(name))
    await drop_pg_databases(postgres_server, [name])


@pytest.fixture
async def backend(backend_factory: BackendFactory) -> Backend:
    return await backend_factory()


@pytest.fixture
async def repo(backend: Backend) -> AsyncIterator[GameRepository]:
    store = await backend.open()
    try:
        yield store
    finally:
        await store.close()

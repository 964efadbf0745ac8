"""Shared pytest configuration for the whole test suite."""

import pytest

# --- fakediscord: the local Discord fake (tests/fakediscord/) ---------------------------------
# tests/ is on sys.path (rootdir conftest, no __init__.py), so the package imports as
# ``fakediscord``. Re-exporting the fixture makes ``fake_discord`` available to every test.
from fakediscord.fixtures import fake_discord  # noqa: F401

# --- a throwaway PostgreSQL server (tests/pg_server.py), started on first use -----------------
from pg_server import PostgresServer, ServerUnavailable


@pytest.fixture(scope="session")
def postgres_server():
    try:
        server = PostgresServer.start()
    except ServerUnavailable as error:
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()

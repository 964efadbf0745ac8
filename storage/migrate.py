"""Numbered SQL migrations, applied in order at start-up (SQLite; ``storage.pg_migrate``
applies PostgreSQL's, loaded by the same ``load_migrations``).

Each file ``migrations/NNNN_name.sql`` moves the schema from version NNNN-1 to NNNN. The
version lives in the database header (``PRAGMA user_version``), so it commits or rolls back
together with the schema change it describes.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from storage.errors import MigrationError

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(
    directory: Path | None = None, package: str = "storage.migrations"
) -> list[Migration]:
    """Read the migration files (of a folder, else of the package: ``storage.migrations`` for
    SQLite, ``storage.migrations_pg`` for PostgreSQL), checking they are numbered 1, 2, 3...
    without gaps."""
    if directory is None:
        files = [
            (entry.name, entry.read_text(encoding="utf-8"))
            for entry in resources.files(package).iterdir()
            if entry.name.endswith(".sql")
        ]
    else:
        files = [(p.name, p.read_text(encoding="utf-8")) for p in directory.glob("*.sql")]
    migrations = []
    for name, sql in files:
        match = _NAME.match(name)
        if match is None:
            raise MigrationError(f"badly named migration file {name!r}")
        migrations.append(Migration(int(match.group(1)), name, sql))
    migrations.sort(key=lambda m: m.version)
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration {expected:04d} is missing (found {migration.name})")
    return migrations


def split_statements(sql: str) -> list[str]:
    """Split a script into complete statements.

    ``executescript`` would be simpler, but it commits any open transaction first, which
    would break the one-transaction-per-migration guarantee. ``sqlite3.complete_statement``
    knows about string literals and trigger bodies, so cutting at each ';' that completes a
    statement is safe.
    """
    statements: list[str] = []
    start = 0
    for index, char in enumerate(sql):
        if char == ";" and sqlite3.complete_statement(sql[start : index + 1]):
            statement = sql[start : index + 1].strip()
            if _strip_comments(statement):
                statements.append(statement)
            start = index + 1
    if _strip_comments(sql[start:]):
        raise MigrationError("migration ends with an incomplete statement")
    return statements


def _strip_comments(text: str) -> str:
    return "\n".join(line.split("--", 1)[0] for line in text.splitlines()).strip(" \n;")


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


async def migrate(
    conn: aiosqlite.Connection,
    *,
    target: int | None = None,
    migrations: list[Migration] | None = None,
) -> int:
    """Apply every migration above the database's version (up to ``target``); return the
    resulting version. The connection must be in autocommit mode (isolation_level=None)."""
    if migrations is None:
        migrations = load_migrations()
    check_target(migrations, target)
    for migration in pending(migrations, await schema_version(conn), target):
        await _apply(conn, migration)
    return await schema_version(conn)


def check_target(migrations: list[Migration], target: int | None) -> None:
    if target is not None and not 0 <= target <= len(migrations):
        raise MigrationError(f"no migration {target}; latest is {len(migrations)}")


def pending(migrations: list[Migration], current: int, target: int | None) -> list[Migration]:
    """The migrations taking a database at version ``current`` to ``target`` (None: the
    latest); refuses a database newer than this program."""
    latest = len(migrations)
    if current > latest:
        raise MigrationError(
            f"database schema version {current} is newer than this program ({latest})"
        )
    return migrations[current : latest if target is None else target]


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    statements = split_statements(migration.sql)
    # BEGIN IMMEDIATE takes the write lock before re-reading the version, so two processes
    # starting together cannot both apply the same migration.
    await conn.execute("BEGIN IMMEDIATE")
    try:
        if await schema_version(conn) >= migration.version:
            await conn.execute("ROLLBACK")
            return
        for statement in statements:
            await conn.execute(statement)
        # PRAGMA takes no parameters; the version is an int we produced ourselves.
        await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
        await conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            await conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        raise

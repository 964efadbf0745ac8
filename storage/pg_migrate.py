"""Numbered SQL migrations for PostgreSQL (``storage/migrations_pg/NNNN_name.sql``).

The applied versions are rows of ``schema_migrations`` in the database, written in the same
transaction as the schema change they record (PostgreSQL's DDL is transactional), so a
failed migration leaves no trace. An advisory lock makes processes that start together
apply each migration once.
"""

from __future__ import annotations

import asyncpg  # type: ignore[import-untyped]

from storage.errors import MigrationError, StoreUnusable
from storage.migrate import Migration, check_target, load_migrations, pending

PACKAGE = "storage.migrations_pg"
# Advisory lock keys (two int4s) are shared by every client of the server: ours start here.
LOCK_NAMESPACE = 0x53544D  # "STM"
MIGRATION_LOCK = 0
GAME_LOCK_NAMESPACE = LOCK_NAMESPACE + 1

_CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
    " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
)


async def schema_version(conn: asyncpg.Connection) -> int:
    if not await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
        if await conn.fetchval("SELECT to_regclass('games') IS NOT NULL"):
            raise StoreUnusable.damaged(
                "it has Stationmaster's tables but no schema_migrations table, which says their version")
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))


async def migrate(
    conn: asyncpg.Connection,
    *,
    target: int | None = None,
    migrations: list[Migration] | None = None,
) -> int:
    """Apply every migration above the database's version (up to ``target``), each in its own
    transaction; return the resulting version."""
    if migrations is None:
        migrations = load_migrations(package=PACKAGE)
    check_target(migrations, target)
    current = await schema_version(conn)
    if not pending(migrations, current, target):
        return current  # nothing to change: nothing is created or locked
    # A migration waits as long as it must (DDL may queue behind other sessions' locks),
    # whatever lock_timeout the connection has for commands.
    await conn.execute("SET lock_timeout = 0")
    await conn.execute("SELECT pg_advisory_lock($1, $2)", LOCK_NAMESPACE, MIGRATION_LOCK)
    try:
        try:
            await conn.execute(_CREATE_TABLE)
        except asyncpg.InsufficientPrivilegeError as exc:
            raise _cannot_change(current, len(migrations), exc) from exc
        for migration in pending(migrations, await schema_version(conn), target):
            await _apply(conn, migration, len(migrations))
        return await schema_version(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", LOCK_NAMESPACE, MIGRATION_LOCK)
        await conn.execute("RESET lock_timeout")


def _cannot_change(current: int, latest: int, exc: Exception) -> MigrationError:
    return MigrationError(
        f"the database's schema is at version {current} and this Stationmaster needs "
        f"version {latest}, but its user may not change the schema ({exc}); run "
        "Stationmaster once as a user who may (the database's owner)"
    )


async def _apply(conn: asyncpg.Connection, migration: Migration, latest: int) -> None:
    try:
        async with conn.transaction():
            # Without arguments asyncpg sends the script as one simple query: every
            # statement in it runs, in this transaction.
            await conn.execute(migration.sql)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                migration.version,
                migration.name,
            )
    except asyncpg.InsufficientPrivilegeError as exc:
        raise _cannot_change(migration.version - 1, latest, exc) from exc
    except asyncpg.PostgresError as exc:
        raise MigrationError(f"migration {migration.name} failed: {exc}") from exc

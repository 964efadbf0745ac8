"""The two stores the storage tests run against, behind one small interface.

A backend opens repositories on its own database, and reads or writes that database with
its own driver (sqlite3, asyncpg) independently of the code under test: ``contents()``
equal before and after means nothing changed.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

import asyncpg
from storage_helpers import db_contents

from storage import GameRepository, SqliteGameRepository
from storage.migrate import load_migrations
from storage.migrate import migrate as sqlite_migrate
from storage.migrate import schema_version as sqlite_schema_version
from storage.pg_migrate import PACKAGE as PG_MIGRATIONS
from storage.pg_migrate import migrate as pg_migrate
from storage.pg_migrate import schema_version as pg_schema_version
from storage.postgres import PostgresGameRepository

BACKENDS = ("sqlite", "postgresql")


class Backend(ABC):
    name: str
    url: str
    # What the backend's driver raises when the schema refuses a write.
    integrity_error: type[Exception]

    @abstractmethod
    async def open(self, **options: Any) -> GameRepository: ...

    @abstractmethod
    async def contents(self) -> dict[str, Any]:
        """Schema version, schema, and every row of every table."""

    @abstractmethod
    async def execute(self, sql: str, *args: Any) -> None:
        """One statement with ``?`` placeholders, committed, on a connection of its own."""

    @abstractmethod
    async def migrate_to(self, target: int | None, migrations_dir: Path | None = None) -> int: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    def latest_version(self) -> int:
        return len(self.migrations())

    def migrations(self) -> list[Any]:
        return load_migrations(package=self.migrations_package)

    migrations_package: str

    def contents_sync(self) -> dict[str, Any]:
        return asyncio.run(self.contents())


class SqliteBackend(Backend):
    name = "sqlite"
    integrity_error = sqlite3.IntegrityError
    migrations_package = "storage.migrations"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.url = f"sqlite:///{path}"

    async def open(self, **options: Any) -> GameRepository:
        return await SqliteGameRepository.open(self.path, **options)

    async def contents(self) -> dict[str, Any]:
        return db_contents(self.path)

    def contents_sync(self) -> dict[str, Any]:
        return db_contents(self.path)

    async def execute(self, sql: str, *args: Any) -> None:
        conn = sqlite3.connect(self.path)
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            with conn:
                conn.execute(sql, args)
        finally:
            conn.close()

    async def _connect(self) -> Any:
        import aiosqlite

        conn = await aiosqlite.connect(self.path, isolation_level=None)
        await conn.execute("PRAGMA foreign_keys = ON")
        return conn

    async def migrate_to(self, target: int | None, migrations_dir: Path | None = None) -> int:
        conn = await self._connect()
        try:
            migrations = None if migrations_dir is None else load_migrations(migrations_dir)
            return await sqlite_migrate(conn, target=target, migrations=migrations)
        finally:
            await conn.close()

    async def schema_version(self) -> int:
        conn = await self._connect()
        try:
            return await sqlite_schema_version(conn)
        finally:
            await conn.close()


def numbered(sql: str) -> str:
    parts = sql.split("?")
    return "".join(part + (f"${n}" if n < len(parts) else "") for n, part in enumerate(parts, 1))


class PostgresBackend(Backend):
    name = "postgresql"
    integrity_error = asyncpg.IntegrityConstraintViolationError
    migrations_package = PG_MIGRATIONS

    def __init__(self, url: str) -> None:
        self.url = url

    async def open(self, **options: Any) -> GameRepository:
        return await PostgresGameRepository.open(self.url, **options)

    async def _connect(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url)
        await conn.set_type_codec(
            "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
        )
        return conn

    async def contents(self) -> dict[str, Any]:
        conn = await self._connect()
        try:
            tables = [
                r["tablename"]
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"
                )
            ]
            contents: dict[str, Any] = {
                "user_version": await pg_schema_version(conn),
                "schema": await _pg_schema(conn),
            }
            for table in tables:
                rows = await conn.fetch(f'SELECT * FROM "{table}"')
                contents[table] = sorted((tuple(r.values()) for r in rows), key=repr)
            return contents
        finally:
            await conn.close()

    async def execute(self, sql: str, *args: Any) -> None:
        conn = await self._connect()
        try:
            await conn.execute(numbered(sql), *args)
        finally:
            await conn.close()

    async def migrate_to(self, target: int | None, migrations_dir: Path | None = None) -> int:
        conn = await self._connect()
        try:
            migrations = None if migrations_dir is None else load_migrations(migrations_dir)
            return await pg_migrate(conn, target=target, migrations=migrations)
        finally:
            await conn.close()

    async def schema_version(self) -> int:
        conn = await self._connect()
        try:
            return await pg_schema_version(conn)
        finally:
            await conn.close()


async def _pg_schema(conn: asyncpg.Connection) -> list[tuple[Any, ...]]:
    """Columns, constraints, indexes, triggers and functions of the public schema."""
    queries = [
        "SELECT 'column', table_name::text, column_name::text, data_type::text,"
        " coalesce(column_default, ''), is_nullable::text FROM information_schema.columns"
        " WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
        "SELECT 'constraint', conrelid::regclass::text, conname::text, pg_get_constraintdef(oid)"
        " FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 2, 3",
        "SELECT 'index', tablename::text, indexname::text, indexdef FROM pg_indexes"
        " WHERE schemaname = 'public' ORDER BY 2, 3",
        "SELECT 'trigger', tgrelid::regclass::text, tgname::text, pg_get_triggerdef(oid)"
        " FROM pg_trigger WHERE NOT tgisinternal ORDER BY 2, 3",
        "SELECT 'function', proname::text, pg_get_functiondef(oid) FROM pg_proc"
        " WHERE pronamespace = 'public'::regnamespace ORDER BY 2",
    ]
    schema: list[tuple[Any, ...]] = []
    for query in queries:
        schema.extend(tuple(r.values()) for r in await conn.fetch(query))
    return schema

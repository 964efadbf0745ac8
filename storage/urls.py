"""Opening a store from a database URL: ``sqlite:///path`` (the default kind) or
``postgresql://user@host:port/dbname``. A plain file path means SQLite."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from storage.errors import StorageError
from storage.repository import GameRepository
from storage.sql_base import Clock, now

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    kind: Literal["sqlite", "postgresql"]
    target: str  # the SQLite file path, or the PostgreSQL connection URL

    def describe(self) -> str:
        """For messages: the file, or the server and database without any password."""
        if self.kind == "sqlite":
            return self.target
        scheme, rest = self.target.split("://", 1)
        host = rest.rsplit("@", 1)[-1]
        return f"{scheme}://{host}"


def parse_database_url(url: str) -> DatabaseUrl:
    """``sqlite:///games.db`` is the relative file games.db, ``sqlite:////srv/games.db`` the
    absolute one (SQLAlchemy's convention); a value without a scheme is a file path."""
    if not isinstance(url, str) or not url.strip():
        raise StorageError("the database URL is empty")
    if url.startswith(SQLITE_PREFIX):
        path = url[len(SQLITE_PREFIX):]
        if not path:
            raise StorageError(f"{url!r} names no file: write sqlite:///path/to/file.db")
        return DatabaseUrl("sqlite", path)
    if url.startswith(POSTGRES_SCHEMES):
        return DatabaseUrl("postgresql", url)
    if "://" in url:
        raise StorageError(
            f"unsupported database URL {url.split('://', 1)[0]}://...: use sqlite:///FILE "
            "or postgresql://USER@HOST:PORT/DATABASE"
        )
    return DatabaseUrl("sqlite", url)


async def open_repository(
    url: str, *, clock: Clock = now, create: bool = True
) -> GameRepository:
    """Open the store the URL names and bring its schema up to date. With ``create=False`` a
    missing SQLite file is an error instead of a new empty store."""
    parsed = parse_database_url(url)
    if parsed.kind == "sqlite":
        from storage.sqlite import SqliteGameRepository

        if not create and not Path(parsed.target).exists():
            raise StorageError(f"no database at {parsed.target}")
        return await SqliteGameRepository.open(parsed.target, clock=clock)
    from storage.postgres import PostgresGameRepository

    return await PostgresGameRepository.open(parsed.target, clock=clock)

"""Is this file a Stationmaster store? Asked before SQLite writes anything to it.

A path may name a folder, a device (``/dev/null``), a file of random bytes, a database cut
short or with a damaged page, or another program's database. SQLite would answer some of
them with a traceback-worthy error on the first statement, hang on others (a pipe), and
happily add our tables to another program's database. :func:`check_path` refuses what is not
a regular file before SQLite opens it; :func:`check_store` reads the header, the schema and
every page (``PRAGMA quick_check``) before the first write, so nothing is written to a file
that is not a Stationmaster store; :func:`store_error` words SQLite's later complaints about
the file with its name.
"""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

import aiosqlite

from storage.errors import StorageError

# Tables every Stationmaster store has from its first migration on (which also sets the
# schema version, PRAGMA user_version, above 0).
OUR_TABLES = frozenset({"games", "seats", "actions", "game_settings"})

# SQLite's primary result codes that say the file itself is wrong (sqlite3.h).
_CORRUPT, _CANTOPEN, _NOTADB, _IOERR = 11, 14, 26, 10


class StoreFileError(StorageError):
    """The file named as a SQLite store is not one; the message names it and says why."""


def check_path(path: str, *, create: bool) -> None:
    """Refuse a path SQLite should not open: a folder, a device or pipe, a file in a folder
    that does not exist (or, with ``create`` False, a missing file)."""
    target = Path(path)
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        if not create:
            raise StoreFileError(f"no database at {path}") from None
        folder = target.parent
        if not folder.is_dir():
            what = "is not a folder" if folder.exists() else "does not exist"
            raise StoreFileError(f"cannot create the database {path}: the folder {folder} {what}") from None
        return
    except OSError as error:
        raise StoreFileError(f"cannot open the database {path}: {error.strerror or error}") from None
    if stat.S_ISDIR(mode):
        raise StoreFileError(f"{path} is a folder, not a database file; name a file, such as "
                             f"{target / 'stationmaster.db'}")
    if not stat.S_ISREG(mode):
        raise StoreFileError(f"{path} is not a regular file (a device, pipe or socket); name a database file")


def store_error(path: str, error: sqlite3.Error) -> StoreFileError | None:
    """SQLite's error about the file itself, worded with the file's name; None for any other
    error (a constraint, a busy lock), which its caller handles."""
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary == _NOTADB:
        return StoreFileError(f"{path} is not a SQLite database (SQLite: {error}); a Stationmaster store is a "
                              "file Stationmaster created, or a new file")
    if primary == _CORRUPT:
        return StoreFileError(f"the database {path} is damaged (SQLite: {error}); restore it from a backup, "
                              "or name another file")
    if primary == _IOERR:
        return StoreFileError(f"cannot read or write the database {path} (SQLite: {error})")
    if primary == _CANTOPEN:
        return StoreFileError(f"cannot open the database {path} (SQLite: {error})")
    return None


async def check_store(conn: aiosqlite.Connection, path: str) -> None:
    """Refuse a file that is not a Stationmaster store (or a new, empty one) before anything is
    written: not a database, damaged, or a database whose tables are another program's."""
    try:
        # One read transaction, one snapshot: another process may be making the file a store
        # meanwhile, and its migration commits the tables and the schema version together (read
        # one by one, its tables could be seen with the version before it: another program's).
        await conn.execute("BEGIN")
        try:
            async with conn.execute("PRAGMA user_version") as cursor:
                row = await cursor.fetchone()
            version = int(row[0]) if row is not None else 0
            async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                    "AND name NOT LIKE 'sqlite!_%' ESCAPE '!'") as cursor:
                tables = {str(name) for (name,) in await cursor.fetchall()}
            async with conn.execute("PRAGMA quick_check(1)") as cursor:
                problems = [str(line) for (line,) in await cursor.fetchall()]
        finally:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
    except sqlite3.Error as error:
        raise store_error(path, error) or StoreFileError(f"cannot read the database {path} (SQLite: {error})") \
            from None
    if problems != ["ok"]:
        found = " ".join(" ".join(problems).replace("*** in database main ***", "").split())[:200]
        raise StoreFileError(f"the database {path} is damaged (SQLite's check: {found}); restore it from a "
                             "backup, or name another file")
    if not tables and version == 0:
        return  # a new file: the migrations make it a store
    if version > 0 and tables & OUR_TABLES:
        return  # a store (one whose tables someone edited is the repository's to report)
    shown = ", ".join(sorted(tables)[:8]) + (", ..." if len(tables) > 8 else "")
    raise StoreFileError(f"{path} is not a Stationmaster store: it is a SQLite database of another program "
                         f"(tables: {shown or 'none'}, schema version {version}); nothing was written to it. "
                         "Name another file")

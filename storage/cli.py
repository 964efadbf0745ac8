"""Command-line import and export of games.

``bot/cli.py`` calls :func:`add_subcommands` to provide::

    stationmaster import FILE.json --db URL    # prints the new game id
    stationmaster export GAME_ID --db URL      # the game as JSON on stdout
    stationmaster migrate --from URL --to URL  # copy every game to another store

``--db`` takes a file path (SQLite), ``sqlite:///path`` or ``postgresql://...``.

Each subparser sets ``func``: call ``args.func(args)`` and exit with the int it returns.
``python -m storage.cli`` runs the same commands on their own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from storage.copier import add_migrate_subcommand
from storage.errors import ImportRefused, StorageError
from storage.import_checks import notes_text
from storage.transfer import DEFAULT_MAX_IMPORT_BYTES, export_document, import_document
from storage.urls import open_repository, parse_database_url
from untrusted.files import MAX_LIMIT, MIN_LIMIT, FileRefused, limit_problem, read_limited
from untrusted.numbers import INT64_MAX, whole_number

DEFAULT_DB = "./stationmaster.db"  # the same file `stationmaster play` and `bot` use


def import_game(
    path: str | os.PathLike[str],
    db_path: str | os.PathLike[str],
    *,
    max_bytes: int = DEFAULT_MAX_IMPORT_BYTES,
    notes: list[str] | None = None,
) -> int:
    """Import an 18xx.games JSON file into the database; return the new game id (what was left
    out of the file goes to ``notes``).

    Raises ImportRefused (database unchanged) if the file is refused."""
    if (problem := limit_problem(max_bytes)) is not None:
        raise ImportRefused(f"--max-bytes {problem}")
    try:
        raw = read_limited(path, max_bytes)  # a huge file is refused by its size, unread
    except FileRefused as error:
        raise ImportRefused(str(error)) from None
    return asyncio.run(_import(raw, db_path, max_bytes, notes))


async def _import(raw: bytes, db_path: str | os.PathLike[str], max_bytes: int, notes: list[str] | None) -> int:
    async with await open_repository(os.fspath(db_path)) as repo:
        return await import_document(repo, raw, max_bytes=max_bytes, notes=notes)


def export_game(game_id: int, db_path: str | os.PathLike[str]) -> dict[str, Any]:
    """The stored game as an 18xx.games-shaped document. Raises GameNotFound."""
    url = parse_database_url(os.fspath(db_path))
    if url.kind == "sqlite" and not Path(url.target).exists():
        # Opening would silently create an empty database; an export never should.
        raise StorageError(f"no database at {url.target}")
    return asyncio.run(_export(game_id, db_path))


async def _export(game_id: int, db_path: str | os.PathLike[str]) -> dict[str, Any]:
    async with await open_repository(os.fspath(db_path)) as repo:
        loaded = await repo.load_game(game_id)
    return export_document(loaded)


def _run_import(args: argparse.Namespace) -> int:
    notes: list[str] = []
    try:
        game_id = import_game(args.file, args.db, max_bytes=args.max_bytes, notes=notes)
    except (StorageError, OSError) as exc:
        print(f"stationmaster import: refused: {exc}", file=sys.stderr)
        return 1
    if notes:
        print(f"stationmaster import: {notes_text(notes)}", file=sys.stderr)
    print(game_id)
    return 0


def _run_export(args: argparse.Namespace) -> int:
    try:
        document = export_game(args.game_id, args.db)
    except (StorageError, OSError) as exc:
        print(f"stationmaster export: {exc}", file=sys.stderr)
        return 1
    json.dump(document, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def add_subcommands(subparsers: Any) -> None:
    """Register ``import`` and ``export`` on an ``ArgumentParser.add_subparsers()`` result."""
    importer = subparsers.add_parser("import", help="import an 18xx.games JSON game file")
    importer.add_argument("file", help="the game file (JSON)")
    importer.add_argument("--db", default=DEFAULT_DB, help=f"database: SQLite file or URL (default {DEFAULT_DB})")
    importer.add_argument(
        "--max-bytes",
        type=whole_number(MIN_LIMIT, MAX_LIMIT, "bytes"),
        default=DEFAULT_MAX_IMPORT_BYTES,
        help=f"refuse files larger than this (default {DEFAULT_MAX_IMPORT_BYTES // (1024 * 1024)} MB; "
             f"from {MIN_LIMIT} to {MAX_LIMIT // (1024 * 1024)} MB)",
    )
    importer.set_defaults(func=_run_import)
    exporter = subparsers.add_parser("export", help="write a game as 18xx.games JSON")
    exporter.add_argument("game_id", type=whole_number(1, INT64_MAX), help="the game's id")
    exporter.add_argument("--db", default=DEFAULT_DB, help=f"database: SQLite file or URL (default {DEFAULT_DB})")
    exporter.set_defaults(func=_run_export)
    add_migrate_subcommand(subparsers)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="stationmaster")
    add_subcommands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())

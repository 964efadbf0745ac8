"""``stationmaster migrate --from URL --to URL``: copy every game from one store to another.

Each game (its row, seats, settings, action log, reminder state and pending train offer) is
copied with its own id and times, in one transaction per game, and read back to check the
copy is exact. Games the target already holds unchanged are skipped, so an interrupted copy
is finished by running the command again; a target game with the same id but other content
refuses the whole copy before anything is written. Stop the bot while it runs: moves made
meanwhile in the source would not be copied.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from storage.errors import StorageError
from storage.repository import GameRepository
from storage.urls import open_repository, parse_database_url


@dataclass(frozen=True, slots=True)
class CopyReport:
    copied: list[int]
    already_there: list[int]


async def copy_games(
    source: GameRepository,
    target: GameRepository,
    *,
    progress: Callable[[int, int], None] | None = None,
) -> CopyReport:
    """Copy every game of ``source`` into ``target``; ``progress(done, total)`` after each."""
    game_ids = await source.list_game_ids()
    existing = set(await target.list_game_ids())
    already, clashing = [], []
    for game_id in sorted(existing.intersection(game_ids)):
        if await target.dump_game(game_id) == await source.dump_game(game_id):
            already.append(game_id)
        else:
            clashing.append(game_id)
    if clashing:
        shown = ", ".join(str(i) for i in clashing[:10]) + (" ..." if len(clashing) > 10 else "")
        raise StorageError(
            f"the target already has different games with the ids {shown}: nothing was copied "
            "(copy into an empty store)"
        )
    copied: list[int] = []
    todo = [game_id for game_id in game_ids if game_id not in existing]
    for game_id in todo:
        dump = await source.dump_game(game_id)
        await target.restore_game(dump)
        if await target.dump_game(game_id) != dump:
            raise StorageError(f"game {game_id} reads back differently from the target")
        copied.append(game_id)
        if progress is not None:
            progress(len(copied), len(todo))
    return CopyReport(copied=copied, already_there=already)


async def migrate_store(source_url: str, target_url: str) -> CopyReport:
    source_db, target_db = parse_database_url(source_url), parse_database_url(target_url)
    if source_db == target_db:
        raise StorageError("--from and --to name the same store")
    source = await open_repository(source_url, create=False)
    try:
        target = await open_repository(target_url)
        try:
            return await copy_games(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


def _run_migrate(args: argparse.Namespace) -> int:
    try:
        report = asyncio.run(migrate_store(args.source, args.target))
    except (StorageError, OSError) as exc:
        print(f"stationmaster migrate: {exc}", file=sys.stderr)
        return 1
    source = parse_database_url(args.source).describe()
    target = parse_database_url(args.target).describe()
    print(
        f"copied {len(report.copied)} games from {source} to {target}"
        + (f" ({len(report.already_there)} were already there)" if report.already_there else "")
    )
    return 0


def add_migrate_subcommand(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "migrate", help="copy every game, seat, setting, offer and reminder to another store"
    )
    parser.add_argument(
        "--from", dest="source", required=True, help="the store to copy (SQLite file or URL)"
    )
    parser.add_argument(
        "--to", dest="target", required=True,
        help="the store to fill: sqlite:///FILE or postgresql://USER@HOST:PORT/DATABASE",
    )
    parser.set_defaults(func=_run_migrate)

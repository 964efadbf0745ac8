"""Migrations on each backend: from an empty store, from every earlier version with data in
it, atomicity, and processes starting together."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from storage_helpers import minimal_game

from storage import MigrationError, NewSeat, SqliteGameRepository
from storage.migrate import load_migrations, split_statements
from storage.pg_migrate import PACKAGE as PG_PACKAGE

LATEST = len(load_migrations())

# Rows written at each schema version, using only what that version has (as parameters, so
# one list serves both dialects). A new migration must add its entry here (checked below),
# so "upgrade keeps data" covers it too.
ROWS_AT_VERSION: dict[int, list[tuple[str, dict[str, Any]]]] = {
    1: [
        ("games", {"id": 7, "title": "18Texas", "seed": 65394, "options": '["x"]',
                   "status": "active", "guild_id": 1, "channel_id": 2, "thread_id": 3,
                   "creator_user_id": 4, "created_at": 100, "updated_at": 200}),
        ("seats", {"game_id": 7, "seat": 1, "player_id": 8923, "discord_user_id": 11,
                   "display_name": "Player 1"}),
        ("seats", {"game_id": 7, "seat": 2, "player_id": "P2", "discord_user_id": 12,
                   "display_name": "Player 2"}),
        ("actions", {"game_id": 7, "seq": 1, "action": '{"type":"bid","entity":8923,"price":80}',
                     "actor_user_id": 11, "created_at": 150}),
        ("actions", {"game_id": 7, "seq": 2, "action": '{"type":"undo","entity":8923}',
                     "actor_user_id": 11, "created_at": 160}),
        ("game_settings", {"game_id": 7, "reminder_first_after_hours": 12.0,
                           "undo_policy": "anytime"}),
    ],
    2: [
        ("reminder_state", {"game_id": 7, "player_id": "P2", "last_ping_at": 170,
                            "ping_count": 3}),
    ],
    3: [
        ("train_offers", {"game_id": 7, "seq": 2, "action": '{"type":"buy_train","entity":"SP"}',
                          "buyer_user_id": 11, "seller_player_id": "P2", "created_at": 180}),
    ],
    4: [
        ("reminder_due", {"game_id": 7, "due_at": 90000}),
    ],
    5: [
        ("games", {"id": 8, "title": "18USA", "seed": 1, "created_at": 300, "updated_at": 300,
                   "change_no": 9}),
        ("reminder_due", {"game_id": 8, "due_at": 400, "claimed_by": "proc-a",
                          "claim_until": 700}),
    ],
    6: [
        ("end_votes", {"game_id": 7, "player_id": 8923, "seq": 2, "created_at": 190}),
    ],
    7: [
        ("away", {"game_id": 7, "player_id": "P2", "until_at": 90000, "passes": "[2]"}),
    ],
}


async def _insert(backend: Backend, table: str, row: dict[str, Any]) -> None:
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    await backend.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", *row.values())


def test_both_backends_have_the_same_migration_numbers() -> None:
    sqlite_names = [m.name for m in load_migrations()]
    pg_names = [m.name for m in load_migrations(package=PG_PACKAGE)]
    assert sqlite_names == pg_names  # same steps, each in its own dialect


def test_every_migration_has_upgrade_data() -> None:
    assert LATEST >= 2
    assert set(ROWS_AT_VERSION) == set(range(1, LATEST + 1))


async def test_empty_store_migrates_to_latest(backend: Backend) -> None:
    async with await backend.open():
        pass
    contents = await backend.contents()
    assert contents["user_version"] == LATEST
    assert {"games", "seats", "actions", "game_settings", "reminder_state", "train_offers"} <= set(contents)


async def test_sqlite_file_is_in_wal_mode(db_path: Path) -> None:
    async with await SqliteGameRepository.open(db_path):
        pass
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


def _prefixes(before: list[tuple], after: list[tuple]) -> list[tuple]:
    """``after``'s rows cut to the width of ``before``'s: later migrations add columns."""
    width = len(before[0]) if before else 0
    return sorted((row[:width] for row in after), key=repr)


@pytest.mark.parametrize("start", range(0, LATEST))
async def test_upgrade_from_every_earlier_version_keeps_data(backend: Backend, start: int) -> None:
    assert await backend.migrate_to(start) == start
    for version in range(1, start + 1):
        for table, row in ROWS_AT_VERSION[version]:
            await _insert(backend, table, row)
    before = await backend.contents()

    async with await backend.open() as repo:
        after = await backend.contents()
        assert after["user_version"] == LATEST
        for table, rows in before.items():
            if table not in ("user_version", "schema", "schema_migrations"):
                assert _prefixes(rows, after[table]) == rows, f"{table} changed by the upgrade"
        if start >= 1:
            # The upgraded database works like a new one.
            loaded = await repo.load_game(7)
            assert [s.player_id for s in loaded.seats] == [8923, "P2"]
            assert loaded.settings.undo_policy == "anytime"
            assert loaded.game.options == ("x",)
            assert (await repo.append_action(7, 3, {"type": "redo"}, 11)).seq == 3
            await repo.record_reminder(7, 8923, at=300)
            await repo.add_seat(7, NewSeat("P3", "Player 3"))
            assert await repo.last_seq(7) == 3
        if start >= 4:
            assert (await repo.list_reminder_dues())[7] == 90000


async def test_new_games_after_an_upgrade_get_fresh_ids(backend: Backend) -> None:
    await backend.migrate_to(1)
    for table, row in ROWS_AT_VERSION[1]:
        await _insert(backend, table, row)
    async with await backend.open() as repo:
        assert await repo.create_game(*minimal_game()) == 8


async def test_schema_after_upgrade_equals_fresh_schema(backend_factory: Any) -> None:
    fresh, stepped = await backend_factory(), await backend_factory()
    await fresh.migrate_to(None)
    for version in range(1, LATEST + 1):
        await stepped.migrate_to(version)
    assert (await fresh.contents())["schema"] == (await stepped.contents())["schema"]


async def test_migrating_twice_is_a_no_op(backend: Backend) -> None:
    await backend.migrate_to(None)
    before = await backend.contents()
    assert await backend.migrate_to(None) == LATEST
    assert await backend.contents() == before


async def test_failed_migration_leaves_the_store_as_it_was(
    tmp_path: Path, backend: Backend
) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    first = backend.migrations()[0]
    (directory / first.name).write_text(first.sql)
    (directory / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(MigrationError, match="0002_broken.sql"):
        await backend.migrate_to(None, directory)
    assert await backend.schema_version() == 1
    assert "half_done" not in await backend.contents()
    # The store is usable: the real migrations go on from where it stopped.
    assert await backend.migrate_to(None) == LATEST


async def test_store_newer_than_program_is_refused(backend: Backend) -> None:
    await backend.migrate_to(None)
    if backend.name == "sqlite":
        await backend.execute(f"PRAGMA user_version = {LATEST + 1}")
    else:
        await backend.execute(
            "INSERT INTO schema_migrations (version, name) VALUES (?, 'from the future')", LATEST + 1
        )
    with pytest.raises(MigrationError, match="newer"):
        await backend.open()


async def test_processes_starting_together_migrate_once(backend: Backend) -> None:
    stores = await asyncio.gather(*(backend.open() for _ in range(4)))
    for store in stores:
        await store.close()
    contents = await backend.contents()
    assert contents["user_version"] == LATEST
    if backend.name == "postgresql":
        assert [row[0] for row in contents["schema_migrations"]] == list(range(1, LATEST + 1))


def test_missing_or_misnamed_migrations_are_refused(tmp_path: Path) -> None:
    (tmp_path / "0002_second.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="0001"):
        load_migrations(tmp_path)
    (tmp_path / "0001-first.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="badly named"):
        load_migrations(tmp_path)


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    sql = (
        "-- comment; with a semicolon\nCREATE TABLE t (x TEXT DEFAULT 'a;b');\n"
        "CREATE TRIGGER g BEFORE DELETE ON t BEGIN SELECT RAISE(ABORT, 'no'); END;\n"
    )
    statements = split_statements(sql)
    assert len(statements) == 2
    assert statements[1].startswith("CREATE TRIGGER") and statements[1].endswith("END;")
    with pytest.raises(MigrationError, match="incomplete"):
        split_statements("CREATE TABLE t (x")

"""Migrations: from an empty file, from every earlier version with data in it, atomicity."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from storage_helpers import db_contents

from storage import MigrationError, NewSeat, SqliteGameRepository
from storage.migrate import load_migrations, migrate, schema_version, split_statements

LATEST = len(load_migrations())

# Rows written at each schema version, using only what that version has. A new migration
# must add its entry here (checked below), so "upgrade keeps data" covers it too.
ROWS_AT_VERSION: dict[int, list[str]] = {
    1: [
        "INSERT INTO games (id, title, seed, options, status, guild_id, channel_id, thread_id,"
        " creator_user_id, created_at, updated_at) VALUES"
        " (7, '18Texas', 65394, '[\"x\"]', 'active', 1, 2, 3, 4, 100, 200)",
        "INSERT INTO seats (game_id, seat, player_id, discord_user_id, display_name)"
        " VALUES (7, 1, 8923, 11, 'Player 1'), (7, 2, 'P2', 12, 'Player 2')",
        "INSERT INTO actions (game_id, seq, action, actor_user_id, created_at) VALUES"
        ' (7, 1, \'{"type":"bid","entity":8923,"price":80}\', 11, 150),'
        ' (7, 2, \'{"type":"undo","entity":8923}\', 11, 160)',
        "INSERT INTO game_settings (game_id, reminder_first_after_hours, undo_policy)"
        " VALUES (7, 12, 'anytime')",
    ],
    2: [
        "INSERT INTO reminder_state (game_id, player_id, last_ping_at, ping_count)"
        " VALUES (7, 'P2', 170, 3)",
    ],
    3: [
        "INSERT INTO train_offers (game_id, seq, action, buyer_user_id, seller_player_id,"
        " created_at) VALUES (7, 2, '{\"type\":\"buy_train\",\"entity\":\"SP\"}', 11, 'P2', 180)",
    ],
}


async def _connect(path: Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA foreign_keys = ON")
    return conn


def test_every_migration_has_upgrade_data() -> None:
    assert LATEST >= 2
    assert set(ROWS_AT_VERSION) == set(range(1, LATEST + 1))


async def test_empty_file_migrates_to_latest(db_path: Path) -> None:
    async with await SqliteGameRepository.open(db_path):
        pass
    contents = db_contents(db_path)
    assert contents["user_version"] == LATEST
    assert {"games", "seats", "actions", "game_settings", "reminder_state", "train_offers"} <= set(contents)
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


@pytest.mark.parametrize("start", range(0, LATEST))
async def test_upgrade_from_every_earlier_version_keeps_data(db_path: Path, start: int) -> None:
    conn = await _connect(db_path)
    assert await migrate(conn, target=start) == start
    for version in range(1, start + 1):
        for sql in ROWS_AT_VERSION[version]:
            await conn.execute(sql)
    await conn.close()
    before = db_contents(db_path)

    async with await SqliteGameRepository.open(db_path) as repo:
        assert db_contents(db_path)["user_version"] == LATEST
        after = db_contents(db_path)
        for table, rows in before.items():
            if table not in ("user_version", "schema"):
                assert after[table] == rows, f"{table} changed by the upgrade"
        if start >= 1:
            # The upgraded database works like a new one.
            loaded = await repo.load_game(7)
            assert [s.player_id for s in loaded.seats] == [8923, "P2"]
            assert loaded.settings.undo_policy == "anytime"
            assert loaded.game.options == ("x",)
            assert (await repo.append_action(7, 3, {"type": "redo"}, 11)).seq == 3
            await repo.record_reminder(7, 8923, at=300)
            await repo.add_seat(7, NewSeat("P3", "Player 3"))


async def test_schema_after_upgrade_equals_fresh_schema(tmp_path: Path) -> None:
    fresh, stepped = tmp_path / "fresh.db", tmp_path / "stepped.db"
    conn = await _connect(fresh)
    await migrate(conn)
    await conn.close()
    conn = await _connect(stepped)
    for version in range(1, LATEST + 1):
        await migrate(conn, target=version)
    await conn.close()
    assert db_contents(fresh)["schema"] == db_contents(stepped)["schema"]


async def test_migrating_twice_is_a_no_op(db_path: Path) -> None:
    conn = await _connect(db_path)
    await migrate(conn)
    before = db_contents(db_path)
    assert await migrate(conn) == LATEST
    await conn.close()
    assert db_contents(db_path) == before


async def test_failed_migration_leaves_the_database_as_it_was(
    tmp_path: Path, db_path: Path
) -> None:
    directory = tmp_path / "migrations"
    directory.mkdir()
    first = load_migrations()[0]
    (directory / first.name).write_text(first.sql)
    (directory / "0002_broken.sql").write_text(
        "CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    conn = await _connect(db_path)
    with pytest.raises(MigrationError, match="0002_broken.sql"):
        await migrate(conn, migrations=load_migrations(directory))
    assert await schema_version(conn) == 1
    assert not conn.in_transaction
    await conn.close()
    assert "half_done" not in db_contents(db_path)


async def test_database_newer_than_program_is_refused(db_path: Path) -> None:
    conn = await _connect(db_path)
    await conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    await conn.close()
    with pytest.raises(MigrationError, match="newer"):
        await SqliteGameRepository.open(db_path)


async def test_two_processes_starting_together_migrate_once(db_path: Path) -> None:
    stores = await asyncio.gather(*(SqliteGameRepository.open(db_path) for _ in range(4)))
    for store in stores:
        await store.close()
    assert db_contents(db_path)["user_version"] == LATEST


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

"""Stores you may only read, or that someone edited by hand (issue 31, item 12), through the
front doors: `stationmaster export` and `stationmaster play --game` as processes.

- A PostgreSQL user allowed SELECT and nothing more exports a game and looks at it in the
  terminal; a move there is refused with the reason, and the store is unchanged (opening it
  creates nothing: the schema is only read when it is up to date).
- A dropped table, an unreadable row and a row whose value is not what Stationmaster writes
  are named in the message; a foreign move appended to the log makes the game unplayable with
  the refused move named, and `/game export` still writes the stored log as it is.
No command prints a traceback.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from backends import Backend, PostgresBackend
from storage_helpers import REPO_ROOT

from bot.model import Actor, Command
from bot.moderator import Moderator, plain_mention

TABLE = Actor(user_id=None, name="", manager=True)
STATIONMASTER = [sys.executable, "-c", "import sys; from bot.cli import main; sys.exit(main())"]
DAMAGED = "the store is damaged: "


def stationmaster(*args: str, lines: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    env.pop("DISCORD_TOKEN", None)
    done = subprocess.run([*STATIONMASTER, *args], input="".join(f"{line}\n" for line in lines),
                          capture_output=True, text=True, timeout=120, cwd=REPO_ROOT, env=env)
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def play(url: str, *lines: str) -> subprocess.CompletedProcess[str]:
    return stationmaster("play", "--game", "1", "--db", url, "--images", "none", lines=lines)


async def two_moves(backend: Backend, *, finished: bool = False) -> None:
    """Game 1: an 18Texas game for alice, bob and carol with two bids made."""
    repo = await backend.open()
    try:
        moderator = Moderator(repo, images=False, mention=plain_mention)
        created = await moderator.create_game(TABLE, "18Texas", seed=3, players=["alice", "bob", "carol"])
        assert created.game_id == 1, created.text
        assert (await moderator.start(1, TABLE, shuffle=False)).reply.ok
        for name, company, price in (("alice", "BBBCRC", 50), ("bob", "GRRRC", 80)):
            outcome = await moderator.act(1, Actor(None, name, True), Command("bid", {"company": company,
                                                                                    "price": price}))
            assert outcome.committed, outcome.reply.text
        if finished:
            await repo.set_status(1, "finished")
    finally:
        await repo.close()


@pytest.fixture
async def reader(postgres_backend: PostgresBackend) -> AsyncIterator[str]:
    """The URL of the database as a user allowed to SELECT and nothing more."""
    role = f"reader_{uuid.uuid4().hex[:12]}"
    await two_moves(postgres_backend)
    conn = await asyncpg.connect(postgres_backend.url)
    try:
        await conn.execute(f'CREATE ROLE "{role}" LOGIN')
        await conn.execute(f'GRANT SELECT ON ALL TABLES IN SCHEMA public TO "{role}"')
        await conn.execute(f'REVOKE CREATE ON SCHEMA public FROM PUBLIC, "{role}"')
    finally:
        await conn.close()
    user, rest = postgres_backend.url.split("://", 1)[1].split("@", 1)
    yield f"postgresql://{role}@{rest}"
    conn = await asyncpg.connect(postgres_backend.url)
    try:
        await conn.execute(f'DROP OWNED BY "{role}"')
        await conn.execute(f'DROP ROLE "{role}"')
    finally:
        await conn.close()


async def test_a_read_only_postgresql_user_exports_and_looks_but_cannot_move(
        postgres_backend: PostgresBackend, reader: str) -> None:
    before = await postgres_backend.contents()
    exported = await asyncio.to_thread(stationmaster, "export", "1", "--db", reader)
    assert exported.returncode == 0, exported.stderr
    document = json.loads(exported.stdout)
    assert [(a["company"], a["price"]) for a in document["actions"]] == [("BBBCRC", 50), ("GRRRC", 80)]

    looked = await asyncio.to_thread(play, reader, "/game status", "@carol /bid company:JG price:200", "/game log")
    assert looked.returncode == 0, looked.stderr
    assert "18Texas game #1 (active)" in looked.stdout and "bob bids $80 for GRRRC" in looked.stdout
    assert ("error: The game store cannot be used for this: the database may only be read here (permission "
            "denied for table games): games can be looked at and exported, not changed. Nothing was changed."
            ) in looked.stdout, looked.stdout
    assert await postgres_backend.contents() == before


@pytest.mark.parametrize("table", ["seats"])
async def test_a_dropped_table_is_named(backend: Backend, table: str) -> None:
    await two_moves(backend)
    await backend.execute(f"DROP TABLE {table}" + (" CASCADE" if backend.name == "postgresql" else ""))
    missing = f"no such table: {table}" if backend.name == "sqlite" else f'relation "{table}" does not exist'
    exported = await asyncio.to_thread(stationmaster, "export", "1", "--db", backend.url)
    assert exported.returncode == 1 and exported.stdout == ""
    assert exported.stderr.startswith(f"stationmaster export: {DAMAGED}{missing} (changed by hand?)"), exported.stderr
    played = await asyncio.to_thread(play, backend.url, "/game status")
    assert played.returncode == 2
    assert played.stderr.startswith(f"stationmaster play: {DAMAGED}{missing}"), played.stderr


DEEP = json.dumps({"type": "message", "x": [[[]]]}).replace("[[[]]]", "[" * 990 + "]" * 990)


@pytest.mark.parametrize(("sql", "value", "named"), [
    ("UPDATE actions SET action = ? WHERE seq = 2", DEEP, "move 2 of game 1: its action is not JSON that can be read"),
    ("UPDATE games SET title = ?", "Chess", None),
], ids=["nested-too-deep", "unknown-title"])
async def test_a_row_edited_by_hand_is_named(backend: Backend, sql: str, value: str, named: str | None) -> None:
    await two_moves(backend)
    if backend.name == "sqlite":
        await backend.execute("DROP TRIGGER actions_append_only_update")
    else:
        await backend.execute("DROP TRIGGER actions_append_only ON actions")
    await backend.execute(sql, value)
    before = await backend.contents()
    played = await asyncio.to_thread(play, backend.url, "/game status", "@carol /bid company:JG price:200",
                                     "/game export")
    if named is not None:  # the row cannot even be read
        assert played.returncode == 2 and played.stderr.startswith(f"stationmaster play: {DAMAGED}{named}"), played
    else:  # read, but the engine has no such game
        assert played.returncode == 0, played.stderr
        assert "Game #1 cannot be set up again from its log: unknown title 'Chess'" in played.stdout, played.stdout
        exported = json.loads(played.stdout.strip().splitlines()[-1])
        assert exported["title"] == "Chess" and len(exported["actions"]) == 2
    assert await backend.contents() == before


@pytest.mark.parametrize("finished", [False, True], ids=["active", "finished"])
async def test_a_foreign_move_appended_by_hand_is_named_and_the_log_exports_as_stored(
        backend: Backend, finished: bool) -> None:
    await two_moves(backend, finished=finished)
    foreign = {"type": "teleport", "entity": 3, "entity_type": "player", "id": 3, "created_at": 0}
    await backend.execute("INSERT INTO actions (game_id, seq, action, created_at) VALUES (1, 3, ?, 0)",
                          json.dumps(foreign))
    before = await backend.contents()
    played = await asyncio.to_thread(play, backend.url, "@carol /bid company:JG price:200", "/game export")
    assert played.returncode == 0, played.stderr
    assert ("Game #1 cannot be replayed: its move 3 (carol teleport) is refused by the rules now: unknown action "
            "type 'teleport'") in played.stdout, played.stdout
    document: dict[str, Any] = json.loads(played.stdout.strip().splitlines()[-1])
    assert document["actions"][-1] == foreign and len(document["actions"]) == 3
    assert document["status"] == ("finished" if finished else "active") and "result" not in document
    exported = await asyncio.to_thread(stationmaster, "export", "1", "--db", backend.url)
    assert exported.returncode == 0 and json.loads(exported.stdout) == document
    assert await backend.contents() == before

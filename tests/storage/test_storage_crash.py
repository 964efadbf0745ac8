"""Kill -9 a writer at random moments, on each backend: every acknowledged (printed) seq must
survive, a SQLite file must pass integrity_check, and the log must hold only whole,
contiguous actions."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from backends import Backend, SqliteBackend
from storage_helpers import FIXTURE, REPO_ROOT, load_fixture

from storage import open_repository, replay

WRITER = Path(__file__).with_name("crash_writer.py")


def _spawn(backend: Backend) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    return subprocess.Popen(
        [sys.executable, str(WRITER), backend.url, str(FIXTURE)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO_ROOT,
        env=env,
    )


def _acknowledged(lines: list[str]) -> list[int]:
    return [int(line.split()[1]) for line in lines if line.startswith("seq ")]


def _run_and_kill(backend: Backend, rng: random.Random, remaining: int) -> list[str]:
    """Start a writer and SIGKILL it: either at a random time after start (may hit start-up,
    migrations, game creation) or right after a random number of acknowledged appends."""
    child = _spawn(backend)
    lines: list[str] = []
    assert child.stdout is not None
    if rng.random() < 0.25:
        time.sleep(rng.uniform(0.0, 0.3))
    else:
        # Small steps so that several kills land inside the 459-action log.
        target = rng.randint(1, max(1, min(remaining, 45)))
        while len(_acknowledged(lines)) < target:
            line = child.stdout.readline()
            if not line:
                break
            lines.append(line.strip())
        time.sleep(rng.uniform(0.0, 0.003))  # land anywhere inside the next append
    child.send_signal(signal.SIGKILL)
    # Read the rest through the same buffered reader: communicate() would read the raw pipe
    # and drop the lines readline() had already buffered.
    out = child.stdout.read()
    child.wait(timeout=10)
    assert child.stderr is not None
    child.stderr.close()
    lines.extend(line.strip() for line in out.splitlines())
    return lines


def _sqlite_integrity(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def _check_store(backend: Backend, acknowledged: list[int], fixture_actions: list[dict]) -> int:
    """Integrity and no-loss checks with the backend's own driver; returns the stored last seq."""
    if isinstance(backend, SqliteBackend) and backend.path.exists():
        _sqlite_integrity(backend.path)
    contents = backend.contents_sync()
    if contents.get("user_version", 0) < 1:  # killed before the first migration committed
        assert acknowledged == []
        return 0
    games = contents["games"]
    assert len(games) <= 1
    if not games:
        assert acknowledged == []
        return 0
    assert len(contents["seats"]) == 4, "game created without all its seats"
    rows = sorted((row[1], row[2]) for row in contents["actions"])  # (seq, action text)
    seqs = [seq for seq, _ in rows]
    assert seqs == list(range(1, len(rows) + 1)), "gap in the stored log"
    for seq, text in rows:
        assert json.loads(text) == fixture_actions[seq - 1], f"action {seq} damaged"
    missing = set(acknowledged) - set(seqs)
    assert not missing, f"acknowledged actions lost: {sorted(missing)}"
    return len(rows)


def _crash_campaign(
    backend: Backend, seed: int, kills: int, after_kill: Callable[[int], None] | None = None
) -> int:
    rng = random.Random(seed)
    actions = load_fixture()["actions"]
    stored = 0
    for _ in range(kills):
        lines = _run_and_kill(backend, rng, remaining=len(actions) - stored)
        acknowledged = _acknowledged(lines)
        if acknowledged:
            assert acknowledged == list(range(acknowledged[0], acknowledged[-1] + 1))
        new_stored = _check_store(backend, acknowledged, actions)
        assert new_stored >= stored
        stored = new_stored
        if after_kill is not None:
            after_kill(stored)
    return stored


def test_killed_writer_never_loses_acknowledged_actions(backend: Backend) -> None:
    actions = load_fixture()["actions"]
    stored = _crash_campaign(backend, seed=4, kills=16)
    assert stored > 0
    # A last writer, left alone, resumes from what survived and finishes the log.
    child = _spawn(backend)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert out.splitlines()[-1] == "done"
    assert _check_store(backend, _acknowledged(out.splitlines()), actions) == len(actions)


@pytest.mark.parametrize("seed", [11])
def test_stored_prefix_after_a_crash_replays(backend: Backend, seed: int) -> None:
    """Needs the engine: what survives a crash is a legal game up to its last action."""
    import asyncio

    def replay_prefix(stored: int) -> None:
        async def load() -> None:
            async with await open_repository(backend.url) as repo:
                games = await repo.list_games()
                if not games:
                    return
                loaded = await repo.load_game(games[0].id)
            assert loaded.last_seq == stored
            game = replay(loaded)
            assert game.finished == (stored == 459)

        asyncio.run(load())

    _crash_campaign(backend, seed=seed, kills=4, after_kill=replay_prefix)

"""A task cancelled while its COMMIT waits in aiosqlite's worker thread: the COMMIT still runs
there, so the write is stored, and the task sees its cancellation (not an error about a ROLLBACK
with no transaction left), and the connection serves the next transaction. Found by a full suite
at load 5, where the bot's follower, cancelled at shutdown, logged "cannot rollback - no
transaction is active"."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from storage.sqlite import SqliteGameRepository


async def test_a_commit_cancelled_in_flight_ends_in_the_cancellation(tmp_path: Path) -> None:
    repo = await SqliteGameRepository.open(tmp_path / "games.db")
    try:
        conn = repo._conn  # noqa: SLF001 (the shared connection whose worker thread runs the COMMIT)
        real_execute = conn.execute

        # Each statement is queued for the worker thread in order: a sleep queued before the COMMIT
        # keeps the transaction open while the cancelled task looks at it and queues its ROLLBACK.
        def execute(sql: str, *args: Any) -> Any:
            if sql == "COMMIT":
                return _cancelled_commit(conn, real_execute)
            return real_execute(sql, *args)

        conn.execute = execute  # type: ignore[method-assign]
        with pytest.raises(asyncio.CancelledError):
            async with repo._write() as tx:  # noqa: SLF001
                await tx.execute("INSERT INTO games (title, seed, options, status, created_at, updated_at) "
                                 "VALUES ('18Texas', 1, '[]', 'setup', 0, 0)")
        conn.execute = real_execute  # type: ignore[method-assign]
        assert not conn.in_transaction
        async with repo._read() as tx:  # noqa: SLF001 (the connection still works; the COMMIT ran)
            rows = await tx.all("SELECT id FROM games")
        assert len(rows) == 1, rows
    finally:
        await repo.close()


async def _cancelled_commit(conn: Any, real_execute: Any) -> Any:
    asyncio.ensure_future(conn._execute(time.sleep, 0.2))  # noqa: SLF001
    await asyncio.sleep(0)
    asyncio.ensure_future(real_execute("COMMIT"))
    await asyncio.sleep(0)  # both are queued for the worker thread, in this order
    raise asyncio.CancelledError

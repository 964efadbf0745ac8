"""A PostgreSQL session that ends under a command (the server restarting, an operator's
pg_terminate_backend): what the repository raises, and what it does not.

- A call on a lost connection raises StoreUnavailable, also inside the game's lock;
- giving back the game's lock on a lost connection raises nothing: the lock went with the
  session, and whatever the command did stands or failed already (a command that committed
  before the loss is not told it failed);
- the next call gets a new connection, and the game's lock can be taken again; a pooled
  connection whose session ended while it was idle is replaced before it is lent;
- a write whose session ends before its COMMIT could be answered is reported in doubt (it may
  have landed), not as "nothing was changed".
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import pytest
from backends import PostgresBackend

from storage import NewGame, NewSeat, StoreUnavailable
from storage.postgres import PostgresGameRepository

ENDED = 60.0  # seconds a busy machine may take to end a session


async def end_the_sessions_of(url: str, repo: PostgresGameRepository) -> int:
    """pg_terminate_backend on every session of the repository's pool, returning once each
    server process has ended (so its goodbye is on its way); returns how many."""
    admin = await asyncpg.connect(url)
    try:
        ended = await admin.fetch(
            "SELECT pg_terminate_backend(pid, $1) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()", int(ENDED * 1000))
        assert all(row[0] for row in ended), ended
        return len(ended)
    finally:
        await admin.close()


async def until_the_pool_sees_them_closed(repo: PostgresGameRepository) -> None:
    """Wait until the client has taken in the ended sessions' goodbyes: every connection the
    pool holds is closed (asyncpg has no public view of its idle connections)."""
    deadline = asyncio.get_running_loop().time() + ENDED
    while not all(holder._con is None or holder._con.is_closed() for holder in repo._pool._holders):
        assert asyncio.get_running_loop().time() < deadline, "the pool never saw its sessions end"
        await asyncio.sleep(0.01)


@pytest.fixture
async def store(postgres_backend: PostgresBackend) -> Any:
    repo = await postgres_backend.open()
    game_id = await repo.create_game(NewGame("18Texas", 1, status="active"),
                                     [NewSeat(n, name) for n, name in enumerate(("a", "b", "c"), 1)])
    assert isinstance(repo, PostgresGameRepository)
    yield repo, game_id, postgres_backend.url
    await repo.close()


async def test_a_call_inside_the_lock_on_a_lost_connection_is_unavailable(store: Any) -> None:
    repo, game_id, url = store
    with pytest.raises(StoreUnavailable) as raised:
        async with repo.game_lock(game_id):
            assert await end_the_sessions_of(url, repo) >= 1
            await repo.game_head(game_id)
    assert not raised.value.in_doubt
    async with repo.game_lock(game_id):  # a new connection, and the lock is free
        record, seq = await repo.game_head(game_id)
    assert (record.id, seq) == (game_id, 0)


async def test_a_move_made_before_the_loss_is_not_reported_failed(store: Any) -> None:
    repo, game_id, url = store
    async with repo.game_lock(game_id):
        await repo.append_action(game_id, 1, {"type": "pass", "entity": 1, "entity_type": "player"}, None)
        await end_the_sessions_of(url, repo)  # after the commit, before the lock is given back
    assert [a.seq for a in await repo.list_actions(game_id)] == [1]


async def test_a_pooled_connection_lost_while_idle_is_replaced(store: Any) -> None:
    repo, game_id, url = store
    await repo.game_head(game_id)  # a connection in the pool
    await end_the_sessions_of(url, repo)
    await until_the_pool_sees_them_closed(repo)
    record, _ = await repo.game_head(game_id)
    assert record.id == game_id


async def test_a_commit_cut_off_is_reported_in_doubt(store: Any) -> None:
    repo, game_id, url = store
    with pytest.raises(StoreUnavailable) as raised:
        async with repo._write() as tx:  # the transaction every write runs in
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", 7, game_id)
            await end_the_sessions_of(url, repo)  # the COMMIT that follows meets a dead session
    assert raised.value.in_doubt
    record, _ = await repo.game_head(game_id)
    assert record.updated_at != 7  # this time it had not landed (the server rolled it back)

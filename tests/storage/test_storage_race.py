"""Concurrent appends: the expected-seq check and the write lock make exactly one win."""

from __future__ import annotations

import asyncio

from backends import Backend
from storage_helpers import fixture_game, minimal_game

from storage import GameRepository, SeqConflict, StoredAction


async def _append_with_own_connection(
    backend: Backend, game_id: int, expected_seq: int, action: dict, actor: int,
    start: asyncio.Event,
) -> StoredAction | SeqConflict:
    repo = await backend.open()
    try:
        await start.wait()  # every connection is open before anyone writes
        try:
            return await repo.append_action(game_id, expected_seq, action, actor=actor)
        except SeqConflict as conflict:
            return conflict
    finally:
        await repo.close()


async def test_fifty_connections_racing_for_one_seq(backend: Backend, fixture_doc: dict) -> None:
    game, seats = fixture_game(fixture_doc)
    repo = await backend.open()
    game_id = await repo.create_game(game, seats)
    await repo.append_action(game_id, 1, fixture_doc["actions"][0], actor=None)
    await repo.close()
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(
            _append_with_own_connection(
                backend, game_id, 2, {"type": "pass", "racer": n}, 1000 + n, start
            )
        )
        for n in range(50)
    ]
    await asyncio.sleep(0.2)
    start.set()
    outcomes = await asyncio.gather(*tasks)

    winners = [o for o in outcomes if isinstance(o, StoredAction)]
    conflicts = [o for o in outcomes if isinstance(o, SeqConflict)]
    assert len(winners) == 1
    assert len(conflicts) == 49
    assert all(c.last_seq == 2 and c.expected_seq == 2 for c in conflicts)
    assert "someone moved first" in str(conflicts[0])
    repo = await backend.open()
    stored = await repo.list_actions(game_id)
    await repo.close()
    assert [a.seq for a in stored] == [1, 2]
    assert stored[1].action == winners[0].action
    assert stored[1].actor_user_id == 1000 + winners[0].action["racer"]


async def test_fifty_tasks_sharing_one_repository(repo: GameRepository) -> None:
    game_id = await repo.create_game(*minimal_game())
    outcomes = await asyncio.gather(
        *(repo.append_action(game_id, 1, {"type": "pass", "n": n}, None) for n in range(50)),
        return_exceptions=True,
    )
    assert sum(isinstance(o, StoredAction) for o in outcomes) == 1
    assert sum(isinstance(o, SeqConflict) for o in outcomes) == 49
    assert await repo.last_seq(game_id) == 1


async def test_writers_that_retry_on_conflict_lose_nothing(backend: Backend) -> None:
    """Eight connections each land 15 moves, reloading the last seq after every conflict:
    all 120 are stored, contiguously, each exactly once."""
    repo = await backend.open()
    game_id = await repo.create_game(*minimal_game())
    await repo.close()

    async def writer(number: int) -> None:
        async with await backend.open() as store:
            for move in range(15):
                while True:
                    expected = await store.last_seq(game_id) + 1
                    try:
                        await store.append_action(
                            game_id, expected, {"type": "pass", "w": number, "m": move}, None
                        )
                        break
                    except SeqConflict:
                        await asyncio.sleep(0)

    await asyncio.gather(*(writer(n) for n in range(8)))
    async with await backend.open() as repo:
        stored = await repo.list_actions(game_id)
    assert [a.seq for a in stored] == list(range(1, 121))
    assert sorted((a.action["w"], a.action["m"]) for a in stored) == [
        (w, m) for w in range(8) for m in range(15)
    ]

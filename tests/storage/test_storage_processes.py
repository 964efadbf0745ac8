"""What several processes on one store rely on, on each backend: the stored seq as a stale
check, the per-game lock, the change feed, and reminders claimed by exactly one process.

Each repository opened here has its own connections, as another process would."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import asyncpg
import pytest
from backends import Backend, PostgresBackend
from storage_helpers import REPO_ROOT, minimal_game

from storage import (
    GameChange,
    GameNotFound,
    GameRepository,
    NewGame,
    NewSeat,
    ReminderDue,
    SeqConflict,
    StorageError,
    TrainOffer,
)

FEED_WAIT = 5.0  # seconds a change may take to reach a feed (it takes milliseconds)
POLL = 0.05


async def _two_players(repo: GameRepository) -> int:
    return await repo.create_game(NewGame("18Texas", 1, status="active"), [NewSeat("A", "A"), NewSeat(2, "B")])


# -- the stored seq ------------------------------------------------------------------------


async def test_another_connections_move_shows_in_the_stored_seq(backend: Backend) -> None:
    async with await backend.open() as mine, await backend.open() as theirs:
        game_id = await mine.create_game(*minimal_game())
        held = await mine.load_game(game_id)
        await theirs.append_action(game_id, 1, {"type": "pass"}, None)
        assert await mine.last_seq(game_id) == 1 != held.last_seq  # stale: reload
        with pytest.raises(SeqConflict):
            await mine.append_action(game_id, held.last_seq + 1, {"type": "pass"}, None)


# -- the per-game lock ---------------------------------------------------------------------


async def _holds_while_other_waits(first: GameRepository, second: GameRepository, game_id: int) -> list[str]:
    """``first`` takes the lock, ``second`` asks for it: the log of who did what when."""
    log: list[str] = []
    taken = asyncio.Event()

    async def holder() -> None:
        async with first.game_lock(game_id):
            log.append("first in")
            taken.set()
            await asyncio.sleep(0.3)
            log.append("first out")

    async def waiter() -> None:
        await taken.wait()
        async with second.game_lock(game_id):
            log.append("second in")

    await asyncio.gather(holder(), waiter())
    return log


async def test_game_lock_orders_tasks_of_one_process(repo: GameRepository) -> None:
    game_id = await repo.create_game(*minimal_game())
    assert await _holds_while_other_waits(repo, repo, game_id) == ["first in", "first out", "second in"]


async def test_game_lock_between_processes(backend: Backend) -> None:
    """Two repositories (two pools) stand for two processes. SQLite has no lock between
    processes (its write lock and the seq check serialise them), so there the second
    repository goes in at once."""
    async with await backend.open() as first, await backend.open() as second:
        game_id = await first.create_game(*minimal_game())
        log = await _holds_while_other_waits(first, second, game_id)
        if backend.name == "postgresql":
            assert log == ["first in", "first out", "second in"]
        else:
            assert log == ["first in", "second in", "first out"]
        # Other games are not held up.
        other = await first.create_game(*minimal_game())
        async with first.game_lock(game_id):
            await asyncio.wait_for(_enter(second, other), timeout=5)


async def _enter(repo: GameRepository, game_id: int) -> None:
    async with repo.game_lock(game_id):
        pass


async def test_calls_inside_the_lock_need_no_second_connection(backend: Backend) -> None:
    """With a pool of one connection, a move validated and committed under the lock still
    goes through (the lock's connection is lent to the calls made inside it)."""
    options = {"min_size": 1, "max_size": 1} if backend.name == "postgresql" else {}
    async with await backend.open(**options) as repo:
        game_id = await repo.create_game(*minimal_game())

        async def move() -> None:
            async with repo.game_lock(game_id):
                seq = await repo.last_seq(game_id) + 1
                await repo.load_game(game_id)
                await repo.append_action(game_id, seq, {"type": "pass"}, None)

        await asyncio.wait_for(asyncio.gather(*(move() for _ in range(5))), timeout=20)
        assert await repo.last_seq(game_id) == 5


async def test_a_cancelled_wait_leaves_no_lock_behind(backend: Backend) -> None:
    async with await backend.open() as first, await backend.open() as second:
        game_id = await first.create_game(*minimal_game())
        async with first.game_lock(game_id):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(_enter(first, game_id), timeout=0.2)
        await asyncio.wait_for(_enter(first, game_id), timeout=5)
        await asyncio.wait_for(_enter(second, game_id), timeout=5)


_HOLDER = """
import asyncio, sys
from storage import open_repository
async def main():
    repo = await open_repository(sys.argv[1])
    async with repo.game_lock(int(sys.argv[2])):
        print("locked", flush=True)
        await asyncio.sleep(60)
asyncio.run(main())
"""


async def test_a_killed_process_releases_its_postgres_game_lock(
    postgres_backend: PostgresBackend,
) -> None:
    """(SQLite holds no lock between processes: see the SQLite repository's notes.)"""
    backend = postgres_backend
    async with await backend.open() as repo:
        game_id = await repo.create_game(*minimal_game())
        child = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, backend.url, str(game_id)],
            stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT,
            env=dict(os.environ, PYTHONPATH=str(REPO_ROOT)),
        )
        try:
            assert child.stdout is not None
            assert await asyncio.to_thread(child.stdout.readline) == "locked\n"
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(_enter(repo, game_id), timeout=0.5)
            child.kill()
            await asyncio.to_thread(child.wait, 10)
            await asyncio.wait_for(_enter(repo, game_id), timeout=10)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()


# -- the change feed -----------------------------------------------------------------------


async def _next(feed: object) -> GameChange:
    return await asyncio.wait_for(feed.get(), timeout=FEED_WAIT)  # type: ignore[attr-defined]


async def _quiet(feed: object, seconds: float = 0.4) -> None:
    with pytest.raises(TimeoutError):
        change = await asyncio.wait_for(feed.get(), timeout=seconds)  # type: ignore[attr-defined]
        pytest.fail(f"unexpected change {change}")


async def test_change_feed_names_the_game_another_connection_changed(backend: Backend) -> None:
    async with await backend.open() as watcher, await backend.open() as writer:
        before = await writer.create_game(*minimal_game())  # made before the feed: not reported
        await writer.append_action(before, 1, {"type": "pass"}, None)
        async with watcher.change_feed(poll_interval=POLL) as feed:
            await _quiet(feed)
            game_id = await _two_players(writer)
            assert await _next(feed) == GameChange(game_id)
            await writer.append_action(game_id, 1, {"type": "pass"}, None)
            assert await _next(feed) == GameChange(game_id)
            await writer.append_action(before, 2, {"type": "pass"}, None)
            assert await _next(feed) == GameChange(before)
            for change in (
                writer.set_status(game_id, "paused"),
                writer.add_seat(game_id, NewSeat("C", "C")),
                writer.mark_seat_left(game_id, 3),
                writer.put_train_offer(TrainOffer(game_id, 1, {"type": "buy_train"}, None, "A")),
                writer.clear_train_offer(game_id),
            ):
                await change
                assert await _next(feed) == GameChange(game_id)
            await _quiet(feed)


async def test_change_feed_is_silent_about_refused_writes(backend: Backend) -> None:
    async with await backend.open() as repo:
        game_id = await repo.create_game(*minimal_game())
        async with repo.change_feed(poll_interval=POLL) as feed:
            with pytest.raises(SeqConflict):
                await repo.append_action(game_id, 5, {"type": "pass"}, None)
            await repo.clear_train_offer(game_id)  # there was none: nothing changed
            await _quiet(feed)
            await repo.append_action(game_id, 1, {"type": "pass"}, None)
            # Iterating works as well as get().
            async for change in feed:
                assert change == GameChange(game_id)
                break


async def test_postgres_feed_says_when_it_may_have_missed_changes(
    postgres_backend: PostgresBackend,
) -> None:
    """(The SQLite feed polls the file: it has no connection to lose.)"""
    backend = postgres_backend
    async with await backend.open() as repo:
        game_id = await repo.create_game(*minimal_game())
        async with repo.change_feed(poll_interval=0.1) as feed:
            admin = await asyncpg.connect(backend.url)
            try:
                killed = await admin.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                    " WHERE query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()"
                )
            finally:
                await admin.close()
            assert killed == 1
            assert await _next(feed) == GameChange(None)  # recheck every game held
            await repo.append_action(game_id, 1, {"type": "pass"}, None)
            assert await _next(feed) == GameChange(game_id)


# -- reminders claimed once ----------------------------------------------------------------


async def test_reminder_dues_are_stored_per_game(repo: GameRepository) -> None:
    first, second = await _two_players(repo), await _two_players(repo)
    await repo.set_reminder_due(first, 500)
    await repo.set_reminder_due(second, 100)
    await repo.set_reminder_due(first, 600)
    assert await repo.list_reminder_dues() == {first: 600, second: 100}
    await repo.set_reminder_due(second, None)
    await repo.set_reminder_due(second, None)  # forgetting twice is fine
    assert await repo.list_reminder_dues() == {first: 600}
    with pytest.raises(GameNotFound):
        await repo.set_reminder_due(999, 1)


async def test_reminder_claim_and_completion(repo: GameRepository) -> None:
    one, two = await _two_players(repo), await _two_players(repo)
    await repo.set_reminder_due(one, 100)
    await repo.set_reminder_due(two, 50)
    assert await repo.claim_due_reminders("p1", now=49) == []
    (first,) = await repo.claim_due_reminders("p1", now=60, lease_seconds=30)
    assert first == ReminderDue(two, 50, "p1", 90)
    assert await repo.claim_due_reminders("p2", now=89) == []  # held by p1
    # p1 died: its claim runs out and p2 takes the reminder over; p1 can no longer settle it.
    (taken,) = await repo.claim_due_reminders("p2", now=95, limit=1)
    assert taken == ReminderDue(two, 50, "p2", 395)
    assert await repo.complete_reminder(two, "p1", next_due_at=500) is False
    assert await repo.complete_reminder(two, "p2", next_due_at=500) is True
    assert await repo.complete_reminder(two, "p2", next_due_at=700) is False  # settled already
    (due_one,) = await repo.claim_due_reminders("p2", now=100)
    assert due_one.game_id == one
    # Planned anew (the player moved) before p2 settled it: the claim is void.
    await repo.set_reminder_due(one, 400)
    assert await repo.complete_reminder(one, "p2", next_due_at=None) is False
    (again,) = await repo.claim_due_reminders("p3", now=450)
    assert await repo.complete_reminder(one, "p3", next_due_at=None) is True  # no next one
    assert await repo.list_reminder_dues() == {two: 500}
    assert await repo.claim_due_reminders("p3", now=499) == []
    assert [d.game_id for d in await repo.claim_due_reminders("p3", now=500)] == [two]


async def test_a_claim_needs_an_owner(repo: GameRepository) -> None:
    with pytest.raises(StorageError, match="owner"):
        await repo.claim_due_reminders("", now=1)


async def test_each_due_reminder_goes_to_exactly_one_of_many_claimers(backend: Backend) -> None:
    async with await backend.open() as setup:
        games = [await _two_players(setup) for _ in range(30)]
        for number, game_id in enumerate(games):
            await setup.set_reminder_due(game_id, number)
    claimers = [await backend.open() for _ in range(5)]
    start = asyncio.Event()

    async def claim(repo: GameRepository, owner: str) -> list[int]:
        await start.wait()
        taken = []
        while batch := await repo.claim_due_reminders(owner, now=1000, limit=3):
            taken += [due.game_id for due in batch]
            await asyncio.sleep(0)
        return taken

    try:
        tasks = [asyncio.create_task(claim(repo, f"process-{n}")) for n, repo in enumerate(claimers)]
        await asyncio.sleep(0.1)
        start.set()
        results = await asyncio.gather(*tasks)
    finally:
        for repo in claimers:
            await repo.close()
    assert sorted(game_id for result in results for game_id in result) == games


async def test_game_head_reads_the_row_and_the_seq_together(backend: Backend) -> None:
    async with await backend.open() as mine, await backend.open() as theirs:
        game_id = await mine.create_game(*minimal_game())
        await theirs.append_action(game_id, 1, {"type": "pass"}, None)
        await theirs.set_status(game_id, "paused")
        record, seq = await mine.game_head(game_id)
        assert (record.id, record.status, seq) == (game_id, "paused", 1)
        assert record == await mine.get_game(game_id)
        with pytest.raises(GameNotFound):
            await mine.game_head(999)

"""``stationmaster migrate``: every game copied losslessly between SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from backends import Backend, PostgresBackend, SqliteBackend
from storage_helpers import REPO_ROOT, minimal_game

from engine import TITLES
from storage import (
    GameRepository,
    GameSettings,
    NewGame,
    NewSeat,
    StorageError,
    TrainOffer,
    export_document,
    import_document,
)
from storage.cli import main
from storage.copier import copy_games
from storage.transfer import document_seed

DATA = REPO_ROOT / "tests" / "data"
# The players' logs and the first two of each generated folder: the larger generated corpora add
# no kind of log the first ones lack, and copying (and exporting, a replay each) all 220 took 80 s.
LOGS = sorted([*(DATA / "fixtures").glob("*/*.json"),
               *(path for folder in sorted((DATA / "generated").iterdir()) if folder.is_dir()
                 for path in sorted(folder.glob("*.json"))[:2])])
# Imported through the engine (a full replay each): one finished game per kind of source.
REPLAYED = {DATA / "fixtures" / "18Texas" / "65394.json",
            DATA / "generated" / "18Texas" / "randplay_18Texas_3p_s101.json"}


async def _store_log(repo: GameRepository, path: Path) -> int:
    """Storage copies any title: logs the engine does not replay (or need not, here) are
    stored as they are, without the engine."""
    if path in REPLAYED:
        return await import_document(repo, path.read_bytes())
    document = json.loads(path.read_bytes())
    return await repo.create_game(
        NewGame(document["title"], document_seed(document), status="active"),
        [NewSeat(p.get("id", p["name"]), p["name"]) for p in document["players"]],
        actions=[(action, None) for action in document["actions"]],
    )


async def _fill(repo: GameRepository) -> list[int]:
    """The logs above, plus a game in set-up with everything else a store keeps: moved
    seats, settings, a location, reminder pings and a claimed due reminder, a train offer."""
    assert len(LOGS) >= 4 and REPLAYED <= set(LOGS)
    ids = [await _store_log(repo, path) for path in LOGS]
    game_id = await repo.create_game(
        NewGame("18Texas", 77, options=("site_bid_increment",), guild_id=2**62, creator_user_id=9),
        [NewSeat(8923, "Ann", 11), NewSeat("P2", "Bob", 12), NewSeat("8923", "Cy", None)],
        GameSettings(reminder_first_after_hours=1.5, quiet_start_hour=22, quiet_end_hour=7,
                     quiet_time_zone="Europe/Berlin", undo_policy="anytime"),
        actions=[({"type": "bid", "entity": 8923, "price": 80, "note": "äö ✓"}, 11)],
    )
    await repo.set_location(game_id, guild_id=2**62, channel_id=5, thread_id=6)
    await repo.replace_seat_user(game_id, 2, 13, "Bea")
    await repo.mark_seat_left(game_id, 3)
    await repo.record_reminder(game_id, 8923, at=1000)
    await repo.record_reminder(game_id, "8923", at=1100)
    await repo.record_reminder(game_id, "8923", at=1200)
    await repo.set_reminder_due(game_id, 1500)
    await repo.set_reminder_due(ids[1], 2500)
    assert len(await repo.claim_due_reminders("process-a", now=1600, lease_seconds=60)) == 1
    await repo.put_train_offer(TrainOffer(game_id, 1, {"type": "buy_train", "price": 1}, 13, "P2"))
    await repo.set_status(ids[0], "paused")
    return [*ids, game_id]


async def _exports(backend: Backend) -> dict[int, str]:
    """The export of every game whose title the engine knows (export asks it for the rules)."""
    async with await backend.open() as repo:
        return {
            game_id: json.dumps(export_document(loaded), ensure_ascii=False)
            for game_id in await repo.list_game_ids()
            if (loaded := await repo.load_game(game_id)).game.title in TITLES
        }


async def _dumps(backend: Backend) -> dict[int, object]:
    async with await backend.open() as repo:
        return {game_id: await repo.dump_game(game_id) for game_id in await repo.list_game_ids()}


async def test_round_trip_sqlite_postgresql_sqlite(
    tmp_path: Path, postgres_backend: PostgresBackend, capsys: pytest.CaptureFixture[str]
) -> None:
    first, last = SqliteBackend(tmp_path / "first.db"), SqliteBackend(tmp_path / "last.db")
    async with await first.open() as repo:
        ids = await _fill(repo)

    # The command runs its own event loop, as from a shell.
    assert await asyncio.to_thread(main, ["migrate", "--from", first.url, "--to", postgres_backend.url]) == 0
    assert f"copied {len(ids)} games" in capsys.readouterr().out
    assert await asyncio.to_thread(main, ["migrate", "--from", postgres_backend.url, "--to", last.url]) == 0

    exports = [await _exports(b) for b in (first, postgres_backend, last)]
    assert len(exports[0]) >= 5
    assert exports[0] == exports[1] == exports[2]  # identical JSON text, game by game
    finished = [json.loads(text) for text in exports[2].values() if '"result"' in text]
    assert finished, "a finished log's result is part of what is compared"
    dumps = [await _dumps(b) for b in (first, postgres_backend, last)]
    assert sorted(dumps[0]) == ids
    assert dumps[0] == dumps[1] == dumps[2]  # every title; seats, settings, reminders, times
    # The copies are live stores: the next game gets a new id, the logs go on.
    for backend in (postgres_backend, last):
        async with await backend.open() as repo:
            assert await repo.create_game(*minimal_game()) == ids[-1] + 1
            offer_game = ids[-1]
            assert (await repo.append_action(offer_game, 2, {"type": "pass"}, None)).seq == 2


async def test_running_again_copies_nothing_twice(
    tmp_path: Path, postgres_backend: PostgresBackend
) -> None:
    source = SqliteBackend(tmp_path / "source.db")
    async with await source.open() as repo:
        await repo.create_game(*minimal_game())
        await repo.create_game(*minimal_game())
    async with await source.open() as src, await postgres_backend.open() as dst:
        assert (await copy_games(src, dst)).copied == [1, 2]
        again = await copy_games(src, dst)
    assert (again.copied, again.already_there) == ([], [1, 2])


async def test_a_target_with_other_games_is_refused_whole(
    tmp_path: Path, postgres_backend: PostgresBackend, capsys: pytest.CaptureFixture[str]
) -> None:
    source = SqliteBackend(tmp_path / "source.db")
    async with await source.open() as repo:
        for _ in range(3):
            await repo.create_game(*minimal_game())
    async with await postgres_backend.open() as repo:
        await repo.create_game(NewGame("18USA", 5), [NewSeat("X", "X")])
    before = await postgres_backend.contents()
    assert await asyncio.to_thread(main, ["migrate", "--from", source.url, "--to", postgres_backend.url]) == 1
    err = capsys.readouterr().err
    assert "already has different games with the ids 1" in err and "nothing was copied" in err
    assert await postgres_backend.contents() == before


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        ("{tmp}/missing.db", "{tmp}/new.db", "no database at"),
        ("{tmp}/a.db", "sqlite:///{tmp}/a.db", "the same store"),
        ("mysql://localhost/x", "{tmp}/new.db", "unsupported database URL mysql://"),
        ("{tmp}/a.db", "sqlite:///", "names no file"),
        ("{tmp}/a.db", "postgresql://nobody@127.0.0.1:1/none", "cannot connect to PostgreSQL"),
    ],
)
def test_bad_arguments_are_refused_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], source: str, target: str, message: str
) -> None:
    (tmp_path / "a.db").touch()
    args = ["migrate", "--from", source.format(tmp=tmp_path), "--to", target.format(tmp=tmp_path)]
    assert main(args) == 1
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
    assert not (tmp_path / "new.db").exists()


async def test_restore_refuses_an_id_the_store_has(repo: GameRepository, backend: Backend) -> None:
    game_id = await repo.create_game(*minimal_game())
    dump = await repo.dump_game(game_id)
    before = await backend.contents()
    with pytest.raises(StorageError, match=f"already has a game with id {game_id}"):
        await repo.restore_game(dump)
    assert await backend.contents() == before

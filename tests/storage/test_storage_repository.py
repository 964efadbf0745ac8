"""The repository on each backend: games, seats, settings, reminders, and the append-only log."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from backends import Backend
from storage_helpers import fixture_game, minimal_game

from storage import (
    GameNotFound,
    GameRecord,
    GameRepository,
    GameSettings,
    LoadedGame,
    NewGame,
    NewSeat,
    SeatRecord,
    SeqConflict,
    SqliteGameRepository,
    StorageError,
    StoredAction,
    TrainOffer,
)
from storage.postgres import PostgresGameRepository


@pytest.mark.parametrize("implementation", [SqliteGameRepository, PostgresGameRepository])
def test_repositories_implement_the_interface(implementation: type) -> None:
    assert issubclass(implementation, GameRepository)
    assert not getattr(implementation, "__abstractmethods__", None)


async def test_sqlite_connection_pragmas(db_path: Path) -> None:
    repo = await SqliteGameRepository.open(db_path)
    conn = repo._conn  # the settings that make a commit durable are part of the contract
    for pragma, expected in (("journal_mode", "wal"), ("foreign_keys", 1), ("synchronous", 2)):
        async with conn.execute(f"PRAGMA {pragma}") as cursor:
            assert (await cursor.fetchone())[0] == expected, pragma
    await repo.close()


async def test_create_and_load_a_game(repo: GameRepository, fixture_doc: dict) -> None:
    game, seats = fixture_game(fixture_doc)
    game = dataclasses.replace(game, guild_id=10, channel_id=20, thread_id=30, creator_user_id=5)
    settings = GameSettings(reminder_first_after_hours=6, quiet_start_hour=22, quiet_end_hour=7)
    game_id = await repo.create_game(game, seats, settings)

    loaded = await repo.load_game(game_id)
    assert isinstance(loaded, LoadedGame)
    assert isinstance(loaded.game, GameRecord)
    assert loaded.game.title == "18Texas" and loaded.game.seed == 65394
    assert (loaded.game.guild_id, loaded.game.channel_id, loaded.game.thread_id) == (10, 20, 30)
    assert loaded.game.status == "active"
    assert all(isinstance(s, SeatRecord) for s in loaded.seats)
    assert [s.seat for s in loaded.seats] == [1, 2, 3, 4]
    assert loaded.players() == fixture_doc["players"]  # integer ids stay integers
    assert loaded.settings == settings
    assert loaded.actions == [] and loaded.last_seq == 0
    assert (await repo.find_game_by_thread(30)).id == game_id
    assert await repo.find_game_by_thread(31) is None


async def test_append_actions_in_order(repo: GameRepository, fixture_doc: dict) -> None:
    game_id = await repo.create_game(*fixture_game(fixture_doc))
    for seq, action in enumerate(fixture_doc["actions"][:20], start=1):
        stored = await repo.append_action(game_id, seq, action, actor=77)
        assert isinstance(stored, StoredAction) and stored.seq == seq
    assert await repo.last_seq(game_id) == 20
    loaded = await repo.load_game(game_id)
    assert [a.action for a in loaded.actions] == fixture_doc["actions"][:20]
    assert [a.seq for a in await repo.list_actions(game_id, after_seq=15)] == [16, 17, 18, 19, 20]


@pytest.mark.parametrize("expected", [1, 3, 0, -1])
async def test_wrong_expected_seq_is_a_conflict(repo: GameRepository, expected: int) -> None:
    game_id = await repo.create_game(*minimal_game())
    await repo.append_action(game_id, 1, {"type": "pass"}, None)
    with pytest.raises(SeqConflict) as info:
        await repo.append_action(game_id, expected, {"type": "pass"}, None)
    assert info.value.last_seq == 1 and info.value.expected_seq == expected
    assert await repo.last_seq(game_id) == 1


async def test_append_refuses_non_actions(repo: GameRepository, backend: Backend) -> None:
    game_id = await repo.create_game(*minimal_game())
    before = await backend.contents()
    for bad in ("not json", "[1, 2]", '{"no_type": 1}', {"type": 5}):
        with pytest.raises(StorageError):
            await repo.append_action(game_id, 1, bad, None)
    with pytest.raises(GameNotFound):
        await repo.append_action(999, 1, {"type": "pass"}, None)
    assert await backend.contents() == before


async def test_action_given_as_json_text(repo: GameRepository) -> None:
    game_id = await repo.create_game(*minimal_game())
    await repo.append_action(game_id, 1, '{"type": "pass", "entity": "P1"}', None)
    assert (await repo.list_actions(game_id))[0].action == {"type": "pass", "entity": "P1"}


async def test_undo_and_redo_stay_in_the_log(repo: GameRepository, backend: Backend) -> None:
    game_id = await repo.create_game(*minimal_game())
    moves = [{"type": "pass"}, {"type": "undo"}, {"type": "redo"}, {"type": "undo", "action_id": 0}]
    for seq, move in enumerate(moves, start=1):
        await repo.append_action(game_id, seq, move, None)
    assert [a.action for a in await repo.list_actions(game_id)] == moves
    # Even raw SQL cannot rewrite history or leave a gap: the schema refuses it.
    before = await backend.contents()
    statements = [
        "DELETE FROM actions",
        'UPDATE actions SET action = \'{"type":"pass"}\'',
        f'INSERT INTO actions VALUES ({game_id}, 9, \'{{"type":"pass"}}\', NULL, 0)',
        f'INSERT INTO actions VALUES ({game_id}, 4, \'{{"type":"pass"}}\', NULL, 0)',
    ]
    if backend.name == "postgresql":
        statements.append("TRUNCATE actions")
    for sql in statements:
        with pytest.raises(backend.integrity_error):
            await backend.execute(sql)
    assert await backend.contents() == before


async def test_game_not_found(repo: GameRepository) -> None:
    for call in (
        repo.get_game(5),
        repo.load_game(5),
        repo.last_seq(5),
        repo.set_status(5, "paused"),
        repo.list_seats(5),
    ):
        with pytest.raises(GameNotFound):
            await call


async def test_status_and_listing(repo: GameRepository) -> None:
    first = await repo.create_game(NewGame("18Texas", 1, guild_id=1))
    second = await repo.create_game(NewGame("18Texas", 2, guild_id=1))
    await repo.create_game(NewGame("18Texas", 3, guild_id=2))
    await repo.set_status(second, "finished")
    assert [g.id for g in await repo.list_games(guild_id=1)] == [first, second]
    assert [g.id for g in await repo.list_games(statuses=["setup"])] == [first, 3]
    with pytest.raises(StorageError):
        await repo.set_status(first, "won")  # type: ignore[arg-type]
    await repo.set_location(first, guild_id=1, channel_id=8, thread_id=9)
    assert (await repo.get_game(first)).thread_id == 9


async def test_timestamps_come_from_the_clock(backend: Backend) -> None:
    ticks = iter(range(1000, 2000, 10))
    repo = await backend.open(clock=lambda: next(ticks))
    game_id = await repo.create_game(*minimal_game())
    stored = await repo.append_action(game_id, 1, {"type": "pass"}, 3)
    game = await repo.get_game(game_id)
    await repo.close()
    assert game.created_at == 1000 and game.updated_at > game.created_at
    assert stored.created_at > 1000


async def test_seats(repo: GameRepository) -> None:
    game_id = await repo.create_game(NewGame("18Texas", 1))
    first = await repo.add_seat(game_id, NewSeat("Alice", "Alice", discord_user_id=1))
    await repo.add_seat(game_id, NewSeat(42, "Bob", discord_user_id=2))
    assert first.seat == 1
    with pytest.raises(StorageError, match="already has player"):
        await repo.add_seat(game_id, NewSeat("Alice", "Alice again"))
    replaced = await repo.replace_seat_user(game_id, 2, discord_user_id=3, display_name="Carol")
    assert (replaced.player_id, replaced.discord_user_id, replaced.replaced) == (42, 3, True)
    assert (await repo.mark_seat_left(game_id, 1)).left is True
    with pytest.raises(StorageError, match="no seat"):
        await repo.mark_seat_left(game_id, 7)
    assert [s.display_name for s in await repo.list_seats(game_id)] == ["Alice", "Carol"]


async def test_duplicate_player_ids_are_refused_whole(
    repo: GameRepository, backend: Backend
) -> None:
    before = await backend.contents()
    with pytest.raises(StorageError):
        await repo.create_game(NewGame("18Texas", 1), [NewSeat(1, "A"), NewSeat(1, "B")])
    assert await backend.contents() == before


async def test_integer_and_text_player_ids_stay_apart(repo: GameRepository) -> None:
    game_id = await repo.create_game(NewGame("18Texas", 1), [NewSeat(8923, "A"), NewSeat("8923", "B")])
    assert [s.player_id for s in await repo.list_seats(game_id)] == [8923, "8923"]
    await repo.record_reminder(game_id, "8923", at=5)
    assert [(r.player_id, r.ping_count) for r in await repo.list_reminder_states(game_id)] == [
        ("8923", 1)]


async def test_settings(repo: GameRepository) -> None:
    game_id = await repo.create_game(*minimal_game())
    assert await repo.get_settings(game_id) == GameSettings()
    new = GameSettings(reminder_repeat_hours=8, undo_policy="with_consent")
    await repo.update_settings(game_id, new)
    assert await repo.get_settings(game_id) == new
    with pytest.raises(StorageError):
        await repo.update_settings(game_id, GameSettings(quiet_start_hour=25))
    assert await repo.get_settings(game_id) == new


async def test_reminders(repo: GameRepository) -> None:
    game_id = await repo.create_game(*minimal_game())
    await repo.record_reminder(game_id, "P1", at=100)
    state = await repo.record_reminder(game_id, "P1", at=200)
    assert (state.player_id, state.last_ping_at, state.ping_count) == ("P1", 200, 2)
    assert await repo.list_reminder_states() == [state]
    with pytest.raises(StorageError, match="no player"):
        await repo.record_reminder(game_id, "Nobody", at=1)
    await repo.reset_reminder(game_id, "P1")
    assert await repo.list_reminder_states(game_id) == []


async def test_rows_survive_reopening(backend: Backend, fixture_doc: dict) -> None:
    repo = await backend.open()
    game_id = await repo.create_game(*fixture_game(fixture_doc))
    for seq, action in enumerate(fixture_doc["actions"][:5], start=1):
        await repo.append_action(game_id, seq, action, None)
    before = await repo.load_game(game_id)
    await repo.close()
    repo = await backend.open()
    assert await repo.load_game(game_id) == before
    await repo.close()


async def test_start_game_seats_players_and_activates_in_one_write(repo: GameRepository) -> None:
    game_id = await repo.create_game(
        NewGame("18Texas", 1, status="setup"),
        [NewSeat("P1", "Ann", discord_user_id=11), NewSeat("P2", "Bob", discord_user_id=22)],
    )
    await repo.start_game(game_id, [(22, "Bob"), (11, "Ann")])
    loaded = await repo.load_game(game_id)
    assert loaded.game.status == "active"
    assert [(s.seat, s.player_id, s.discord_user_id, s.display_name, s.replaced) for s in loaded.seats] == [
        (1, "P1", 22, "Bob", False), (2, "P2", 11, "Ann", False)]
    with pytest.raises(StorageError, match="has 2 seats"):
        await repo.start_game(game_id, [(22, "Bob")])
    assert (await repo.load_game(game_id)).seats == loaded.seats


async def test_train_offers(repo: GameRepository) -> None:
    game_id = await repo.create_game(minimal_game()[0], [NewSeat("P1", "One"), NewSeat("P2", "Two")])
    assert await repo.get_train_offer(game_id) is None
    action = {"type": "buy_train", "entity": "SP", "entity_type": "corporation", "train": "2-0", "price": 100}
    stored = await repo.put_train_offer(TrainOffer(game_id, 4, action, 11, "P2"))
    assert stored.created_at > 0 and stored.action == action
    assert await repo.get_train_offer(game_id) == stored
    # One offer per game: a new one replaces the old.
    newer = await repo.put_train_offer(TrainOffer(game_id, 5, {**action, "train": "2-1"}, 11, "P2"))
    assert await repo.get_train_offer(game_id) == newer and newer.seq == 5
    with pytest.raises(StorageError, match="no player 'Nobody'"):
        await repo.put_train_offer(TrainOffer(game_id, 5, action, 11, "Nobody"))
    with pytest.raises(GameNotFound):
        await repo.put_train_offer(TrainOffer(999, 5, action, 11, "P2"))
    await repo.clear_train_offer(game_id)
    await repo.clear_train_offer(game_id)
    assert await repo.get_train_offer(game_id) is None

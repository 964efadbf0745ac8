"""State several bot processes share through the store, on each backend: /game end
agreements, reminders claimed by the shards a process holds, and the change number a process
compares with its cached copy of a game."""

from __future__ import annotations

import asyncio

import pytest
from backends import Backend

from storage import (
    Away,
    EndVote,
    GameNotFound,
    GameRepository,
    NewGame,
    NewSeat,
    ShardSet,
    StorageError,
    TrainOffer,
)
from storage.copier import copy_games


async def _three_players(repo: GameRepository, guild_id: int | None = None) -> int:
    return await repo.create_game(
        NewGame("18Texas", 1, status="active", guild_id=guild_id),
        [NewSeat("A", "Alice"), NewSeat(2, "Bob"), NewSeat("C", "Carol")],
    )


def _players(votes: list[EndVote]) -> list[object]:
    return [v.player_id for v in votes]


async def test_end_agreements_count_only_at_their_seq(repo: GameRepository) -> None:
    game_id = await _three_players(repo)
    assert await repo.list_end_votes(game_id) == []
    assert _players(await repo.agree_to_end(game_id, "A", 0)) == ["A"]
    assert _players(await repo.agree_to_end(game_id, 2, 0)) == [2, "A"]
    assert _players(await repo.agree_to_end(game_id, 2, 0)) == [2, "A"]  # twice is once
    # The game moved on: an agreement given now forgets those of the earlier position.
    await repo.append_action(game_id, 1, {"type": "pass"}, None)
    votes = await repo.agree_to_end(game_id, "C", 1)
    assert [(v.player_id, v.seq) for v in votes] == [("C", 1)]
    assert await repo.list_end_votes(game_id) == votes
    await repo.clear_end_votes(game_id)
    assert await repo.list_end_votes(game_id) == []
    await repo.clear_end_votes(game_id)  # none left: no error


async def test_end_agreement_refusals_change_nothing(backend: Backend) -> None:
    async with await backend.open() as repo:
        game_id = await _three_players(repo)
        await repo.agree_to_end(game_id, "A", 0)
        before = await backend.contents()
        with pytest.raises(StorageError, match="no player 'Z'"):
            await repo.agree_to_end(game_id, "Z", 0)
        with pytest.raises(StorageError, match="no player '2'"):  # "2" is not the player 2
            await repo.agree_to_end(game_id, "2", 0)
        with pytest.raises(GameNotFound):
            await repo.agree_to_end(game_id + 1, "A", 0)
        assert await backend.contents() == before


async def test_agreements_from_two_processes_at_once_are_all_counted(backend: Backend) -> None:
    """Each agreement's transaction queues behind the other's, so the later one sees both."""
    async with await backend.open() as first, await backend.open() as second:
        game_id = await _three_players(first)
        await first.agree_to_end(game_id, "A", 0)
        results = await asyncio.gather(first.agree_to_end(game_id, 2, 0),
                                       second.agree_to_end(game_id, "C", 0))
        assert max(len(r) for r in results) == 3
        assert _players(await second.list_end_votes(game_id)) == [2, "A", "C"]


async def test_agreements_are_copied_with_the_game(backend: Backend, tmp_path: object) -> None:
    from storage import SqliteGameRepository

    async with await backend.open() as source:
        game_id = await _three_players(source)
        await source.agree_to_end(game_id, "C", 0)
        async with await SqliteGameRepository.open(tmp_path / "copy.db") as target:  # type: ignore[operator]
            await copy_games(source, target)
            assert await target.list_end_votes(game_id) == await source.list_end_votes(game_id)
            assert (await target.dump_game(game_id)).end_votes[0].player_id == "C"


async def test_a_player_away_and_the_passes_made_for_them(repo: GameRepository) -> None:
    game_id = await _three_players(repo)
    before = (await repo.get_game(game_id)).change_no
    assert await repo.list_away(game_id) == []
    await repo.set_away(game_id, "A", 5000)
    await repo.set_away(game_id, 2, 7000)
    assert (await repo.get_game(game_id)).change_no != before  # other processes hear of it
    await repo.note_away_pass(game_id, "A", 3)
    await repo.note_away_pass(game_id, "A", 5)
    await repo.note_away_pass(game_id, "C", 6)  # not away: nothing is kept
    await repo.set_away(game_id, "A", 6000)  # a new date keeps the untold passes
    assert await repo.list_away(game_id) == [Away(game_id, 2, 7000), Away(game_id, "A", 6000, (3, 5))]
    assert await repo.take_away_passes(game_id, "A") == (3, 5)
    assert await repo.take_away_passes(game_id, "A") == ()
    assert await repo.take_away_passes(game_id, "C") == ()
    await repo.set_away(game_id, "A", None)  # back
    assert [a.player_id for a in await repo.list_away(game_id)] == [2]
    with pytest.raises(StorageError, match="no player '2'"):  # "2" is not the player 2
        await repo.set_away(game_id, "2", 5000)
    with pytest.raises(GameNotFound):
        await repo.set_away(game_id + 1, "A", 5000)


async def test_players_away_are_copied_with_the_game(backend: Backend, tmp_path: object) -> None:
    from storage import SqliteGameRepository

    async with await backend.open() as source:
        game_id = await _three_players(source)
        await source.set_away(game_id, "C", 9000)
        await source.note_away_pass(game_id, "C", 4)
        async with await SqliteGameRepository.open(tmp_path / "copy.db") as target:  # type: ignore[operator]
            await copy_games(source, target)
            assert await target.list_away(game_id) == [Away(game_id, "C", 9000, (4,))]
            assert (await target.dump_game(game_id)).away == (await source.dump_game(game_id)).away


async def test_reminders_are_claimed_by_the_process_holding_the_guilds_shard(repo: GameRepository) -> None:
    # Guild ids whose shard of 3 is 0, 1 and 2 (Discord: (guild_id >> 22) % shard_count).
    guilds = {shard: (1000 * 3 + shard) << 22 for shard in range(3)}
    games = {shard: await _three_players(repo, guilds[shard]) for shard in range(3)}
    no_guild = await _three_players(repo)
    for game_id in [*games.values(), no_guild]:
        await repo.set_reminder_due(game_id, 50)
    mine = await repo.claim_due_reminders("p0", now=60, shards=ShardSet(3, (0, 2)))
    assert sorted(d.game_id for d in mine) == sorted([games[0], games[2]])
    theirs = await repo.claim_due_reminders("p1", now=60, shards=ShardSet(3, (1,)))
    assert [d.game_id for d in theirs] == [games[1]]
    # Without shards (a bot with one shard, or none configured) every due game is taken.
    assert [d.game_id for d in await repo.claim_due_reminders("p2", now=60)] == [no_guild]


def test_shard_sets_are_checked() -> None:
    assert ShardSet(4, (1, 3)).holds(5 << 22) and not ShardSet(4, (1, 3)).holds(6 << 22)
    assert not ShardSet(1, (0,)).holds(None)
    for count, ids in ((0, (0,)), (2, ()), (2, (2,)), (2, (-1,))):
        with pytest.raises(ValueError):
            ShardSet(count, ids)


async def test_every_write_to_a_game_changes_its_change_number(repo: GameRepository) -> None:
    game_id = await _three_players(repo)
    seen = [(await repo.get_game(game_id)).change_no]

    async def changed() -> bool:
        record, _ = await repo.game_head(game_id)
        new = record.change_no not in seen
        seen.append(record.change_no)
        return new

    await repo.append_action(game_id, 1, {"type": "pass"}, None)
    assert await changed()
    await repo.put_train_offer(TrainOffer(game_id, 1, {"type": "buy_train"}, None, 2))
    assert await changed()
    await repo.clear_train_offer(game_id)
    assert await changed()
    await repo.agree_to_end(game_id, "A", 1)
    assert await changed()
    await repo.replace_seat_user(game_id, 2, 77, "Bea")
    assert await changed()
    await repo.record_reminder(game_id, "A")  # a ping is not a change of the game
    assert not await changed()

"""The Moderator on a real SQLite file: refusals change nothing, seats are enforced,
undo follows the table's policy, and a seq conflict is reported, not overwritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import PLAYERS, USERS, actor, open_moderator, play_opening, started_game

from bot.model import Command
from bot.moderator import Moderator
from storage import SqliteGameRepository


@pytest.fixture
async def setup(tmp_path: Path):
    repo, moderator = await open_moderator(tmp_path / "games.db")
    yield repo, moderator
    await repo.close()


async def snapshot(repo: SqliteGameRepository, moderator: Moderator, game_id: int) -> tuple:
    """What must not change on a refusal: the stored log and the position in memory."""
    session = await moderator.sessions.get(game_id)
    assert session.game is not None
    state = session.game.state
    return (await repo.last_seq(game_id), len(state.log), json.dumps(state.result()),
            [p.cash for p in state.players], state.round.name)


def acting_name(moderator: Moderator, game_id: int) -> str:
    session = moderator.sessions._cache[game_id]
    assert session.game is not None
    return session.game.state.acting_players()[0].name


async def test_start_seats_players_in_an_order_drawn_from_the_seed(setup) -> None:
    repo, moderator = setup
    first = await started_game(moderator, seed=7)
    second = await started_game(moderator, seed=7)
    names = [[s.display_name for s in await repo.list_seats(g)] for g in (first, second)]
    assert names[0] == names[1] and sorted(names[0]) == ["Alice", "Bob", "Carol"]
    status = await moderator.status(first)
    assert "Auction Round" in status.text and "bid on a private company" in status.text
    assert "(/bid; what each does: /game privates)" in status.text  # where to read what they do


async def test_start_needs_enough_players_and_the_creator(setup) -> None:
    repo, moderator = setup
    created = await moderator.create_game(actor("Alice"), "18Texas", seed=1)
    game_id = created.game_id
    assert (await moderator.join(game_id, actor("Bob"))).ok
    refused = await moderator.start(game_id, actor("Bob"))
    assert not refused.reply.ok and "creator" in refused.reply.text
    too_few = await moderator.start(game_id, actor("Alice"))
    assert not too_few.reply.ok and "3 to 5 players" in too_few.reply.text
    assert (await repo.get_game(game_id)).status == "setup"
    again = await moderator.join(game_id, actor("Bob"))
    assert not again.ok and "already have seat" in again.text


async def test_illegal_command_is_explained_and_changes_nothing(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    before = await snapshot(repo, moderator, game_id)
    player = acting_name(moderator, game_id)

    low = await moderator.perform(game_id, actor(player), Command("bid", {"company": "GRRRC", "price": 10}))
    assert not low.ok and low.private
    assert "at least $80" in low.text and "bid on a private company" in low.text

    unknown = await moderator.perform(game_id, actor(player), Command("bid", {"company": "XYZ", "price": 100}))
    assert not unknown.ok and "XYZ is not up for auction; you can bid on" in unknown.text

    wrong_time = await moderator.perform(game_id, actor(player), Command("lay", {"hex": "E11", "tile": "57", "rotation": 0}))
    assert not wrong_time.ok and "/lay is not possible now" in wrong_time.text

    garbage = await moderator.perform(game_id, actor(player), Command("action", {"json": "{not json"}))
    assert not garbage.ok and "not valid JSON" in garbage.text
    assert await snapshot(repo, moderator, game_id) == before

    # A fresh moderator on the same file sees the same position: nothing was written.
    fresh = Moderator(repo, images=False)
    assert await snapshot(repo, fresh, game_id) == before


async def test_lay_and_token_errors_say_what_is_allowed(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    await play_opening(moderator, game_id)
    before = await snapshot(repo, moderator, game_id)
    president = acting_name(moderator, game_id)
    nowhere = await moderator.perform(game_id, actor(president), Command("lay", {"hex": "A1", "tile": "57", "rotation": 0}))
    assert not nowhere.ok and "no tile can be laid on A1; hexes you can build on:" in nowhere.text
    session = await moderator.sessions.get(game_id)
    assert session.game is not None
    lay = next(m for m in session.game.legal_moves() if m["type"] == "lay_tile")
    choice = lay["choices"][0]
    tile = choice["tiles"][0]
    bad_rotation = next(r for r in range(6) if r not in tile["rotations"])
    wrong = await moderator.perform(game_id, actor(president), Command(
        "lay", {"hex": choice["hex"], "tile": tile["tile"].split("-")[0], "rotation": bad_rotation}))
    name = tile["tile"].split("-")[0]
    assert not wrong.ok and (f"tile {name} does not fit {choice['hex']} in rotation {bad_rotation}; it fits {choice['hex']} as "
                             f"rotation {tile['rotations'][0]}: track to ") in wrong.text
    # Each rotation names the neighbouring hexes its track leads to (issue 9, rotations).
    from engine.describe import track_ends
    ends = track_ends(session.game.state, choice["hex"], tile["tile"].split("-")[0], tile["rotations"][0])
    assert ends and all(end in wrong.text for end in ends)
    assert await snapshot(repo, moderator, game_id) == before
    good = await moderator.perform(game_id, actor(president), Command(
        "lay", {"hex": choice["hex"], "tile": tile["tile"].split("-")[0], "rotation": tile["rotations"][0]}))
    assert good.ok and "lays tile" in good.text
    assert await repo.last_seq(game_id) == before[0] + 1


async def test_nobody_acts_for_another_seat(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    before = await snapshot(repo, moderator, game_id)
    player = acting_name(moderator, game_id)
    other = next(n for n in PLAYERS if n != player)
    refused = await moderator.perform(game_id, actor(other), Command("bid", {"company": "GRRRC", "price": 80}))
    assert not refused.ok and "not yours to make now" in refused.text and f"@{player}" in refused.text
    raw = json.dumps({"type": "bid", "entity": 1, "entity_type": "player", "company": "GRRRC", "price": 80})
    session = await moderator.sessions.get(game_id)
    acting_seat = next(s for s in session.seats if s.display_name == player)
    raw = raw.replace('"entity": 1', f'"entity": {acting_seat.player_id}')
    forged = await moderator.perform(game_id, actor(other), Command("action", {"json": raw}))
    assert not forged.ok and "only for your own seat" in forged.text
    outsider = await moderator.perform(game_id, actor("Mallory"), Command("pass"))
    assert not outsider.ok and "no seat" in outsider.text
    assert await snapshot(repo, moderator, game_id) == before


async def test_raw_action_gets_the_moderators_id_and_time(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    player = acting_name(moderator, game_id)
    session = await moderator.sessions.get(game_id)
    seat = next(s for s in session.seats if s.display_name == player)
    raw = {"type": "bid", "entity": seat.player_id, "entity_type": "player", "company": "GRRRC",
           "price": 80, "id": 999, "created_at": 1, "user": 5}
    reply = await moderator.perform(game_id, actor(player), Command("action", {"json": json.dumps(raw)}))
    assert reply.ok, reply.text
    (stored,) = await repo.list_actions(game_id)
    assert stored.action["id"] == 1 and stored.action["created_at"] > 1 and "user" not in stored.action
    assert stored.actor_user_id == USERS[player]
    auto = dict(raw, auto_actions=[{"type": "pass"}])
    refused = await moderator.perform(game_id, actor(player), Command("action", {"json": json.dumps(auto)}))
    assert not refused.ok and "auto_actions are not taken: the moves that follow a move are the game's" in refused.text
    program = {"type": "program_share_pass", "entity": seat.player_id, "entity_type": "player"}
    refused = await moderator.perform(game_id, actor(player), Command("action", {"json": json.dumps(program)}))
    assert not refused.ok and "Standing orders are set with /auto" in refused.text


async def test_undo_policy(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator, creator="Dana")  # Dana created the game but does not play
    first = acting_name(moderator, game_id)
    reply = await moderator.perform(game_id, actor(first), Command("bid", {"company": "GRRRC", "price": 80}))
    assert reply.ok
    second = acting_name(moderator, game_id)
    third = next(n for n in PLAYERS if n not in (first, second))

    # Someone else cannot take back the first player's move ...
    refused = await moderator.finish(await moderator.undo(game_id, actor(second)))
    assert not refused.ok and "only your own last move" in refused.text
    # ... but the first player can, until the next player moves.
    undone = await moderator.finish(await moderator.undo(game_id, actor(first)))
    assert undone.ok and "Undone:" in undone.text and f"{first} bids $80 on GRRRC" in undone.text
    assert acting_name(moderator, game_id) == first
    assert (await repo.list_actions(game_id))[-1].action["type"] == "undo"

    assert (await moderator.perform(game_id, actor(first), Command("bid", {"company": "GRRRC", "price": 80}))).ok
    assert (await moderator.perform(game_id, actor(second), Command("bid", {"company": "JG", "price": 200}))).ok
    too_late = await moderator.finish(await moderator.undo(game_id, actor(first)))
    assert not too_late.ok
    two = await moderator.finish(await moderator.undo(game_id, actor(second), steps=2))
    assert not two.ok, "more than one move needs the creator"
    seats_before = acting_name(moderator, game_id)
    assert seats_before == third
    by_creator = await moderator.finish(await moderator.undo(game_id, actor("Dana"), steps=2))
    assert by_creator.ok, by_creator.text
    assert acting_name(moderator, game_id) == first
    session = await moderator.sessions.get(game_id)
    assert session.game is not None and not session.game.state.round.bids  # type: ignore[attr-defined]
    by_manager = await moderator.finish(await moderator.undo(game_id, actor("Mallory", manager=True)))
    assert not by_manager.ok and "nothing to undo" in by_manager.text


async def _bid_from_another_process(db: Path, game_id: int, player_id: Any) -> None:
    other = await SqliteGameRepository.open(db)  # another process: its own connection
    try:
        await other.append_action(game_id, 1, {"type": "bid", "entity": player_id, "entity_type": "player",
                                               "company": "GRRRC", "price": 80, "id": 1, "created_at": 1}, None)
    finally:
        await other.close()


async def test_a_move_made_by_another_process_is_seen_before_the_next_command(setup, tmp_path: Path) -> None:
    """Issue 9 item 3: `stationmaster play --game 1` moves on the bot's database; the bot's
    cached copy must not answer from the old position."""
    repo, moderator = setup
    game_id = await started_game(moderator)
    first = acting_name(moderator, game_id)
    session = await moderator.sessions.get(game_id)
    seat = next(s for s in session.seats if s.display_name == first)
    await _bid_from_another_process(tmp_path / "games.db", game_id, seat.player_id)
    now = next(p.name for p in (await moderator.sessions.get(game_id)).game.state.acting_players())
    assert now != first
    # The first player is told it is no longer theirs, with the position after the other move.
    stale = await moderator.perform(game_id, actor(first), Command("bid", {"company": "JG", "price": 200}))
    assert not stale.ok and f"Now: @{now}" in stale.text
    assert [a.action["company"] for a in await repo.list_actions(game_id)] == ["GRRRC"]
    # The next player is not refused as if it were still the first player's turn.
    assert (await moderator.perform(game_id, actor(now), Command("bid", {"company": "JG", "price": 200}))).ok
    assert len(await repo.list_actions(game_id)) == 2


async def test_someone_moved_first_between_the_check_and_the_write(setup, tmp_path: Path) -> None:
    """The other process's append lands after the bot checked its copy but before its own
    append: the seq check in the write refuses the bot's move and nothing is lost."""
    repo, moderator = setup
    game_id = await started_game(moderator)
    first = acting_name(moderator, game_id)
    session = await moderator.sessions.get(game_id)
    seat = next(s for s in session.seats if s.display_name == first)
    append = repo.append_action

    async def raced(*args: Any, **kwargs: Any) -> Any:
        await _bid_from_another_process(tmp_path / "games.db", game_id, seat.player_id)
        return await append(*args, **kwargs)

    repo.append_action = raced  # type: ignore[method-assign]
    try:
        stale = await moderator.perform(game_id, actor(first), Command("bid", {"company": "JG", "price": 200}))
    finally:
        repo.append_action = append  # type: ignore[method-assign]
    assert not stale.ok and "Someone moved first" in stale.text
    assert f"@{first}" not in stale.text.split("new state:")[1], "the position shown is the new one"
    actions = await repo.list_actions(game_id)
    assert [a.action["company"] for a in actions] == ["GRRRC"]
    now = acting_name(moderator, game_id)
    assert now != first
    assert (await moderator.perform(game_id, actor(now), Command("bid", {"company": "JG", "price": 200}))).ok


async def test_pause_resume_abandon(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    player = acting_name(moderator, game_id)
    refused = await moderator.set_game_status(game_id, actor("Bob"), "paused")
    assert not refused.ok and "creator" in refused.text
    assert (await moderator.set_game_status(game_id, actor("Alice"), "paused")).ok
    paused = await moderator.perform(game_id, actor(player), Command("bid", {"company": "GRRRC", "price": 80}))
    assert not paused.ok and "paused" in paused.text
    assert (await moderator.set_game_status(game_id, actor("Alice"), "active")).ok
    assert (await moderator.perform(game_id, actor(player), Command("bid", {"company": "GRRRC", "price": 80}))).ok
    assert (await moderator.set_game_status(game_id, actor("Alice"), "abandoned", confirmed=True)).ok
    assert (await repo.get_game(game_id)).status == "abandoned"


async def test_settings_are_checked_and_stored(setup) -> None:
    repo, moderator = setup
    game_id = await started_game(moderator)
    shown = await moderator.settings(game_id, actor("Bob"), {})
    assert shown.ok and "first after 24 h" in shown.text
    assert not (await moderator.settings(game_id, actor("Bob"), {"repeat_hours": 2})).ok
    bad = await moderator.settings(game_id, actor("Alice"), {"time_zone": "Mars/Olympus"})
    assert not bad.ok and "unknown time zone" in bad.text
    ok = await moderator.settings(game_id, actor("Alice"), {"first_after_hours": 2, "repeat_hours": 6,
                                                            "quiet_start": 22, "quiet_end": 7,
                                                            "time_zone": "Europe/Berlin"})
    assert ok.ok and "22:00 to 7:00 Europe/Berlin" in ok.text
    stored = await repo.get_settings(game_id)
    assert (stored.reminder_first_after_hours, stored.quiet_start_hour, stored.quiet_time_zone) == (2.0, 22, "Europe/Berlin")

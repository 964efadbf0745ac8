"""Issue 9 items 1, 2, 4 and 5: nothing typed may crash the process or change the database.

Each hostile input goes through the Moderator (as Discord's cogs call it), through the
terminal (a real `stationmaster play` process reading them from its standard input) and
through `stationmaster import`; each is refused with words that say what was wrong, the
database rows are exactly as before, and the process goes on answering.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from bot_helpers import actor, open_moderator, started_game
from cli_helpers import ROOT, STATIONMASTER, cli_env, run_cli
from hostile_inputs import HOSTILE_SETTINGS, database_rows, hostile_documents, hostile_raw_actions

from bot.model import Actor, Command
from storage.limits import MAX_ACTIONS, MAX_OPEN_GAMES_PER_USER


@pytest.mark.parametrize("name", list(hostile_documents()))
async def test_a_hostile_import_is_refused_and_stores_nothing(tmp_path: Path, name: str) -> None:
    raw, words = hostile_documents()[name]
    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        game_id = await started_game(moderator)
        before = database_rows(db)
        reply = await moderator.import_game(actor("Bob"), raw)
        assert not reply.ok and reply.text.startswith("Import refused") and words in reply.text, reply.text
        assert database_rows(db) == before
        assert (await moderator.status(game_id)).ok  # and the moderator goes on
    finally:
        await repo.close()


@pytest.mark.parametrize("name", list(hostile_raw_actions()))
async def test_a_hostile_raw_action_is_refused_and_stores_nothing(tmp_path: Path, name: str) -> None:
    text, words = hostile_raw_actions()[name]
    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        game_id = await started_game(moderator)
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        before = database_rows(db)
        reply = await moderator.perform(game_id, actor(player), Command("action", {"json": text}))
        assert not reply.ok and words in reply.text, reply.text
        assert database_rows(db) == before
        passed = await moderator.perform(game_id, actor(player), Command("action", {"json": '{"type": "message", '
                                                                                   '"message": "still here"}'}))
        assert passed.ok, passed.text
    finally:
        await repo.close()


@pytest.mark.parametrize("name", list(HOSTILE_SETTINGS))
async def test_out_of_range_settings_are_refused(tmp_path: Path, name: str) -> None:
    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        game_id = await started_game(moderator)
        before = database_rows(db)
        reply = await moderator.settings(game_id, actor("Alice"), dict(HOSTILE_SETTINGS[name]))
        assert not reply.ok and "must be a number of hours from" in reply.text, reply.text
        assert database_rows(db) == before
    finally:
        await repo.close()


async def test_settings_at_the_edges_of_the_ranges_are_taken(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        reply = await moderator.settings(game_id, actor("Alice"), {"first_after_hours": 0.25, "repeat_hours": 720})
        assert reply.ok and "first after 0.25 h, then every 720 h" in reply.text
        zone = await moderator.settings(game_id, actor("Alice"), {"time_zone": "../../etc/passwd"})
        assert not zone.ok and "unknown time zone" in zone.text
    finally:
        await repo.close()


def test_the_terminal_refuses_every_hostile_line_and_keeps_going(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    created = run_cli("play", "--players", "Alice,Bob,Carol", "--seed", "7", "--db", str(db), "--images", "none")
    assert created.returncode == 0, created.stderr
    before = database_rows(db)
    files, lines, expected = [], [], []
    for number, (raw, words) in enumerate(hostile_documents().values()):
        path = tmp_path / f"hostile{number}.json"
        path.write_bytes(raw)
        files.append(path)
        lines.append(f"/game import file:{path}".encode())
        expected.append(words)
    for text, words in hostile_raw_actions().values():
        lines.append(b"@Alice /action json:" + text.encode("utf-8"))
        expected.append(words)
    for values in HOSTILE_SETTINGS.values():
        (key, value), = values.items()
        lines.append(f"/game settings {key}:{value!r}".encode())
        # NaN, inf and 1e308 are refused as the terminal reads numbers (as Discord's number
        # options would), the others by the settings' own range.
        expected.append("must be a number")
    lines.append(b"@Al\xff\xfece /pass")  # not UTF-8 at all
    lines.append(b"/game status")
    played = run_cli("play", "--game", "1", "--db", str(db), "--images", "none", stdin=b"\n".join(lines) + b"\n")
    out = played.stdout
    assert played.returncode == 0 and "Traceback" not in played.stderr, played.stderr
    for words in expected:
        assert words in out, words
    assert out.count("error: ") >= len(expected) + 1
    assert "18Texas game #1 (active)" in out.split("error: ")[-1], "the status after all of them"
    assert database_rows(db) == before


@pytest.mark.parametrize("name", ["nesting 5000 deep", "integer of 5000 digits", "NaN in an unknown field",
                                  "lone surrogate in a player name", "seed of 2^63", "player id of 2^63",
                                  "action id of 2^63"])
def test_the_import_command_refuses_hostile_files(tmp_path: Path, name: str) -> None:
    raw, words = hostile_documents()[name]
    db = tmp_path / "games.db"
    good = run_cli("import", str(ROOT / "tests/data/fixtures/18Texas/65394.json"), "--db", str(db))
    assert good.returncode == 0 and good.stdout.strip() == "1", good.stderr
    before = database_rows(db)
    (tmp_path / "hostile.json").write_bytes(raw)
    refused = run_cli("import", str(tmp_path / "hostile.json"), "--db", str(db))
    assert refused.returncode == 1
    assert refused.stderr.startswith("stationmaster import: refused: ") and words in refused.stderr
    assert "Traceback" not in refused.stderr
    assert database_rows(db) == before


async def test_a_log_over_the_action_limit_is_refused(tmp_path: Path) -> None:
    document = json.loads(hostile_documents.__globals__["FIXTURE"].read_text())
    document["actions"] = [{"type": "message", "entity": document["players"][0]["id"], "message": "x"}] * (MAX_ACTIONS + 1)
    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        reply = await moderator.import_game(actor("Bob"), json.dumps(document))
        assert not reply.ok and f"at most {MAX_ACTIONS}" in reply.text
        assert await repo.list_games() == []
    finally:
        await repo.close()


async def test_imports_per_user_are_limited_and_the_importer_hands_out_seats(tmp_path: Path) -> None:
    document = json.loads(hostile_documents.__globals__["FIXTURE"].read_text())
    document["actions"] = document["actions"][:10]
    raw = json.dumps(document)
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        for _ in range(MAX_OPEN_GAMES_PER_USER):
            assert (await moderator.import_game(actor("Bob"), raw)).ok
        refused = await moderator.import_game(actor("Bob"), raw)
        assert not refused.ok and f"the limit is {MAX_OPEN_GAMES_PER_USER}" in refused.text
        assert len(await repo.list_games()) == MAX_OPEN_GAMES_PER_USER
        assert (await moderator.import_game(actor("Carol"), raw)).ok  # another member is not held back
        # Bob imported game 1, so Bob gives its seats; Carol may not.
        assert not (await moderator.replace(1, actor("Carol"), "1", 1003, "Carol")).ok
        assert (await moderator.replace(1, actor("Bob"), "1", 1003, "Carol")).ok
        # and it has the configured reminder defaults
        assert (await repo.get_settings(1)) == moderator.reminder_defaults.game_settings()
    finally:
        await repo.close()


async def test_a_raw_action_may_name_its_seat_as_hotseat_logs_do(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        other = next(s.display_name for s in session.seats if s.display_name != player)
        named = await moderator.perform(game_id, actor(player), Command("action", {"json": json.dumps(
            {"type": "message", "entity": other, "message": "hello"})}))
        assert named.ok  # a message always speaks for the sender's own seat
        assert (await repo.list_actions(game_id))[-1].action["entity"] == session.seats[
            [s.display_name for s in session.seats].index(player)].player_id
        # A seat by its player's name, in any case, as hotseat logs name it ("Player 1").
        bid = {"type": "bid", "entity": player.upper(), "company": "GRRRC", "price": 85}
        by_name = await moderator.perform(game_id, actor(player), Command("action", {"json": json.dumps(bid)}))
        assert by_name.ok and f"{player} bids $85 for GRRRC" in by_name.text, by_name.text
        # No entity: the sender's own seat (so the engine refuses it for not being their turn).
        now = next(p.name for p in (await moderator.sessions.get(game_id)).game.state.acting_players())
        idle = next(s.display_name for s in session.seats if s.display_name != now)
        own = await moderator.perform(game_id, actor(idle), Command("action", {"json": '{"type": "pass"}'}))
        assert not own.ok and f"it is {now}'s turn" in own.text, own.text
        for entity in (now, "SP"):
            not_theirs = await moderator.perform(game_id, actor(idle), Command("action", {"json": json.dumps(
                {"type": "pass", "entity": entity})}))
            assert not not_theirs.ok and "your own seat" in not_theirs.text
    finally:
        await repo.close()


async def test_names_with_control_characters_or_duplicates_create_nothing(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        table = Actor(None, "", True)
        for players, words in ((["Alice", "alice", "Bob"], "two players are called"),
                               (["Al\x00ice", "Bob", "Carol"], "control character"),
                               (["A" * 40, "Bob", "Carol"], "at most 32"),
                               (["Alice"], "nothing was created"),
                               (["Alice", "Bob", "Carol", "Dana", "Eve", "Fay", "Gus"], "nothing was created")):
            reply = await moderator.create_game(table, "18Texas", seed=1, players=players)
            assert not reply.ok and words in reply.text.lower(), reply.text
        huge = await moderator.create_game(table, "18Texas", seed=2**70, players=["A", "B", "C"])
        assert not huge.ok and "seed" in huge.text
        assert await repo.list_games() == []
    finally:
        await repo.close()


async def test_a_command_sent_before_its_twin_was_made_is_answered_already_done(tmp_path: Path) -> None:
    """Issue 9 item 7 in the Moderator: the copy sent at the same moment is not made again; the
    same command sent after the answer is a new move."""
    import time

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        sent = time.time()
        bid = {"company": "GRRRC", "price": 85}
        first = await moderator.perform(game_id, actor(player), Command("bid", bid, sent_at=sent))
        twin = await moderator.perform(game_id, actor(player), Command("bid", bid, sent_at=sent))
        assert first.ok and not twin.ok and twin.text.startswith("Already done: your /bid was made as move 1")
        assert len(await repo.list_actions(game_id)) == 1
        later = await moderator.perform(game_id, actor(player), Command("bid", bid, sent_at=time.time()))
        assert not later.ok and "Already done" not in later.text  # the engine's own answer
    finally:
        await repo.close()


async def test_the_terminal_stamps_each_line_when_it_is_read(tmp_path: Path) -> None:
    """Terminal lines are read one after the other, each after the previous answer, so the
    same line twice is two moves: the second is judged by the rules, not taken as a repeat."""
    import io

    from bot.console import Console

    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await started_game(moderator)
        session = await moderator.sessions.get(game_id)
        player = session.game.state.acting_players()[0].name
        out = io.StringIO()
        console = Console(moderator, game_id, None, out)
        for _ in range(2):
            await console.line(f"@{player} /bid company:GRRRC price:85")
        assert f"{player} bids $85 for GRRRC" in out.getvalue()
        assert "Already done" not in out.getvalue() and "error: /bid is not yours to make now" in out.getvalue()
        assert len(await repo.list_actions(game_id)) == 1
    finally:
        await repo.close()


def test_a_bare_stationmaster_resumes_the_last_terminal_game(tmp_path: Path) -> None:
    first = run_cli(stdin=b"@Alice /game status\n", cwd=tmp_path)
    assert first.returncode == 0 and "a 3-player 18Texas game" in first.stdout
    second = run_cli(stdin=b"/game status\n", cwd=tmp_path)
    assert second.returncode == 0 and "resuming game #1" in second.stdout, second.stdout
    assert database_rows(tmp_path / "stationmaster.db")["games"][0][0] == 1
    assert len(database_rows(tmp_path / "stationmaster.db")["games"]) == 1


def test_invalid_players_create_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    for players, words in (("Alice", "nothing was created"), ("A,B,C,D,E,F,G", "nothing was created"),
                           ("Alice,alice,Bob", "every player needs a different name")):
        refused = run_cli("play", "--players", players, "--db", str(db), "--images", "none")
        assert refused.returncode == 2 and words in refused.stdout, refused.stdout
    assert not db.exists() or database_rows(db).get("games") == []


async def test_reminders_follow_a_move_made_by_another_process(tmp_path: Path) -> None:
    """Issue 9 item 3: the reminder goes to whoever must act now, not to the player the bot's
    cached copy still waits for."""
    from bot.reminders import ReminderService
    from storage import SqliteGameRepository

    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        game_id = await started_game(moderator)
        reminders = ReminderService(moderator, send=lambda *args: None)  # type: ignore[arg-type, return-value]
        (_, first), = await reminders.due(game_id)
        other = await SqliteGameRepository.open(db)
        try:
            await other.append_action(game_id, 1, {"type": "bid", "entity": first.player_id, "company": "GRRRC",
                                                   "price": 80}, None)
        finally:
            await other.close()
        (_, now), = await reminders.due(game_id)
        assert now.player_id != first.player_id
        assert (await moderator.set_game_status(game_id, actor("Alice"), "abandoned", confirmed=True)).ok
        assert await reminders.due(game_id) == []
    finally:
        await repo.close()


@pytest.mark.parametrize("data, words", [
    ({"reminders": {"first_after_hours": 100_000_000}}, "first_after_hours must be a number of hours from 0.25"),
    ({"reminders": {"repeat_hours": float("inf")}}, "repeat_hours must be a number of hours from 1"),
    ({"reminders": {"time_zone": "Mars/Base"}}, "unknown time zone"),
    ({"bot": {"router_budget": float("nan")}}, "router_budget must be a number greater than 0"),
    ({"bot": {"guild_ids": [2**64]}}, "guild_ids must be a list of guild ids"),
])
def test_out_of_range_config_values_are_refused(data: dict, words: str) -> None:
    from bot.config import ConfigError, parse_settings

    with pytest.raises(ConfigError, match=words):
        parse_settings(data, environ={})


def test_the_play_command_refuses_an_unbounded_router_budget(tmp_path: Path) -> None:
    refused = run_cli("play", "--router-budget", "inf", "--db", str(tmp_path / "g.db"), "--images", "none")
    assert refused.returncode == 2 and "--router-budget: must be more than 0" in refused.stderr
    assert not (tmp_path / "g.db").exists()


def test_a_player_name_that_is_not_utf8_on_the_command_line_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    done = subprocess.run(STATIONMASTER + [b"play", b"--players", b"Al\xffce,Bob,Carol", b"--db", str(db).encode(),
                                           b"--images", b"none"], capture_output=True, timeout=300, cwd=ROOT,
                          env=cli_env())
    assert done.returncode == 2 and b"holds a lone surrogate (U+DCFF)" in done.stdout, done.stdout
    assert b"Traceback" not in done.stderr
    assert not db.exists() or database_rows(db).get("games") == []

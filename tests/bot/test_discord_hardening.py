"""Issue 9 through the real discord.py client and tests/fakediscord: hostile raw actions and
settings are answered (never left "thinking") and change nothing; a bot whose database holds
a game with out-of-range stored settings still starts and serves the other games; a slash
command sent twice at once is made once."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from hostile_inputs import database_rows, hostile_documents, hostile_raw_actions
from offer_helpers import stored_game
from test_discord_e2e import Table, last_seq, stationmaster

from storage import SqliteGameRepository


def users_of(table: Table) -> dict[str, int]:
    return {name.title(): user.id for name, user in table.users.items()}


async def consent_game(fake: FakeDiscord, db: Path) -> Table:
    """The three players and a stored game in the channel, stopped in an operating round."""
    table = Table(fake)
    async with await SqliteGameRepository.open(db) as repo:
        await stored_game(repo, "consent", thread_id=fake.channel.id, users=users_of(table))
    table.thread = fake.channel
    return table


@pytest.mark.parametrize("name", list(hostile_raw_actions()))
async def test_hostile_raw_actions_are_answered_and_change_nothing(fake_discord: FakeDiscord, tmp_path: Path,
                                                                   name: str) -> None:
    text, words = hostile_raw_actions()[name]
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        before = database_rows(db)  # after the start, which plans the game's reminder
        refused = await table.slash(table.users["alice"], "action", json=text)
        assert refused.ephemeral and words in refused.content, refused.content
        assert database_rows(db) == before
        status = await table.slash(table.users["bob"], "game", "status")
        assert not status.ephemeral and "18Texas game #1 (active)" in status.content


async def test_hostile_settings_are_refused_in_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        before = database_rows(db)  # after the start, which plans the game's reminder
        for options in ({"first_after_hours": 100_000_000.0}, {"first_after_hours": 1e308},
                        {"repeat_hours": 1e308}, {"repeat_hours": 0.001}, {"quiet_start": 99999}):
            refused = await table.slash(table.users["alice"], "game", "settings", **options)
            assert refused.ephemeral and ("must be a number of hours from" in refused.content
                                          or "quiet_start is an hour" in refused.content), refused.content
        assert database_rows(db) == before
    async with stationmaster(fake, db, images=False) as bot:  # and it starts again
        assert bot.reminders.running and 1 in await bot.moderator.repo.list_reminder_dues()


async def test_a_game_with_out_of_range_stored_settings_does_not_stop_the_bot(fake_discord: FakeDiscord,
                                                                              tmp_path: Path) -> None:
    """Settings stored before they were bounded (or edited by hand): the bot starts, plans
    every game it can, and serves the other games."""
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    second = fake.add_text_channel("second-game")
    async with await SqliteGameRepository.open(db) as repo:
        bad = await stored_game(repo, "consent", thread_id=second.id, users=users_of(table))
        good = await stored_game(repo, "consent", thread_id=fake.channel.id, users=users_of(table))
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE game_settings SET reminder_first_after_hours = 1e308, reminder_repeat_hours = 1e308,"
                     " quiet_start_hour = 3, quiet_end_hour = 5, quiet_time_zone = 'Mars/Olympus_Mons'"
                     " WHERE game_id = ?", (bad,))
        conn.execute("INSERT INTO reminder_due (game_id, due_at) VALUES (?, ?)", (bad, 10**17))
    conn.close()
    table.thread = fake.channel
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        assert bot.reminders.running and good in await bot.moderator.repo.list_reminder_dues()
        status = await table.slash(table.users["bob"], "game", "status")
        assert not status.ephemeral and f"18Texas game #{good} (active)" in status.content
        seq = await last_seq(db)
        offer = await table.slash(table.users["alice"], "train", train="2-0")
        assert not offer.ephemeral and "asks to buy your 2-train" in offer.content
        # The bad game is played too; its reminders use the nearest allowed settings.
        table.thread = second
        shown = await table.slash(table.users["bob"], "game", "status")
        assert f"game #{bad} (active)" in shown.content
        assert await last_seq(db) == seq


async def test_a_slash_command_sent_twice_at_once_is_made_once(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Issue 9 item 7: two /pass delivered together (a double click, a flaky connection)."""
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        seq = await last_seq(db)
        alice = table.users["alice"]
        handles = await asyncio.gather(fake.invoke_slash(alice, "pass", channel=fake.channel),
                                       fake.invoke_slash(alice, "pass", channel=fake.channel))
        answers = [await handle.wait_message(timeout=20) for handle in handles]
        made = [a for a in answers if not a.ephemeral]
        repeated = [a for a in answers if a.ephemeral]
        assert len(made) == 1 and len(repeated) == 1, [a.content for a in answers]
        assert repeated[0].content.startswith("Already done: your /pass was made as move")
        assert await last_seq(db) == seq + 1
        # Sent again after the answer, it is a new move (refused or made by the rules alone).
        again = await table.slash(alice, "pass")
        assert "Already done" not in again.content


async def _import_by_slash(fake: FakeDiscord, user: Any, raw: bytes, *, declared: int | None = None,
                           endless: bool = False) -> Any:
    """`/game import file:` with an attachment. tests/fakediscord builds no attachment options
    yet, so the interaction is put together here from its parts: the file is a real upload
    the bot downloads from the fake's CDN, as from Discord's. ``declared``: the size Discord
    states, if it is to lie; ``endless``: the download never ends (the CDN streams spaces)."""
    from fakediscord.bodies import UploadedFile
    from fakediscord.interactions import _record

    upload = await fake.create_message(fake.channel, user, {"content": ""},
                                       [UploadedFile(0, "game.json", "application/json", raw)])
    (attachment,) = upload.attachments
    attachment.endless = endless
    command = fake.commands.find("game", fake.guild.id)
    data = {
        "id": command["id"], "name": "game", "type": 1, "guild_id": str(fake.guild.id),
        "options": [{"type": 1, "name": "import", "options": [{"type": 11, "name": "file",
                                                                "value": str(attachment.id)}]}],
        "resolved": {"attachments": {str(attachment.id): {
            "id": str(attachment.id), "filename": attachment.filename,
            "size": attachment.size if declared is None else declared,
            "url": attachment.url, "proxy_url": attachment.url, "content_type": "application/json"}}},
    }
    return await fake._send_interaction(_record(fake, 2, user, fake.channel, data))


@pytest.mark.parametrize("name", list(hostile_documents()))
async def test_hostile_imports_are_answered_and_store_nothing(fake_discord: FakeDiscord, tmp_path: Path,
                                                             name: str) -> None:
    raw, words = hostile_documents()[name]
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        before = database_rows(db)  # after the start, which plans the game's reminder
        handle = await _import_by_slash(fake, table.users["bob"], raw)
        answer = await handle.wait_message(timeout=20)
        assert answer.ephemeral and answer.content.startswith("Import refused") and words in answer.content
        assert database_rows(db) == before
        assert fake.threads(fake.channel) == []
        status = await table.slash(table.users["bob"], "game", "status")
        assert not status.ephemeral and "18Texas game #1 (active)" in status.content


async def test_a_good_import_by_slash_opens_a_thread(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    raw = (Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json").read_bytes()
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        handle = await _import_by_slash(fake, table.users["bob"], raw)
        answer = await handle.wait_message(timeout=20)
        assert answer.ephemeral and answer.content.startswith("Imported as game #1")
        (thread,) = fake.threads(fake.channel)
        record = await bot.moderator.repo.get_game(1)
        assert record.thread_id == thread.id and record.creator_user_id == table.users["bob"].id


async def test_a_command_that_fails_inside_the_bot_is_still_answered(fake_discord: FakeDiscord,
                                                                     tmp_path: Path) -> None:
    """A bug must not leave a player on "thinking" forever: the command tree's error handler
    answers, and the bot goes on serving."""
    fake, db = fake_discord, tmp_path / "bot.db"
    table = await consent_game(fake, db)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        real = bot.moderator.status

        async def broken(game_id: int) -> Any:
            raise RuntimeError("a bug")

        bot.moderator.status = broken  # type: ignore[method-assign]
        failed = await table.slash(table.users["bob"], "game", "status")
        assert failed.ephemeral and failed.content.startswith("That command failed inside the bot")
        bot.moderator.status = real  # type: ignore[method-assign]
        status = await table.slash(table.users["bob"], "game", "status")
        assert not status.ephemeral and "(active)" in status.content

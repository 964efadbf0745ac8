"""Issue 31 items 5 and 6 through the real discord.py client and tests/fakediscord: a seat name
that differs from another only by invisible characters, one that holds " /", or one of
invisible characters only, is refused at /game join and at /game replace with the reason;
/game log lines:0 or fewer is refused, not shown as one line. Nothing is stored."""

from __future__ import annotations

from pathlib import Path

from fakediscord import FakeDiscord
from hostile_inputs import database_rows
from test_discord_e2e import WAIT, Table, seen_answer, stationmaster


async def test_seat_names_that_cannot_be_told_apart_are_refused(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    twin = fake.add_user("alice\u200b")  # alice with a zero-width space
    mirrored = fake.add_user("\u202ealice")  # a right-to-left override before it
    slashed = fake.add_user("ann /pass")
    blank = fake.add_user("\u200b\u200c")
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        alice = table.users["alice"]
        await (await fake.invoke_slash(alice, "game", "new", options={"title": "18Texas", "seed": 5})).wait_message(
            timeout=WAIT)
        (table.thread,) = fake.threads(fake.channel)
        before = database_rows(db)
        for user, words in ((twin, "The names 'alice' and 'alice<U+200B>' differ only by invisible characters"),
                            (mirrored, "The names 'alice' and '<U+202E>alice' differ only by invisible characters"),
                            (slashed, "holds ' /', which ends a player's name in a terminal line"),
                            (blank, "holds only invisible characters")):
            refused = await table.slash(user, "game", "join")
            assert refused.ephemeral and words.lower() in refused.content.lower(), refused.content
        assert database_rows(db) == before
        for name in ("bob", "carol"):
            joined = await table.slash(table.users[name], "game", "join")
            assert f"{name} joins game #1" in joined.content
        started = await table.slash(alice, "game", "start")
        assert "starts" in started.content, started.content
        before = database_rows(db)
        seat_of_bob = next(s.seat for s in (await bot.moderator.repo.load_game(1)).seats if s.display_name == "bob")
        for user, words in ((twin, "differ only by invisible characters"), (slashed, "holds ' /'")):
            handle = await fake.invoke_slash(alice, "game", "replace", options={"seat": str(seat_of_bob),
                                                                                 "user": user},
                                             channel=table.thread)
            refused = await seen_answer(fake, handle)
            assert refused.ephemeral and words in refused.content, refused.content
        assert database_rows(db) == before
        for lines in (0, -3):
            refused = await table.slash(alice, "game", "log", lines=lines)
            assert refused.ephemeral and refused.content == (
                f"lines: is how many of the latest log lines to show, from 1 to 60, not {lines}."), refused.content
        shown = await table.slash(alice, "game", "log", lines=1)
        assert not shown.ephemeral and shown.content.count("\n") == 0

"""The real discord.py client, running the Stationmaster bot, against tests/fakediscord.

Three users create, join and start an 18Texas game in its own thread, play the auction, a
stock round and operating rounds (a tile lay, a station, a run and a dividend) with slash
commands, autocomplete and buttons; refusals are ephemeral and change nothing; the bot is
restarted mid-game; reminders fire once and are not repeated after a restart; a train
offer (rule 12.6) is accepted by the selling president's button.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from bot_helpers import opening_command, operating_command
from fakediscord import FakeDiscord, FakeUser, StoredMessage, running_bot
from offer_helpers import stored_game
from PIL import Image

from bot.config import Settings
from bot.discord.client import StationmasterBot
from bot.model import Command
from bot.moderator import Moderator
from bot.vocabulary import MOVES
from storage import SqliteGameRepository

PNG = b"\x89PNG\r\n\x1a\n"
WAIT = 20.0


@contextlib.asynccontextmanager
async def stationmaster(fake: FakeDiscord, db: Path, hours_ago: float = 0.0,
                        **moderator_options: Any) -> AsyncIterator[StationmasterBot]:
    """The bot as `stationmaster bot` builds it, on a real SQLite file, synced to the guild.

    ``hours_ago`` dates every stored change that long before now, as if the players had
    been thinking for that long (reminders cannot be set shorter than a quarter hour)."""
    repo = await SqliteGameRepository.open(db, clock=lambda: int(time.time() - hours_ago * 3600))
    try:
        moderator = Moderator(repo, **{"router_budget": 0.5, **moderator_options})
        bot = StationmasterBot(Settings(db_path=str(db), guild_ids=(fake.guild.id,)), moderator)
        async with running_bot(fake, bot):
            yield bot
    finally:
        await repo.close()


# A move that takes the bot longer than bot/discord/respond.FAST (a loaded machine) is
# acknowledged to its maker alone with one of these, and its reply is posted in the channel.
PRIVATE_ACKS = ("Done: your move is in.", "Done.")


async def seen_answer(fake: FakeDiscord, handle: Any, timeout: float = WAIT) -> StoredMessage:
    """The answer to an interaction as the players see it: its own message, or after a private
    acknowledgement the bot's next public message in the channel (the move's reply)."""
    message: StoredMessage = await handle.wait_message(timeout=timeout)
    if not (message.ephemeral and message.content in PRIVATE_ACKS):
        return message
    channel = handle.record.channel_id

    def posted() -> StoredMessage | None:
        return next((m for m in fake.messages_in(channel, include_ephemeral=False)
                     if m.id > message.id and m.author.bot), None)

    return await fake.wait_for(posted, timeout=timeout, what="the move's reply after a private acknowledgement")


class Table:
    """The three players, acting in the game's thread."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.users = {name: fake.add_user(name) for name in ("alice", "bob", "carol")}
        self.thread: Any = None
        self.bot: StationmasterBot | None = None

    async def slash(self, user: FakeUser, *path: str, **options: Any) -> StoredMessage:
        handle = await self.fake.invoke_slash(user, *path, options=options, channel=self.thread)
        return await seen_answer(self.fake, handle)

    async def click(self, user: FakeUser, message: StoredMessage, custom_id: str) -> StoredMessage:
        handle = await self.fake.click(user, message, custom_id)
        return await seen_answer(self.fake, handle)

    async def choices(self, user: FakeUser, command: str, focused: str, **filled: Any) -> list[dict[str, Any]]:
        handle = await self.fake.autocomplete(user, command, focused=focused, value="", options=filled,
                                              channel=self.thread)
        return await handle.wait_choices(timeout=WAIT)

    async def open(self, title: str, seed: int) -> StoredMessage:
        """Alice creates a game, Bob and Carol join it, Alice starts it; the start's reply."""
        alice = self.users["alice"]
        await (await self.fake.invoke_slash(alice, "game", "new", options={"title": title, "seed": seed})).wait_message(
            timeout=WAIT)
        (self.thread,) = self.fake.threads(self.fake.channel)
        for name in ("bob", "carol"):
            await self.slash(self.users[name], "game", "join")
        return await self.slash(alice, "game", "start")

    def state(self) -> Any:
        assert self.bot is not None
        session = self.bot.moderator.sessions._cache[1]
        assert session.game is not None
        return session.game.state

    def public(self) -> list[StoredMessage]:
        return self.fake.messages_in(self.thread, include_ephemeral=False)


def pngs(message: StoredMessage) -> list[str]:
    names = []
    for attachment in message.attachments:
        assert attachment.data.startswith(PNG)
        Image.open(io.BytesIO(attachment.data)).verify()
        names.append(attachment.filename)
    return names


def _buttons(message: StoredMessage) -> list[dict[str, Any]]:
    return [c for row in message.components or [] for c in row.get("components", []) if c.get("custom_id")]


def pinged(message: StoredMessage) -> list[int]:
    assert message.allowed_mentions is not None and message.allowed_mentions.get("parse") == []
    return [int(u) for u in message.allowed_mentions.get("users", [])]


async def last_seq(db: Path) -> int:
    async with await SqliteGameRepository.open(db) as repo:
        return await repo.last_seq(1)


async def open_game(table: Table, seed: int) -> StoredMessage:
    """alice creates, bob joins by command, carol by the lobby's Join button, alice starts."""
    fake, alice, bob, carol = table.fake, table.users["alice"], table.users["bob"], table.users["carol"]
    created = await (await fake.invoke_slash(alice, "game", "new", options={"title": "18Texas", "seed": seed})).wait_message()
    (table.thread,) = fake.threads(fake.channel)
    assert table.thread.mention in created.content and not created.ephemeral
    lobby = table.public()[0]
    assert lobby.custom_ids() == ["sm:1:0:join", "sm:1:0:start"]
    assert "joins game #1" in (await table.slash(bob, "game", "join")).content
    assert "carol joins" in (await table.click(carol, lobby, "sm:1:0:join")).content
    refused = await table.slash(bob, "game", "start")
    assert refused.ephemeral and "creator" in refused.content
    started = await table.slash(alice, "game", "start")
    assert "starts. Seat order:" in started.content and not started.ephemeral
    assert pngs(started) == ["map.png", "market.png", "table.png"]
    first = table.users[table.state().acting_players()[0].name]
    assert pinged(started) == [first.id] and first.mention in started.content
    return started


async def play(table: Table, name: str, command: Command) -> StoredMessage:
    """A player's command as a slash command; the reply is public, pings only who acts next."""
    options = {("from" if k == "from" else k): v for k, v in command.options.items() if v is not None}
    reply = await table.slash(table.users[name], command.name, **options)
    assert not reply.ephemeral, reply.content
    # The map is posted again only when it changed (issue 9): track and stations change it, bids do not.
    if command.name in ("lay", "token"):
        assert "map.png" in pngs(reply)
    if command.name == "bid":
        assert "map.png" not in pngs(reply)
    state = table.state()
    if not state.finished:
        assert set(pinged(reply)) == {table.users[p.name].id for p in state.acting_players()}
    return reply


async def test_a_game_from_new_to_runs_and_dividends(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    async with stationmaster(fake, db) as bot:
        table.bot = bot
        await open_game(table, seed=6)
        # Players who joined (by command and by button) follow the thread.
        joined = {table.users["bob"].id, table.users["carol"].id}
        await fake.wait_for(lambda: joined <= table.thread.member_ids, timeout=WAIT, what="joiners in the thread")

        # The auction: autocomplete offers the privates; refusals are ephemeral and change nothing.
        bidder = table.users[table.state().acting_players()[0].name]
        offered = await table.choices(bidder, "bid", "company")
        assert [c["value"] for c in offered] == ["BBBCRC", "GRRRC", "JG"]
        prices = await table.choices(bidder, "bid", "price", company="GRRRC")
        assert prices[0] == {"name": "$80", "value": 80}
        seq, public = await last_seq(db), len(table.public())
        low = await table.slash(bidder, "bid", company="GRRRC", price=10)
        assert low.ephemeral and "at least $80" in low.content
        other = next(u for u in table.users.values() if u is not bidder)
        assert await table.choices(other, "bid", "company") == []
        stolen = await table.slash(other, "bid", company="GRRRC", price=80)
        assert stolen.ephemeral and "you act only for your own seat" in stolen.content
        outside = await table.slash(fake.add_user("mallory"), "pass")
        assert outside.ephemeral and "no seat" in outside.content
        assert (await last_seq(db), len(table.public())) == (seq, public)

        # Auction and a stock round that floats the Jay Gould company.
        while (step := opening_command(table.state())) is not None:
            await play(table, *step)
        assert table.state().round.name == "Operating Round"

    # The bot restarts mid-game: the thread, the game and its buttons still work.
    async with stationmaster(fake, db) as bot:
        table.bot = bot
        status = await table.slash(table.users["carol"], "game", "status")
        assert "Operating Round 1.1" in status.content and not status.ephemeral
        assert bot.moderator.sessions._cache[1].game is not None

        laid: set[tuple[Any, ...]] = set()
        seen: set[str] = set()
        stale: tuple[StoredMessage, str] | None = None
        for _ in range(60):
            name, command = operating_command(table.state(), laid)
            user = table.users[name]
            if command.name == "lay":  # what autocomplete offers: hex, then tiles there, then rotations
                options = command.options
                hexes = [c["value"] for c in await table.choices(user, "lay", "hex")]
                tiles = [c["value"] for c in await table.choices(user, "lay", "tile", hex=options["hex"])]
                rotations = [c["value"] for c in await table.choices(user, "lay", "rotation", hex=options["hex"],
                                                                     tile=options["tile"])]
                assert options["hex"] in hexes and options["tile"] in tiles and options["rotation"] in rotations
            if command.name == "token":
                cities = [c["value"] for c in await table.choices(user, "token", "city")]
                assert cities, "autocomplete offers the cities a station can go to"
                command = Command("token", {"city": cities[0]})
            if command.name in ("run", "dividend"):
                # Confirm by button: "Run for $X" under the proposal, "Payout" under the run.
                last = table.public()[-1]
                wanted = ":run:" if command.name == "run" else ":dividend:payout"
                custom_id = next(c for c in last.custom_ids() if wanted in f"{c}:")
                reply = await table.click(user, last, custom_id)
                assert not reply.ephemeral  # (the map is posted only if it changed)
                stale = (last, custom_id)
            else:
                reply = await play(table, name, command)
            seen.add(command.name)
            if {"lay", "token", "run", "dividend"} <= seen:
                break
        assert {"lay", "token", "run", "dividend"} <= seen, seen
        assert "pays $" in reply.content

        # A used button is greyed out; an unused one from an earlier position is refused.
        assert stale is not None
        await fake.wait_for(lambda: fake.messages[stale[0].id].find_component(stale[1]).get("disabled"),
                            timeout=WAIT, what="the used button greyed out")
        before = await last_seq(db)
        old = next((m, c["custom_id"]) for m in table.public() for c in _buttons(m)
                   if not c.get("disabled") and int(c["custom_id"].split(":")[2]) < before
                   and c["custom_id"].split(":")[3] not in ("join", "start"))
        refused = await table.click(table.users[table.state().acting_players()[0].name], *old)
        assert refused.ephemeral and "earlier position" in refused.content
        assert await last_seq(db) == before

        exported = await table.slash(table.users["bob"], "game", "export")
        (attachment,) = exported.attachments
        document = json.loads(attachment.data)
        assert document["title"] == "18Texas" and len(document["actions"]) == before
        assert {a["type"] for a in document["actions"]} >= {"bid", "par", "buy_shares", "lay_tile", "place_token",
                                                             "run_routes", "dividend"}


async def test_undo_by_slash_command(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table = Table(fake_discord)
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table.bot = bot
        created = await (await fake_discord.invoke_slash(table.users["alice"], "game", "new",
                                                         options={"title": "18Texas", "seed": 6})).wait_message()
        assert not created.ephemeral
        (table.thread,) = fake_discord.threads(fake_discord.channel)
        for name in ("bob", "carol"):
            await table.slash(table.users[name], "game", "join")
        await table.slash(table.users["alice"], "game", "start")
        name, command = opening_command(table.state())
        await table.slash(table.users[name], command.name, **command.options)
        other = next(n for n in ("bob", "carol") if n != name)
        refused = await table.slash(table.users[other], "game", "undo")
        assert refused.ephemeral and "only your own last move" in refused.content
        undone = await table.slash(table.users[name], "game", "undo")
        assert not undone.ephemeral and "Undone:" in undone.content
        assert table.state().acting_players()[0].name == name


async def test_reminder_fires_once_and_not_again_after_a_restart(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)

    def reminders() -> list[StoredMessage]:
        return [m for m in table.public() if m.content.startswith("Reminder: ")]

    async with stationmaster(fake, db, hours_ago=0.25, images=False) as bot:
        table.bot = bot
        await (await fake.invoke_slash(table.users["alice"], "game", "new",
                                       options={"title": "18Texas", "seed": 6})).wait_message()
        (table.thread,) = fake.threads(fake.channel)
        for name in ("bob", "carol"):
            await table.slash(table.users[name], "game", "join")
        await table.slash(table.users["alice"], "game", "start")
        waiting = table.users[table.state().acting_players()[0].name]
        shown = await table.slash(table.users["bob"], "game", "settings", first_after_hours=0.25)
        assert shown.ephemeral and "creator" in shown.content
        assert not reminders()
        changed = await table.slash(table.users["alice"], "game", "settings", first_after_hours=0.25,
                                    repeat_hours=1.0)
        assert "first after 0.25 h, then every 1 h" in changed.content
        (reminder,) = await fake.wait_for(reminders, timeout=10, what="a reminder")
        assert waiting.mention in reminder.content and "bid on a private company" in reminder.content
        assert pinged(reminder) == [waiting.id]

    async with stationmaster(fake, db, hours_ago=0.25, images=False) as bot:
        table.bot = bot
        await asyncio.sleep(3)  # a rebuilt schedule that forgot the ping would have fired by now
        assert len(reminders()) == 1
        (state,) = await bot.moderator.repo.list_reminder_states(1)
        assert state.ping_count == 1
        due = (await bot.moderator.repo.list_reminder_dues())[1]
        assert bot.reminders.running and due >= state.last_ping_at + 3600 - 1


@pytest.mark.parametrize("word", [*MOVES, "game"])
async def test_commands_match_the_shared_vocabulary(fake_discord: FakeDiscord, tmp_path: Path, word: str) -> None:
    from bot.vocabulary import ALL

    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False):
        synced = fake_discord.commands.find(word, fake_discord.guild.id)
    if word == "game":
        subcommands = {o["name"]: o for o in synced["options"]}
        assert set(subcommands) == {name.split()[1] for name in ALL if name.startswith("game ")}
        for sub, definition in subcommands.items():
            assert [o["name"] for o in definition.get("options", [])] == [o.name for o in ALL[f"game {sub}"].options]
    else:
        assert [o["name"] for o in synced.get("options", [])] == [o.name for o in ALL[word].options]


async def test_a_train_offer_is_accepted_by_the_sellers_button(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    """Rule 12.6 consent: SAA (alice) asks for T&P's 2-0 (carol's); only carol's click on the
    offer's Accept buys it, and a click on the answered offer is refused."""
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    users = {name.title(): user.id for name, user in table.users.items()}
    async with await SqliteGameRepository.open(db) as repo:
        game_id = await stored_game(repo, "consent", thread_id=fake.channel.id, users=users)
    table.thread = fake.channel
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        seq = await last_seq(db)
        offer = await table.slash(table.users["alice"], "train", train="2-0")
        carol = table.users["carol"]
        assert not offer.ephemeral and offer.content.startswith(f"{carol.mention} — SAA asks to buy your 2-train")
        assert pinged(offer) == [carol.id]
        accept = f"sm:{game_id}:{seq}:accept"
        assert offer.custom_ids() == [accept, f"sm:{game_id}:{seq}:decline"]
        refused = await table.click(table.users["bob"], offer, accept)
        assert refused.ephemeral and "Only Carol" in refused.content
        assert await last_seq(db) == seq
        bought = await table.click(carol, offer, accept)
        assert not bought.ephemeral and "carol accepts.\nSAA buys a 2-train from T&P for $100" in bought.content
        assert await last_seq(db) == seq + 1
        # The answered offer's buttons are greyed out (issue 9: old buttons are disabled once used).
        await fake.wait_for(lambda: all(fake.messages[offer.id].find_component(c).get("disabled")
                                        for c in (accept, f"sm:{game_id}:{seq}:decline")),
                            timeout=WAIT, what="the offer's buttons greyed out")
        assert await last_seq(db) == seq + 1

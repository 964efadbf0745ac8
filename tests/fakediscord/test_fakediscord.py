"""Proof that the real discord.py client works against fakediscord, end to end.

A tiny bot (a real commands.Bot with an app_commands tree) connects over websocket + HTTP;
the tests act as Discord users and check what the bot really sent.
"""

from __future__ import annotations

import asyncio
import io
import json
import zlib

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import FakeDiscord, FakeDiscordTimeout, running_bot
from fakediscord.commands import CommandNotSynced
from fakediscord.interactions import CannotInvoke

TITLES = ["18Texas", "18USA", "1830", "1889"]


class VoteView(discord.ui.View):
    def __init__(self, owner_id: int) -> None:
        super().__init__(timeout=60)
        self.owner_id = owner_id

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner_id:
            await interaction.response.send_message("Not your vote.", ephemeral=True)
            return False
        return True

    @discord.ui.button(label="Yes", custom_id="vote:yes", style=discord.ButtonStyle.success)
    async def yes(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content="You voted yes.", view=None)


def render_png(text: str) -> bytes:
    image = Image.new("RGB", (64, 32), "white")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class TinyBot(commands.Bot):
    """Registers its commands on the instance tree, then syncs them to the test guild."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.test_guild = discord.Object(id=guild_id)
        self.unknown_route_error: discord.HTTPException | None = None

    async def setup_hook(self) -> None:
        tree = self.tree

        @tree.command(description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

        game = app_commands.Group(name="game", description="Games")
        admin = app_commands.Group(name="admin", description="Moderation", parent=game)

        @game.command(name="new", description="Start a game")
        @app_commands.describe(title="Which 18xx title")
        async def game_new(interaction: discord.Interaction, title: str, players: int = 4) -> None:
            await interaction.response.send_message(f"New {title} game for {players} players")

        @game_new.autocomplete("title")
        async def title_autocomplete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=t, value=t) for t in TITLES if current.lower() in t.lower()]

        @admin.command(name="kick", description="Remove a player")
        async def admin_kick(interaction: discord.Interaction, player: discord.Member) -> None:
            await interaction.response.send_message(
                f"{player.mention} removed by {interaction.user.display_name}",
                allowed_mentions=discord.AllowedMentions(users=[player], roles=False, everyone=False),
            )

        tree.add_command(game)

        @tree.command(name="map", description="Show the map")
        async def show_map(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            png = await asyncio.to_thread(render_png, "map")
            await interaction.followup.send("Here is the map", file=discord.File(io.BytesIO(png), filename="map.png"))

        @tree.command(description="Vote on something")
        async def vote(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Vote now", view=VoteView(interaction.user.id))

        @tree.command(description="Open a game thread")
        async def thread(interaction: discord.Interaction, name: str) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            created = await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread)
            await created.send(f"Welcome to {name}")
            await interaction.response.send_message(f"Opened {created.mention}", ephemeral=True)

        @tree.command(description="Call a route the fake lacks")
        async def broken(interaction: discord.Interaction) -> None:
            try:
                await self.fetch_guild(interaction.guild_id or 0)
            except discord.HTTPException as exc:
                self.unknown_route_error = exc
            await interaction.response.send_message("done")

        # Develop-time pattern from DISCORD-NOTES: the guild gets the commands, global stays empty.
        tree.copy_global_to(guild=self.test_guild)
        await tree.sync(guild=self.test_guild)
        tree.clear_commands(guild=None)
        await tree.sync()


@pytest.fixture
def alice(fake_discord: FakeDiscord):
    return fake_discord.add_user("alice")


async def test_ping_round_trip_over_zlib_gateway(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)) as bot:
        handle = await fake_discord.invoke_slash(alice, "ping")
        message = await handle.wait_message()
        assert message.content == "pong"
        assert not message.ephemeral
        assert message.author.id == fake_discord.bot_user.id
        assert fake_discord.messages_in(fake_discord.channel) == [message]
        assert handle.record.callback is not None and handle.record.callback.type == 4
        # The client really parsed our READY/GUILD_CREATE: its cache knows the guild and channel.
        guild = bot.get_guild(fake_discord.guild.id)
        assert guild is not None and guild.get_channel(fake_discord.channel.id) is not None
        assert fake_discord.gateway.compressions == ["zlib-stream"]


async def test_commands_are_synced_to_the_guild(fake_discord: FakeDiscord) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        names = sorted(fake_discord.commands.names(fake_discord.guild.id))
        assert names == ["broken", "game", "map", "ping", "thread", "vote"]
        assert fake_discord.commands.names(None) == []
        game = fake_discord.commands.find("game", fake_discord.guild.id)
        new = next(o for o in game["options"] if o["name"] == "new")
        title = next(o for o in new["options"] if o["name"] == "title")
        assert title["autocomplete"] is True and title["description"] == "Which 18xx title"


async def test_slash_options_and_autocomplete(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        auto = await fake_discord.autocomplete(alice, "game", "new", focused="title", value="te")
        choices = await auto.wait_choices()
        assert choices == [{"name": "18Texas", "value": "18Texas"}]
        everything = await fake_discord.autocomplete(alice, "game", "new", focused="title", value="")
        assert [c["value"] for c in await everything.wait_choices()] == TITLES

        handle = await fake_discord.invoke_slash(alice, "game", "new", options={"title": "18USA", "players": 3})
        assert (await handle.wait_message()).content == "New 18USA game for 3 players"

        with pytest.raises(CommandNotSynced):
            await fake_discord.invoke_slash(alice, "nosuchcommand")
        with pytest.raises(ValueError):
            await fake_discord.invoke_slash(alice, "game", "new", options={"players": 3})


async def test_subcommand_group_with_resolved_member(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        bob = fake_discord.add_user("bob")  # joins after connect: sent as GUILD_MEMBER_ADD
        handle = await fake_discord.invoke_slash(alice, "game", "admin", "kick", options={"player": bob})
        message = await handle.wait_message()
        assert message.content == f"{bob.mention} removed by alice"
        assert message.mentions() == [bob.id]
        assert message.allowed_mentions is not None
        assert [int(u) for u in message.allowed_mentions["users"]] == [bob.id]


async def test_defer_then_followup_with_png(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        handle = await fake_discord.invoke_slash(alice, "map")
        callback = await handle.wait_response()
        assert callback.type == 5 and callback.ephemeral
        followups = await handle.wait_followups(1)
        message = followups[0]
        assert message.content == "Here is the map"
        assert message.ephemeral, "ephemeral is fixed at defer time"
        assert not message.loading
        assert message is await handle.wait_message()
        (attachment,) = message.attachments
        assert attachment.filename == "map.png"
        assert attachment.data.startswith(b"\x89PNG\r\n\x1a\n")
        assert Image.open(io.BytesIO(attachment.data)).size == (64, 32)
        # The attachment URL is served back by the fake, like Discord's CDN.
        async with aiohttp.ClientSession() as http, http.get(attachment.url) as resp:
            assert await resp.read() == attachment.data


async def test_button_click_is_answered_and_checked(fake_discord: FakeDiscord, alice) -> None:
    mallory = fake_discord.add_user("mallory")
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        vote = await fake_discord.invoke_slash(alice, "vote")
        message = await vote.wait_message()
        assert message.custom_ids() == ["vote:yes"]

        intruder = await fake_discord.click(mallory, message, "vote:yes")
        refusal = await intruder.wait_message()
        assert refusal.content == "Not your vote." and refusal.ephemeral

        click = await fake_discord.click(alice, message, "vote:yes")
        assert (await click.wait_response()).type == 7
        assert message.content == "You voted yes."
        assert message.components == []


async def test_thread_created_and_used(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)) as bot:
        handle = await fake_discord.invoke_slash(alice, "thread", options={"name": "Game 7"})
        reply = await handle.wait_message()
        (thread,) = fake_discord.threads(fake_discord.channel)
        assert thread.name == "Game 7" and reply.content == f"Opened {thread.mention}" and reply.ephemeral
        (welcome,) = fake_discord.messages_in(thread)
        assert welcome.content == "Welcome to Game 7"
        # THREAD_CREATE reached the client: the thread is in its cache.
        assert isinstance(bot.get_channel(thread.id), discord.Thread)


async def test_bot_restart_keeps_answering(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        first = await fake_discord.invoke_slash(alice, "ping")
        assert (await first.wait_message()).content == "pong"
    assert fake_discord.gateway.newest_session() is None, "no bot is connected any more"
    fake_discord.session_wait = 0.1
    with pytest.raises(FakeDiscordTimeout):
        await fake_discord.invoke_slash(alice, "ping")

    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        second = await fake_discord.invoke_slash(alice, "ping")
        assert (await second.wait_message()).content == "pong"
    assert fake_discord.gateway.identifies == 2
    assert len(fake_discord.commands.sync_log) == 4  # global + guild sync, twice


async def test_gateway_reconnect_resumes_session(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)):
        await fake_discord.request_reconnect()
        await fake_discord.wait_for(lambda: fake_discord.gateway.resumes == 1, what="a RESUME")
        handle = await fake_discord.invoke_slash(alice, "ping")
        assert (await handle.wait_message()).content == "pong"
        assert fake_discord.gateway.identifies == 1


async def test_unknown_route_is_reported(fake_discord: FakeDiscord, alice) -> None:
    async with running_bot(fake_discord, TinyBot(fake_discord.guild.id)) as bot:
        handle = await fake_discord.invoke_slash(alice, "broken")
        await handle.wait_message()
        assert isinstance(bot.unknown_route_error, discord.NotFound)
        assert fake_discord.unknown_routes == [f"GET /api/v10/guilds/{fake_discord.guild.id}"]
        fake_discord.unknown_routes.clear()  # expected here; the fixture fails on leftovers


async def test_default_member_permissions_hide_commands(fake_discord: FakeDiscord, alice) -> None:
    fake_discord.commands.overwrite(
        fake_discord.guild.id, [{"name": "purge", "description": "x", "default_member_permissions": "8"}]
    )
    with pytest.raises(CannotInvoke):
        await fake_discord.invoke_slash(alice, "purge")


async def _raw_gateway(fake: FakeDiscord, query: str) -> list[dict]:
    """Speak the gateway protocol by hand (no discord.py) and return the frames received."""
    frames: list[dict] = []
    inflate = zlib.decompressobj()
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.ws_url + query) as ws:
        async for msg in ws:
            if msg.type == aiohttp.WSMsgType.BINARY:
                assert msg.data.endswith(b"\x00\x00\xff\xff")
                frame = json.loads(inflate.decompress(msg.data))
            elif msg.type == aiohttp.WSMsgType.TEXT:
                frame = json.loads(msg.data)
            else:
                continue
            frames.append(frame)
            if frame["op"] == 10:
                await ws.send_json({"op": 1, "d": None})
                await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 0, "properties": {}}})
            if frame.get("t") == "GUILD_CREATE":
                break
        else:  # the server closed the socket (aiohttp swallows the CLOSE frame itself)
            frames.append({"closed": ws.close_code})
    return frames


@pytest.mark.parametrize("query", ["?v=10&encoding=json", "?v=10&encoding=json&compress=zlib-stream"])
async def test_raw_gateway_handshake(fake_discord: FakeDiscord, query: str) -> None:
    frames = await _raw_gateway(fake_discord, query)
    assert [f["op"] for f in frames] == [10, 11, 0, 0]
    ready, guild_create = frames[2], frames[3]
    assert ready["t"] == "READY" and ready["s"] == 1
    assert ready["d"]["user"]["bot"] is True
    assert ready["d"]["resume_gateway_url"] == fake_discord.ws_url
    assert guild_create["d"]["id"] == str(fake_discord.guild.id) and guild_create["s"] == 2
    assert any(c["type"] == 0 for c in guild_create["d"]["channels"])


async def test_zstd_is_refused_loudly(fake_discord: FakeDiscord) -> None:
    with fake_discord.expecting_errors() as refused:
        frames = await _raw_gateway(fake_discord, "?v=10&encoding=json&compress=zstd-stream")
    assert frames == [{"closed": 4012}]
    assert len(refused) == 1 and "zstd-stream" in refused[0]

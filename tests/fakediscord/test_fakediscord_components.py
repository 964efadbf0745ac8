"""More fakediscord proofs: persistent buttons across a restart, selects, modals, edits of
the original response, and files sent with ``channel.send`` (multipart on /channels)."""

from __future__ import annotations

import io
import re

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from fakediscord import FakeDiscord, running_bot


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"g:(?P<game>\d+):join"):
    """Persistent: the custom_id carries the game, so a restarted bot can still answer it."""

    def __init__(self, game: int) -> None:
        super().__init__(discord.ui.Button(label="Join", custom_id=f"g:{game}:join"))
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{interaction.user.name} joined game {self.game}")


class PickView(discord.ui.View):
    @discord.ui.select(custom_id="pick:title", options=[discord.SelectOption(label=t) for t in ("18Texas", "18USA")])
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class Feedback(discord.ui.Modal, title="Feedback"):
    text = discord.ui.TextInput(label="Your feedback", custom_id="feedback:text")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks: {self.text.value}", ephemeral=True)


def tiny_png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="PNG")
    return buffer.getvalue()


class ComponentBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.test_guild = discord.Object(id=guild_id)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        guild = self.test_guild

        @self.tree.command(description="Post a join button", guild=guild)
        async def table(interaction: discord.Interaction, game: int) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(JoinButton(game))
            await interaction.response.send_message(f"Game {game} is open", view=view)

        @self.tree.command(description="Pick a title", guild=guild)
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("Pick one", view=PickView())

        @self.tree.command(description="Give feedback", guild=guild)
        async def feedback(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Feedback())

        @self.tree.command(description="Slow answer edited in place", guild=guild)
        async def slow(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.edit_original_response(content="slow answer")

        @self.tree.command(description="Post the map to the channel", guild=guild)
        @app_commands.describe(caption="Text above the map")
        async def post(interaction: discord.Interaction, caption: str) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            embed = discord.Embed(title=caption).set_image(url="attachment://map.png")
            await interaction.channel.send(embed=embed, file=discord.File(io.BytesIO(tiny_png()), "map.png"))
            await interaction.response.send_message("posted", ephemeral=True)

        await self.tree.sync(guild=guild)


async def test_persistent_button_survives_restart(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    async with running_bot(fake_discord, ComponentBot(fake_discord.guild.id)):
        message = await (await fake_discord.invoke_slash(alice, "table", options={"game": 7})).wait_message()
        assert message.custom_ids() == ["g:7:join"]

    async with running_bot(fake_discord, ComponentBot(fake_discord.guild.id)):
        click = await fake_discord.click(alice, message, "g:7:join")
        answer = await click.wait_message()
        assert answer.content == "alice joined game 7"
        assert answer.channel_id == fake_discord.channel.id


async def test_select_and_modal(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    async with running_bot(fake_discord, ComponentBot(fake_discord.guild.id)):
        menu = await (await fake_discord.invoke_slash(alice, "pick")).wait_message()
        chosen = await fake_discord.click(alice, menu, "pick:title", values=["18USA"])
        reply = await chosen.wait_message()
        assert reply.content == "picked 18USA" and reply.ephemeral

        opened = await fake_discord.invoke_slash(alice, "feedback")
        modal = await opened.wait_modal()
        assert modal["title"] == "Feedback"
        submitted = await fake_discord.submit_modal(alice, opened, {"feedback:text": "great map"})
        thanks = await submitted.wait_message()
        assert thanks.content == "thanks: great map" and thanks.ephemeral


async def test_edit_original_after_defer(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    async with running_bot(fake_discord, ComponentBot(fake_discord.guild.id)):
        handle = await fake_discord.invoke_slash(alice, "slow")
        answer = await handle.wait_message()
        assert answer.content == "slow answer"
        assert not answer.ephemeral and not answer.loading
        assert [e["content"] for e in handle.record.edits] == ["slow answer"]
        assert handle.record.followups == []


async def test_channel_send_with_file_and_embed(fake_discord: FakeDiscord) -> None:
    alice = fake_discord.add_user("alice")
    async with running_bot(fake_discord, ComponentBot(fake_discord.guild.id)) as bot:
        handle = await fake_discord.invoke_slash(alice, "post", options={"caption": "Turn 3"})
        await handle.wait_message()
        posted = await fake_discord.wait_for_message(fake_discord.channel, lambda m: bool(m.attachments))
        assert posted.embeds[0]["title"] == "Turn 3"
        assert posted.embeds[0]["image"]["url"] == "attachment://map.png"
        assert posted.attachments[0].data == tiny_png()
        assert not posted.ephemeral and posted.interaction_id is None
        # MESSAGE_CREATE reached the client cache.
        await fake_discord.wait_for(
            lambda: discord.utils.get(bot.cached_messages, id=posted.id), what="the message in the bot cache"
        )

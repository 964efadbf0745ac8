"""The Discord bot: cogs, buttons, command sync, reminders, and the way moves are answered.

It is an ``AutoShardedBot``: one process runs every shard (Discord's recommended number, or
``shard_count``), or only the ``shard_ids`` of the config while other processes on the same
database run the others. Discord delivers a guild's interactions to the shard
``(guild_id >> 22) % shard_count`` only, so each guild's games are served by the process
holding that shard, and its reminders are sent by that process too.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import discord
from discord.ext import commands

from bot.commands import clicked
from bot.config import Settings
from bot.discord.auto_cog import AutoCog
from bot.discord.buttons import MoveButton
from bot.discord.game_cog import GameCog
from bot.discord.moves import move_commands
from bot.discord.respond import (
    actor_of,
    answer,
    answer_move,
    message_kwargs,
    refuse,
    report_failure,
)
from bot.follower import ChangeFollower
from bot.model import Command, Reply
from bot.moderator import Moderator
from bot.reminders import ReminderService
from bot.store_trouble import log_failure
from storage import open_repository

log = logging.getLogger(__name__)


async def disable_buttons(message: discord.Message | None) -> None:
    """Grey out a message's buttons once one of them was used: that position is gone."""
    if message is None or not message.components:
        return
    view = discord.ui.View(timeout=None)
    for row in message.components:
        for item in getattr(row, "children", []):
            if isinstance(item, discord.Button) and item.custom_id is not None:
                view.add_item(discord.ui.Button(label=item.label, style=item.style, custom_id=item.custom_id,
                                                disabled=True))
    try:
        await message.edit(view=view)
    except discord.HTTPException:
        log.warning("could not disable the buttons of message %s", message.id)

class StationmasterBot(commands.AutoShardedBot):
    def __init__(self, settings: Settings, moderator: Moderator, *, reminder_poll_seconds: float = 30.0,
                 reminder_lease_seconds: int = 60, **options: object) -> None:
        if settings.shard_count is not None:
            options.setdefault("shard_count", settings.shard_count)
            if settings.shard_ids is not None:
                options.setdefault("shard_ids", list(settings.shard_ids))
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),  # slash commands need no privileged intent
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            help_command=None,
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.moderator = moderator
        self.reminders = ReminderService(moderator, self.send_reminder, shards=settings.shards,
                                         poll_seconds=reminder_poll_seconds, lease_seconds=reminder_lease_seconds)
        moderator.listeners.append(self.reminders.schedule)
        moderator.announce = self.post
        self.follower = ChangeFollower(moderator.repo, moderator.sessions)
        self.tree.error(self.on_command_failure)

    async def on_command_failure(self, interaction: discord.Interaction,
                                 error: discord.app_commands.AppCommandError) -> None:
        """A command raised: log it and answer the user, who would otherwise wait forever."""
        cause = getattr(error, "original", error)  # CommandInvokeError wraps what the command raised
        log_failure(log, f"command {getattr(interaction.command, 'qualified_name', '?')} failed", cause)
        if interaction.type is discord.InteractionType.application_command:
            await report_failure(interaction, cause)

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self))
        await self.add_cog(AutoCog(self))
        for command in move_commands(self):
            self.tree.add_command(command)
        self.add_dynamic_items(MoveButton)  # persistent: buttons keep working after a restart
        if self.syncs_commands:
            await self.sync_commands()
        await self.reminders.start()
        self.follower.start()

    @property
    def syncs_commands(self) -> bool:
        """One process registers the commands for all: the one running shard 0 (or the only one)."""
        ids = self.settings.shard_ids
        return ids is None or 0 in ids

    async def sync_commands(self) -> None:
        """To the configured guilds at once (development), else globally (can take an hour)."""
        if self.settings.guild_ids:
            for guild_id in self.settings.guild_ids:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.tree.sync(guild=guild)
            self.tree.clear_commands(guild=None)
        await self.tree.sync()

    async def close(self) -> None:
        await self.moderator.follow_ups.close()
        await self.reminders.stop()
        await self.follower.stop()
        await super().close()

    # --- helpers for the cogs --------------------------------------------------------------------
    async def game_here(self, interaction: discord.Interaction) -> int | None:
        """The game played in this thread."""
        if interaction.channel_id is None:
            return None
        record = await self.moderator.repo.find_game_by_thread(interaction.channel_id)
        return None if record is None else record.id

    async def move(self, interaction: discord.Interaction, command: Command) -> None:
        game_id = await self.game_here(interaction)
        if game_id is None:
            await refuse(interaction, "Use this in a game's thread (create one with /game new).")
            return
        command = replace(command, sent_at=interaction.created_at.timestamp())
        await answer_move(interaction, self.moderator, self.moderator.act(game_id, actor_of(interaction), command))

    async def click(self, interaction: discord.Interaction, game_id: int, seq: int, verb: str) -> None:
        actor = actor_of(interaction)
        if verb == "join":
            if (await answer(interaction, self.moderator.join(game_id, actor))).ok:
                await self.add_to_thread(interaction)
            return
        if verb == "start":
            reply = await answer_move(interaction, self.moderator, self.moderator.start(game_id, actor))
        elif verb == "abandon":  # the answer to "Abandon game #N?"
            reply = await answer(interaction, self.moderator.set_game_status(game_id, actor, "abandoned",
                                                                             confirmed=True))
        elif verb in ("accept", "decline"):  # a train offer (rule 12.6): the seq refuses a stale one
            answer_offer = self.moderator.accept if verb == "accept" else self.moderator.decline
            reply = await answer_move(interaction, self.moderator, answer_offer(game_id, actor, expected_seq=seq))
        else:
            command = clicked(verb)
            if command is None:
                await refuse(interaction, "This button is not known to this version of the bot.")
                return
            reply = await answer_move(interaction, self.moderator,
                                      self.moderator.act(game_id, actor, command, expected_seq=seq))
        if reply.ok and not reply.private:
            await disable_buttons(interaction.message)

    async def add_to_thread(self, interaction: discord.Interaction) -> None:
        """A player who joined follows the game's thread (its pings and pictures)."""
        if isinstance(interaction.channel, discord.Thread):
            try:
                await interaction.channel.add_user(interaction.user)
            except discord.HTTPException:
                log.warning("could not add %s to thread %s", interaction.user.id, interaction.channel.id)

    async def post(self, reply: Reply) -> None:
        """A reply nobody's command waits for (a follow-up search's answer), in its game's thread."""
        if reply.game_id is None:
            return
        record = await self.moderator.repo.get_game(reply.game_id)
        if record.thread_id is None:
            return
        channel = self.get_channel(record.thread_id) or await self.fetch_channel(record.thread_id)
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(**message_kwargs(reply))

    async def send_reminder(self, game_id: int, text: str, users: tuple[int, ...], nonce: str) -> None:
        record = await self.moderator.repo.get_game(game_id)
        if record.thread_id is None:
            return
        channel = self.get_channel(record.thread_id) or await self.fetch_channel(record.thread_id)
        if isinstance(channel, discord.abc.Messageable):
            mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users], roles=False, everyone=False)
            # discord.py asks Discord to enforce the nonce: a second send of this reminder
            # (by a process that took it over) returns the first message instead of posting.
            await channel.send(text, allowed_mentions=mentions, nonce=nonce)


async def run_discord(settings: Settings, **bot_options: Any) -> None:
    """Open the store, build the Moderator and run the bot until it is stopped
    (``bot_options``: keyword arguments of StationmasterBot, such as the reminder timings)."""
    repo = await open_repository(settings.store_url)
    try:
        moderator = Moderator(repo, images=settings.images, router_budget=settings.router_budget,
                              reminders=settings.reminders, follow_up_seconds=settings.router_follow_up)
        bot = StationmasterBot(settings, moderator, **bot_options)
        async with bot:
            await bot.start(settings.token or "")
    finally:
        await repo.close()

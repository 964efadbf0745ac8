"""`/game ...`: create, join and start games; look at them; undo; admin (replace, pause,
abandon, settings); export and import."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.attachments import read_attachment
from bot.discord.autocomplete import (
    chart_kinds,
    map_places,
    moments,
    private_companies,
    seats,
    titles,
)
from bot.discord.respond import (
    actor_of,
    answer,
    answer_move,
    clip,
    game_in_thread,
    message_kwargs,
    refuse,
)
from bot.dispatch import abandon_confirmed
from bot.route_search import DEFAULT_SECONDS
from bot.vocabulary import described, option_described
from render.closeup import DEFAULT_RADIUS, RADII
from storage.limits import MAX_IMPORT_BYTES
from untrusted.files import FileRefused

if TYPE_CHECKING:
    from bot.discord.client import StationmasterBot


def _d(word: str) -> str:
    return described(f"game {word}")


def _o(word: str, option: str) -> str:
    return option_described(f"game {word}", option)


class GameCog(commands.GroupCog, group_name="game", group_description="Create, join, watch and manage 18xx games"):
    def __init__(self, bot: StationmasterBot) -> None:
        self.bot = bot
        super().__init__()

    async def _game(self, interaction: discord.Interaction) -> int | None:
        return await game_in_thread(self.bot, interaction)

    @app_commands.command(name="new", description=_d("new"))
    @app_commands.describe(title=_o("new", "title"), name=_o("new", "name"), seed=_o("new", "seed"),
                           site_rules=_o("new", "site_rules"), join=_o("new", "join"))
    @app_commands.autocomplete(title=titles)
    async def new(self, interaction: discord.Interaction, title: str, name: str | None = None,
                  seed: int | None = None, site_rules: bool = False, join: bool = True) -> None:
        channel = interaction.channel
        if isinstance(channel, discord.Thread):
            channel = channel.parent
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "Create games in a server's text channel: each game gets a thread there.")
            return
        reply = await self.bot.moderator.create_game(actor_of(interaction), title, seed=seed, site_rules=site_rules,
                                                     join=join, guild_id=interaction.guild_id, channel_id=channel.id)
        if not reply.ok or reply.game_id is None:
            await refuse(interaction, reply.text)
            return
        await interaction.response.defer(thinking=True)
        label = f"{title} #{reply.game_id}" + (f" — {name}" if name else "")
        thread = await channel.create_thread(name=label[:100], type=discord.ChannelType.public_thread,
                                             auto_archive_duration=10080)
        await self.bot.moderator.set_location(reply.game_id, guild_id=interaction.guild_id,
                                              channel_id=channel.id, thread_id=thread.id)
        await thread.send(**message_kwargs(reply))
        await interaction.followup.send(f"{title} game #{reply.game_id} is open in {thread.mention}: "
                                        "join it there with /game join.")

    @app_commands.command(name="join", description=_d("join"))
    async def join(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            if (await answer(interaction, self.bot.moderator.join(game_id, actor_of(interaction)))).ok:
                await self.bot.add_to_thread(interaction)

    @app_commands.command(name="start", description=_d("start"))
    async def start(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            moderator = self.bot.moderator
            await answer_move(interaction, moderator, moderator.start(game_id, actor_of(interaction)))

    @app_commands.command(name="status", description=_d("status"))
    async def status(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.status(game_id))

    @app_commands.command(name="map", description=_d("map"))
    @app_commands.describe(around=_o("map", "around"), radius=_o("map", "radius"), at=_o("map", "at"))
    @app_commands.autocomplete(around=map_places, at=moments)
    async def map(self, interaction: discord.Interaction, around: str | None = None,
                  radius: app_commands.Range[int, RADII.start, RADII.stop - 1] = DEFAULT_RADIUS,
                  at: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is not None:
            if at is not None:
                await self._at(interaction, game_id, ("map",), at)
                return
            await answer(interaction, self.bot.moderator.pictures(game_id, ("map",), around, radius))

    @app_commands.command(name="market", description=_d("market"))
    @app_commands.describe(at=_o("market", "at"))
    @app_commands.autocomplete(at=moments)
    async def market(self, interaction: discord.Interaction, at: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await self._at(interaction, game_id, ("market",), at)

    @app_commands.command(name="table", description=_d("table"))
    @app_commands.describe(at=_o("table", "at"))
    @app_commands.autocomplete(at=moments)
    async def table(self, interaction: discord.Interaction, at: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await self._at(interaction, game_id, ("table",), at)

    async def _at(self, interaction: discord.Interaction, game_id: int, which: tuple[str, ...],
                  at: str | None) -> None:
        """Pictures now, or at the earlier moment `at` names."""
        moderator = self.bot.moderator
        if at is None:
            await answer(interaction, moderator.pictures(game_id, which))
        else:
            await answer(interaction, moderator.coming_back.pictures_at(game_id, which, at, actor_of(interaction)))

    @app_commands.command(name="since", description=_d("since"))
    async def since(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.coming_back.since(game_id, actor_of(interaction)),
                         private=True)

    @app_commands.command(name="mine", description=_d("mine"))
    async def mine(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, "Use /game mine in a server: it lists your games there.")
            return
        await answer(interaction, self.bot.moderator.coming_back.mine(actor_of(interaction), interaction.guild_id),
                     private=True)

    @app_commands.command(name="chart", description=_d("chart"))
    @app_commands.describe(kind=_o("chart", "kind"))
    @app_commands.autocomplete(kind=chart_kinds)
    async def chart(self, interaction: discord.Interaction, kind: str) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.coming_back.chart(game_id, kind.strip().lower()))

    @app_commands.command(name="privates", description=_d("privates"))
    @app_commands.describe(company=_o("privates", "company"))
    @app_commands.autocomplete(company=private_companies)
    async def privates(self, interaction: discord.Interaction, company: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.privates(game_id, company), private=True)

    @app_commands.command(name="log", description=_d("log"))
    @app_commands.describe(lines=_o("log", "lines"))
    async def log(self, interaction: discord.Interaction, lines: int = 15) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.log_lines(game_id, lines))

    @app_commands.command(name="routes", description=_d("routes"))
    @app_commands.describe(seconds=_o("routes", "seconds"))
    async def routes(self, interaction: discord.Interaction, seconds: float = DEFAULT_SECONDS) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.search_routes(game_id, actor_of(interaction), seconds))

    @app_commands.command(name="undo", description=_d("undo"))
    @app_commands.describe(steps=_o("undo", "steps"))
    async def undo(self, interaction: discord.Interaction, steps: int = 1) -> None:
        if (game_id := await self._game(interaction)) is not None:
            moderator = self.bot.moderator
            await answer_move(interaction, moderator, moderator.undo(game_id, actor_of(interaction), steps))

    @app_commands.command(name="accept", description=_d("accept"))
    async def accept(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            moderator = self.bot.moderator
            await answer_move(interaction, moderator, moderator.accept(game_id, actor_of(interaction)))

    @app_commands.command(name="decline", description=_d("decline"))
    async def decline(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            moderator = self.bot.moderator
            await answer_move(interaction, moderator, moderator.decline(game_id, actor_of(interaction)))

    @app_commands.command(name="export", description=_d("export"))
    async def export(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.export(game_id))

    @app_commands.command(name="import", description=_d("import"))
    @app_commands.describe(file=_o("import", "file"))
    async def import_(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        channel = interaction.channel.parent if isinstance(interaction.channel, discord.Thread) else interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await refuse(interaction, "Import games in a server's text channel: each game gets a thread there.")
            return
        await interaction.response.defer(thinking=True, ephemeral=True)
        try:
            raw = await read_attachment(file, MAX_IMPORT_BYTES, self.bot.http)
        except FileRefused as error:
            await interaction.followup.send(clip(f"Import refused: {error}. Nothing was stored."), ephemeral=True)
            return
        reply = await self.bot.moderator.import_game(actor_of(interaction), raw,
                                                     guild_id=interaction.guild_id, channel_id=channel.id)
        if not reply.ok or reply.game_id is None:
            await interaction.followup.send(clip(reply.text), ephemeral=True)
            return
        thread = await channel.create_thread(name=f"Imported game #{reply.game_id}", auto_archive_duration=10080,
                                             type=discord.ChannelType.public_thread)
        await self.bot.moderator.set_location(reply.game_id, guild_id=interaction.guild_id,
                                              channel_id=channel.id, thread_id=thread.id)
        await thread.send(**message_kwargs(reply))
        await interaction.followup.send(f"Imported as game #{reply.game_id} in {thread.mention}.", ephemeral=True)

    @app_commands.command(name="settings", description=_d("settings"))
    @app_commands.describe(first_after_hours=_o("settings", "first_after_hours"),
                           repeat_hours=_o("settings", "repeat_hours"), quiet_start=_o("settings", "quiet_start"),
                           quiet_end=_o("settings", "quiet_end"), time_zone=_o("settings", "time_zone"))
    async def settings(self, interaction: discord.Interaction, first_after_hours: float | None = None,
                       repeat_hours: float | None = None, quiet_start: int | None = None,
                       quiet_end: int | None = None, time_zone: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is not None:
            changes = {"first_after_hours": first_after_hours, "repeat_hours": repeat_hours,
                       "quiet_start": quiet_start, "quiet_end": quiet_end, "time_zone": time_zone}
            await answer(interaction, self.bot.moderator.settings(game_id, actor_of(interaction), changes))

    @app_commands.command(name="replace", description=_d("replace"))
    @app_commands.describe(seat=_o("replace", "seat"), user=_o("replace", "user"))
    @app_commands.autocomplete(seat=seats)
    async def replace(self, interaction: discord.Interaction, seat: str, user: discord.Member) -> None:
        if (game_id := await self._game(interaction)) is not None:
            work = self.bot.moderator.replace(game_id, actor_of(interaction), seat, user.id, user.display_name)
            await answer(interaction, work)

    @app_commands.command(name="pause", description=_d("pause"))
    async def pause(self, interaction: discord.Interaction) -> None:
        await self._status(interaction, "paused")

    @app_commands.command(name="resume", description=_d("resume"))
    async def resume(self, interaction: discord.Interaction) -> None:
        await self._status(interaction, "active")

    @app_commands.command(name="end", description=_d("end"))
    async def end(self, interaction: discord.Interaction) -> None:
        if (game_id := await self._game(interaction)) is not None:
            moderator = self.bot.moderator
            await answer_move(interaction, moderator, moderator.end_game(game_id, actor_of(interaction)))

    @app_commands.command(name="abandon", description=_d("abandon"))
    @app_commands.describe(confirm=_o("abandon", "confirm"))
    async def abandon(self, interaction: discord.Interaction, confirm: str | None = None) -> None:
        if (game_id := await self._game(interaction)) is None:
            return
        confirmed = abandon_confirmed(confirm)
        if isinstance(confirmed, str):
            await refuse(interaction, confirmed)
            return
        await answer(interaction, self.bot.moderator.set_game_status(game_id, actor_of(interaction), "abandoned",
                                                                     confirmed=confirmed))

    async def _status(self, interaction: discord.Interaction, status: str) -> None:
        if (game_id := await self._game(interaction)) is not None:
            await answer(interaction, self.bot.moderator.set_game_status(game_id, actor_of(interaction), status))

"""`/auto ...`: standing orders (the words of bot.vocabulary.AUTO; the terminal's `/auto` alone
is `/auto show` here, Discord having no bare group command)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.autocomplete import started_companies
from bot.discord.respond import actor_of, answer, answer_move, game_in_thread
from bot.model import Command
from bot.vocabulary import described, option_described

if TYPE_CHECKING:
    from bot.discord.client import StationmasterBot


def _d(word: str) -> str:
    return described(f"auto {word}")


def _o(word: str, option: str) -> str:
    return option_described(f"auto {word}", option)


class AutoCog(commands.GroupCog, group_name="auto", group_description="Standing orders: moves made for you"):
    def __init__(self, bot: StationmasterBot) -> None:
        self.bot = bot
        super().__init__()

    async def _order(self, interaction: discord.Interaction, word: str, **options: Any) -> None:
        game_id = await game_in_thread(self.bot, interaction)
        if game_id is None:
            return
        given = {key: value for key, value in options.items() if value is not None}
        moderator = self.bot.moderator
        await answer_move(interaction, moderator,
                          moderator.set_standing_order(game_id, actor_of(interaction), Command(f"auto {word}", given)))

    @app_commands.command(name="show", description=_d("show"))
    async def show(self, interaction: discord.Interaction) -> None:
        game_id = await game_in_thread(self.bot, interaction)
        if game_id is None:
            return
        await answer(interaction, self.bot.moderator.standing_order(game_id, actor_of(interaction)), private=True)

    @app_commands.command(name="pass", description=_d("pass"))
    @app_commands.describe(unconditional=_o("pass", "unconditional"), indefinite=_o("pass", "indefinite"))
    async def pass_(self, interaction: discord.Interaction, unconditional: bool | None = None,
                    indefinite: bool | None = None) -> None:
        await self._order(interaction, "pass", unconditional=unconditional, indefinite=indefinite)

    @app_commands.command(name="buy", description=_d("buy"))
    @app_commands.describe(corporation=_o("buy", "corporation"), until=_o("buy", "until"),
                           from_=_o("buy", "from"), then_pass=_o("buy", "then_pass"))
    @app_commands.rename(from_="from")
    @app_commands.autocomplete(corporation=started_companies)
    @app_commands.choices(from_=[app_commands.Choice(name="treasury", value="treasury"),
                                 app_commands.Choice(name="pool (the market)", value="pool")])
    async def buy(self, interaction: discord.Interaction, corporation: str, until: str, from_: str | None = None,
                  then_pass: bool | None = None) -> None:
        await self._order(interaction, "buy", corporation=corporation, until=until, then_pass=then_pass,
                          **{"from": from_})

    @app_commands.command(name="mergers", description=_d("mergers"))
    @app_commands.describe(rounds=_o("mergers", "rounds"), companies=_o("mergers", "companies"),
                           unless_others_act=_o("mergers", "unless_others_act"))
    @app_commands.choices(rounds=[app_commands.Choice(name="merger and acquisition rounds", value="MR,AR"),
                                  app_commands.Choice(name="merger round", value="MR"),
                                  app_commands.Choice(name="acquisition round", value="AR")])
    async def mergers(self, interaction: discord.Interaction, rounds: str | None = None,
                      companies: str | None = None, unless_others_act: bool | None = None) -> None:
        await self._order(interaction, "mergers", rounds=rounds, companies=companies,
                          unless_others_act=unless_others_act)

    @app_commands.command(name="off", description=_d("off"))
    async def off(self, interaction: discord.Interaction) -> None:
        await self._order(interaction, "off")

    @app_commands.command(name="away", description=_d("away"))
    @app_commands.describe(until=_o("away", "until"))
    async def away(self, interaction: discord.Interaction, until: str) -> None:
        await self._order(interaction, "away", until=until)

    @app_commands.command(name="back", description=_d("back"))
    async def back(self, interaction: discord.Interaction) -> None:
        game_id = await game_in_thread(self.bot, interaction)
        if game_id is None:
            return
        await answer(interaction, self.bot.moderator.come_back(game_id, actor_of(interaction)))

"""Operating round commands: /lay /token /run /dividend /train /issue /redeem /discard
/bankrupt, and /action for one raw 18xx.games action."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.autocomplete import completer
from bot.discord.stock_cog import _d, _o
from bot.model import Command

if TYPE_CHECKING:
    from bot.discord.client import StationmasterBot


class OperatingCog(commands.Cog, name="Operating round"):
    def __init__(self, bot: StationmasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="lay", description=_d("lay"))
    @app_commands.rename(hex_="hex")
    @app_commands.describe(hex_=_o("lay", "hex"), tile=_o("lay", "tile"), rotation=_o("lay", "rotation"),
                           private=_o("lay", "private"))
    @app_commands.autocomplete(hex_=completer("lay", "hex"), tile=completer("lay", "tile"),
                               rotation=completer("lay", "rotation"), private=completer("lay", "private"))
    async def lay(self, interaction: discord.Interaction, hex_: str, tile: str, rotation: int,
                  private: str | None = None) -> None:
        options = {"hex": hex_, "tile": tile, "rotation": rotation, "private": private}
        await self.bot.move(interaction, Command("lay", options))

    @app_commands.command(name="token", description=_d("token"))
    @app_commands.describe(city=_o("token", "city"), private=_o("token", "private"))
    @app_commands.autocomplete(city=completer("token", "city"), private=completer("token", "private"))
    async def token(self, interaction: discord.Interaction, city: str, private: str | None = None) -> None:
        await self.bot.move(interaction, Command("token", {"city": city, "private": private}))

    @app_commands.command(name="run", description=_d("run"))
    @app_commands.describe(routes=_o("run", "routes"))
    @app_commands.autocomplete(routes=completer("run", "routes"))
    async def run(self, interaction: discord.Interaction, routes: str | None = None) -> None:
        await self.bot.move(interaction, Command("run", {"routes": routes}))

    @app_commands.command(name="dividend", description=_d("dividend"))
    @app_commands.describe(kind=_o("dividend", "kind"))
    @app_commands.autocomplete(kind=completer("dividend", "kind"))
    async def dividend(self, interaction: discord.Interaction, kind: str) -> None:
        await self.bot.move(interaction, Command("dividend", {"kind": kind}))

    @app_commands.command(name="train", description=_d("train"))
    @app_commands.describe(train=_o("train", "train"), price=_o("train", "price"))
    @app_commands.autocomplete(train=completer("train", "train"))
    async def train(self, interaction: discord.Interaction, train: str, price: int | None = None) -> None:
        await self.bot.move(interaction, Command("train", {"train": train, "price": price}))

    @app_commands.command(name="issue", description=_d("issue"))
    @app_commands.describe(count=_o("issue", "count"))
    @app_commands.autocomplete(count=completer("issue", "count"))
    async def issue(self, interaction: discord.Interaction, count: int) -> None:
        await self.bot.move(interaction, Command("issue", {"count": count}))

    @app_commands.command(name="redeem", description=_d("redeem"))
    @app_commands.describe(count=_o("redeem", "count"))
    @app_commands.autocomplete(count=completer("redeem", "count"))
    async def redeem(self, interaction: discord.Interaction, count: int) -> None:
        await self.bot.move(interaction, Command("redeem", {"count": count}))

    @app_commands.command(name="discard", description=_d("discard"))
    @app_commands.describe(train=_o("discard", "train"))
    @app_commands.autocomplete(train=completer("discard", "train"))
    async def discard(self, interaction: discord.Interaction, train: str) -> None:
        await self.bot.move(interaction, Command("discard", {"train": train}))

    @app_commands.command(name="bankrupt", description=_d("bankrupt"))
    async def bankrupt(self, interaction: discord.Interaction) -> None:
        await self.bot.move(interaction, Command("bankrupt"))

    @app_commands.command(name="action", description=_d("action"))
    @app_commands.describe(json=_o("action", "json"))
    async def action(self, interaction: discord.Interaction, json: str) -> None:
        await self.bot.move(interaction, Command("action", {"json": json}))

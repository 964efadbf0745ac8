"""Auction and stock round commands: /bid /par /buy /sell, and /pass (any decision)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.autocomplete import completer
from bot.model import Command
from bot.vocabulary import MOVES

if TYPE_CHECKING:
    from bot.discord.client import StationmasterBot


def _d(word: str) -> str:
    return MOVES[word].description


def _o(word: str, option: str) -> str:
    spec = MOVES[word].option(option)
    assert spec is not None
    return spec.description


class StockCog(commands.Cog, name="Stock round"):
    def __init__(self, bot: StationmasterBot) -> None:
        self.bot = bot

    @app_commands.command(name="bid", description=_d("bid"))
    @app_commands.describe(company=_o("bid", "company"), price=_o("bid", "price"))
    @app_commands.autocomplete(company=completer("bid", "company"), price=completer("bid", "price"))
    async def bid(self, interaction: discord.Interaction, company: str, price: int) -> None:
        await self.bot.move(interaction, Command("bid", {"company": company, "price": price}))

    @app_commands.command(name="par", description=_d("par"))
    @app_commands.describe(corporation=_o("par", "corporation"), price=_o("par", "price"))
    @app_commands.autocomplete(corporation=completer("par", "corporation"), price=completer("par", "price"))
    async def par(self, interaction: discord.Interaction, corporation: str, price: int) -> None:
        await self.bot.move(interaction, Command("par", {"corporation": corporation, "price": price}))

    @app_commands.command(name="buy", description=_d("buy"))
    @app_commands.rename(source="from")
    @app_commands.describe(corporation=_o("buy", "corporation"), source=_o("buy", "from"))
    @app_commands.autocomplete(corporation=completer("buy", "corporation"), source=completer("buy", "from"))
    async def buy(self, interaction: discord.Interaction, corporation: str, source: str | None = None) -> None:
        await self.bot.move(interaction, Command("buy", {"corporation": corporation, "from": source}))

    @app_commands.command(name="sell", description=_d("sell"))
    @app_commands.describe(corporation=_o("sell", "corporation"), percent=_o("sell", "percent"))
    @app_commands.autocomplete(corporation=completer("sell", "corporation"), percent=completer("sell", "percent"))
    async def sell(self, interaction: discord.Interaction, corporation: str, percent: int | None = None) -> None:
        await self.bot.move(interaction, Command("sell", {"corporation": corporation, "percent": percent}))

    @app_commands.command(name="pass", description=_d("pass"))
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.bot.move(interaction, Command("pass"))

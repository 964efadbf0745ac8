"""Autocomplete callbacks: the Moderator's legal-move choices as Discord choices."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.discord.respond import actor_of
from bot.moderator import Moderator
from bot.vocabulary import CHART_KINDS
from engine.catalog import title_infos

Completer = Callable[[discord.Interaction, str], Awaitable[list[app_commands.Choice[Any]]]]


def completer(word: str, option: str) -> Completer:
    """The autocomplete callback for `option` of `/word`."""

    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[Any]]:
        client: Any = interaction.client
        game_id = await client.game_here(interaction)
        if game_id is None:
            return []
        filled = {key: value for key, value in interaction.namespace if key != option}
        choices = await client.moderator.suggest(game_id, actor_of(interaction), word, option, current, filled)
        return [app_commands.Choice(name=label, value=value) for label, value in choices]

    return complete


async def titles(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=info.label, value=info.name) for info in title_infos()
            if current.lower() in info.name.lower()]


async def seats(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    client: Any = interaction.client
    game_id = await client.game_here(interaction)
    if game_id is None:
        return []
    session = await client.moderator.sessions.get(game_id)
    return [app_commands.Choice(name=f"{s.seat}. {s.display_name}", value=str(s.seat)) for s in session.seats
            if current.lower() in f"{s.seat} {s.display_name}".lower()][:25]


Suggestions = Callable[[Moderator, int, str], Awaitable[list[tuple[str, str]]]]


async def _suggested(interaction: discord.Interaction, current: str,
                     source: Suggestions) -> list[app_commands.Choice[str]]:
    """The Moderator's (label, value) suggestions from `source` for this thread's game."""
    client: Any = interaction.client
    game_id = await client.game_here(interaction)
    if game_id is None:
        return []
    return [app_commands.Choice(name=label, value=value)
            for label, value in await source(client.moderator, game_id, current)]


async def private_companies(interaction: discord.Interaction,
                            current: str) -> list[app_commands.Choice[str]]:
    """The game's private companies, by id or name."""
    return await _suggested(interaction, current, Moderator.company_choices)


async def map_places(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """A close-up's centre: companies with stations and hexes, by what was typed."""
    return await _suggested(interaction, current, Moderator.close_up_choices)


async def started_companies(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """The companies a standing order may buy: those started."""
    return await _suggested(interaction, current, Moderator.order_companies)


async def moments(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """An earlier moment of this thread's game: "my last move" and its rounds, the latest first."""
    client: Any = interaction.client
    game_id = await client.game_here(interaction)
    if game_id is None:
        return []
    return [app_commands.Choice(name=word, value=word)
            for word in await client.moderator.coming_back.moment_choices(game_id, current)]


async def chart_kinds(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{kind}: {words}", value=kind) for kind, words in CHART_KINDS.items()
            if current.lower() in kind]

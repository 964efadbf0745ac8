"""The move commands (/bid, /lay, /run, ... and /action), generated from the command table
(`bot.vocabulary.MOVES`, which the engine's titles declare): one slash command per word, its
options typed, described and autocompleted as the table says."""

from __future__ import annotations

import inspect
import keyword
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.autocomplete import completer
from bot.model import Command
from bot.vocabulary import MOVES, Spec

if TYPE_CHECKING:
    from bot.discord.client import StationmasterBot


def _parameter_name(option: str) -> str:
    """A Python name for an option ("from" is a keyword); Discord still sees the option's name."""
    return option if option.isidentifier() and not keyword.iskeyword(option) else f"{option}_"


def move_command(bot: StationmasterBot, spec: Spec) -> app_commands.Command[Any, ..., None]:
    names = {_parameter_name(option.name): option.name for option in spec.options}

    async def callback(interaction: discord.Interaction, **values: Any) -> None:
        await bot.move(interaction, Command(spec.name, {names[key]: value for key, value in values.items()}))

    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction)]
    descriptions: dict[str, str] = {}
    completing: dict[str, Any] = {}
    for option in spec.options:
        param = _parameter_name(option.name)
        parameters.append(inspect.Parameter(
            param, inspect.Parameter.POSITIONAL_OR_KEYWORD,
            annotation=option.kind if option.required else option.kind | None,
            default=inspect.Parameter.empty if option.required else None))
        descriptions[param] = option.description
        if option.autocomplete:
            completing[param] = completer(spec.name, option.name)
    # discord.py reads the options from the callback's signature and these decorators' marks.
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    marked: Any = callback
    if descriptions:
        marked = app_commands.describe(**descriptions)(marked)
    renamed = {param: name for param, name in names.items() if param != name}
    if renamed:
        marked = app_commands.rename(**renamed)(marked)
    if completing:
        marked = app_commands.autocomplete(**completing)(marked)
    return app_commands.Command(name=spec.name, description=spec.description, callback=marked)


def move_commands(bot: StationmasterBot) -> list[app_commands.Command[Any, ..., None]]:
    return [move_command(bot, spec) for spec in MOVES.values()]

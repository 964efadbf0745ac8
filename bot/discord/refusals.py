"""Private answers that end an interaction: a refusal, or word that a command failed.

Below both the buttons and the replies (respond.py), which answer their failures this way."""

from __future__ import annotations

import logging

import discord

from bot.store_trouble import trouble_text

log = logging.getLogger(__name__)

LIMIT = 2000  # characters in a Discord message
NO_PINGS = discord.AllowedMentions.none()
FAILED = ("That command failed inside the bot (the error is logged for its operator). Nothing you "
          "typed can harm the game; /game status shows where it stands.")


def clip(text: str) -> str:
    """Keep a reply within Discord's limit, dropping the oldest log lines first."""
    if len(text) <= LIMIT:
        return text
    lines = text.splitlines()
    while lines and len("\n".join(["…"] + lines)) > LIMIT:
        lines.pop(0)
    return "\n".join(["…"] + lines)[-LIMIT:]


async def refuse(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(clip(text), ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(clip(text), ephemeral=True, allowed_mentions=NO_PINGS)


async def report_failure(interaction: discord.Interaction, error: BaseException | None = None) -> None:
    """Answer an interaction whose command raised, so nobody is left on "thinking" forever: the
    store's trouble (the database restarting, a stuck game) in its own words."""
    text = (trouble_text(error) if error is not None else None) or FAILED
    try:
        await refuse(interaction, text)
    except discord.HTTPException:
        log.exception("could not tell the user that their command failed")

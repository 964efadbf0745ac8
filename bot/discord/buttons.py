"""Buttons for small choices (join, start, pass, dividend kind, confirm runs).

Each is a DynamicItem whose custom_id carries the game and the position (action seq) it
was offered at: it works after a restart, and a click on an old position is refused by the
Moderator instead of being applied to a game that has moved on. Views hold no rules.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.discord.refusals import report_failure
from bot.store_trouble import log_failure

log = logging.getLogger(__name__)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"sm:(?P<game>\d+):(?P<seq>\d+):(?P<verb>[a-z_]+(?::[a-z_0-9]+)?)"):
    def __init__(self, game_id: int, seq: int, verb: str, label: str | None = None,
                 style: str | discord.ButtonStyle = "secondary") -> None:
        button_style = STYLES.get(style, discord.ButtonStyle.secondary) if isinstance(style, str) else style
        super().__init__(discord.ui.Button(label=label or verb, style=button_style,
                                           custom_id=f"sm:{game_id}:{seq}:{verb}"))
        self.game_id = game_id
        self.seq = seq
        self.verb = verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> MoveButton:
        assert isinstance(item, discord.ui.Button)  # the template matches only this class's buttons
        return cls(int(match["game"]), int(match["seq"]), match["verb"], item.label, item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        try:
            await client.click(interaction, self.game_id, self.seq, self.verb)  # type: ignore[attr-defined]
        except Exception as error:
            log_failure(log, f"button {self.custom_id} failed", error)
            await report_failure(interaction, error)

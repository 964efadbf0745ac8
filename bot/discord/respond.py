"""Answering interactions: ephemeral refusals, deferral before slow work, acknowledgement
only after the move is committed, pings only for the players who must act."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from bot.discord.buttons import MoveButton
from bot.discord.refusals import FAILED, LIMIT, NO_PINGS, clip, refuse, report_failure
from bot.model import Actor, Reply

if TYPE_CHECKING:
    from bot.moderator import Moderator, Outcome

log = logging.getLogger(__name__)
T = TypeVar("T")
__all__ = ["FAILED", "LIMIT", "NO_PINGS", "clip", "refuse", "report_failure", "actor_of", "answer", "answer_move",
           "game_in_thread", "message_kwargs", "tell_privately"]

FAST = 1.5  # seconds: work done by then is answered at once; slower work is deferred first


def actor_of(interaction: discord.Interaction) -> Actor:
    """The caller; server managers (Manage Server) have admin rights over every game."""
    manager = bool(interaction.permissions.manage_guild) if interaction.guild_id else False
    return Actor(interaction.user.id, interaction.user.display_name, manager)


async def game_in_thread(bot: Any, interaction: discord.Interaction) -> int | None:
    """The game played in this thread, or None after telling the caller to use a game's thread."""
    game_id: int | None = await bot.game_here(interaction)
    if game_id is None:
        await refuse(interaction, "Use this in a game's thread (create one with /game new).")
    return game_id


def message_kwargs(reply: Reply, *, with_view: bool = True) -> dict[str, Any]:
    """content, files, view and allowed mentions for a reply."""
    kwargs: dict[str, Any] = {
        "content": clip(reply.text),
        "files": [discord.File(io.BytesIO(p.data), filename=p.name) for p in reply.pictures],
        # Only the players who must act are pinged; names in the log lines are plain text.
        "allowed_mentions": discord.AllowedMentions(
            users=[discord.Object(u) for u in reply.mentions], roles=False, everyone=False, replied_user=False),
    }
    if with_view and reply.buttons and reply.game_id is not None:
        view = discord.ui.View(timeout=None)
        for button in reply.buttons:
            view.add_item(MoveButton(reply.game_id, reply.seq or 0, button.verb, button.label, button.style))
        kwargs["view"] = view
    return kwargs


async def _wait(work: Awaitable[T]) -> tuple[asyncio.Future[T], bool]:
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=FAST)
    return task, task in done


async def answer(interaction: discord.Interaction, work: Awaitable[Reply], *, private: bool = False) -> Reply:
    """Lifecycle and information commands: refusals are ephemeral; slow work is deferred.
    `private`: the answer is for the caller alone (a look-up), known before the work ends because
    a deferral fixes whether what follows it is ephemeral."""
    task, quick = await _wait(work)
    if not quick:
        await interaction.response.defer(thinking=True, ephemeral=private)
        reply = await task
        await interaction.followup.send(**message_kwargs(reply), ephemeral=private)
        return reply
    reply = task.result()  # a failure propagates to the command tree's error handler
    if not reply.ok:
        await refuse(interaction, reply.text)
    else:
        await interaction.response.send_message(**message_kwargs(reply), ephemeral=private)
    return reply


async def answer_move(interaction: discord.Interaction, moderator: Moderator, work: Awaitable[Outcome]) -> Reply:
    """Moves: the engine and the log first; only a committed move is acknowledged (by a
    public "thinking" that becomes the reply once its pictures are drawn)."""
    task, quick = await _wait(work)
    if not quick:
        # Waiting for the game's lock or the database: acknowledge privately now.
        await interaction.response.defer(thinking=True, ephemeral=True)
    outcome = await task
    if not outcome.committed and (outcome.reply.private or not outcome.reply.ok):
        await refuse(interaction, outcome.reply.text)
        return outcome.reply
    if not outcome.committed:  # public but no move (a train offer, its refusal): say it in the thread
        await _public(interaction, outcome.reply, quick)
        return outcome.reply
    if quick:
        await interaction.response.defer(thinking=True)
    reply = await moderator.finish(outcome)
    if quick:
        await interaction.followup.send(**message_kwargs(reply))
    else:
        await interaction.followup.send("Done: your move is in.", ephemeral=True)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(**message_kwargs(reply))
    moderator.delivered(reply)
    await tell_privately(interaction, reply)
    return reply


async def tell_privately(interaction: discord.Interaction, reply: Reply) -> None:
    """The reply's words for one player each: the caller's as an ephemeral follow-up, anyone
    else's as a direct message (a player who refuses direct messages from the server is not
    told, and the game goes on)."""
    for whisper in reply.whispers:
        if whisper.user_id is None:
            continue
        try:
            if whisper.user_id == interaction.user.id:
                await interaction.followup.send(clip(whisper.text), ephemeral=True)
            else:
                channel = await interaction.client.create_dm(discord.Object(whisper.user_id))
                await channel.send(clip(whisper.text), allowed_mentions=NO_PINGS)
        except discord.HTTPException:
            log.warning("could not tell %s privately: %s", whisper.user_id, whisper.text)


async def _public(interaction: discord.Interaction, reply: Reply, quick: bool) -> None:
    """A public reply that is not a move: it pings whom it names (the seller of a train)."""
    if quick:
        await interaction.response.send_message(**message_kwargs(reply))
        return
    await interaction.followup.send("Done.", ephemeral=True)
    channel = interaction.channel
    if isinstance(channel, discord.abc.Messageable):
        await channel.send(**message_kwargs(reply))

"""Only a company's president moves for it, and only a private's owner uses its power.

For each company move (/lay, /token, /run, /dividend, /train, /issue, /redeem), a private's
power and a raw /action, a seated player types the very command the president (or owner) is
about to type, on Discord and in the terminal: it is refused, nothing is stored and the
position in memory does not change. The president's own command then goes through, which
shows the refusal was about who typed it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from company_moves import CASES, company_moves, log, slash_command, store_position
from fakediscord import FakeDiscord, running_bot

from bot.cli import build_parser
from bot.config import Settings
from bot.console import play
from bot.discord.client import StationmasterBot
from bot.moderator import Moderator
from storage import SqliteGameRepository

REFUSED = "act only for your own seat and the companies you preside"


async def stored(db: Path, game_id: int) -> list[dict[str, Any]]:
    async with await SqliteGameRepository.open(db) as repo:
        return [a.action for a in await repo.list_actions(game_id)]


async def terminal(db: Path, game_id: int, line: str) -> str:
    """One line typed into `stationmaster play --game N` (the terminal front door, in process)."""
    args = build_parser().parse_args(["play", "--game", str(game_id), "--db", str(db), "--images", "none",
                                      "--router-budget", "0.5"])
    output = io.StringIO()
    assert await play(args, source=io.StringIO(line + "\n"), output=output) == 0
    return output.getvalue()


@pytest.mark.parametrize("case", CASES)
async def test_the_terminal_refuses_a_company_move_by_another_player(tmp_path: Path, case: str) -> None:
    move = company_moves()[case]
    db = tmp_path / "games.db"
    async with await SqliteGameRepository.open(db) as repo:
        game_id = await store_position(repo, move.upto)
    before = await stored(db, game_id)

    refused = await terminal(db, game_id, f"@{move.other} {move.line}")
    word = move.line.split()[0]
    expected = "error: You " if case == "action" else f"error: {word} is not yours to make now: you "
    assert expected + REFUSED in refused, refused
    assert await stored(db, game_id) == before

    made = await terminal(db, game_id, f"@{move.acting} {move.line}")
    assert "error:" not in made, made
    after = await stored(db, game_id)
    assert after[:-1] == before and after[-1]["entity"] == move.entity


def position(bot: StationmasterBot, game_id: int) -> tuple[Any, ...]:
    """The position in the bot's memory: what a refused move must leave as it was."""
    session = bot.moderator.sessions._cache[game_id]
    assert session.game is not None
    state = session.game.state
    return (session.seq, len(state.log), json.dumps(state.result()), [p.cash for p in state.players],
            {c.id: (c.cash, [t.id for t in c.trains]) for c in state.corporations.values()})


@pytest.mark.parametrize("case", CASES)
async def test_discord_refuses_a_company_move_by_another_player(fake_discord: FakeDiscord, tmp_path: Path,
                                                                case: str) -> None:
    fake, db, move = fake_discord, tmp_path / "games.db", company_moves()[case]
    users = {p["name"]: fake.add_user(p["name"]) for p in log()["players"]}
    repo = await SqliteGameRepository.open(db)
    try:
        game_id = await store_position(repo, move.upto, {name: user.id for name, user in users.items()},
                                       thread_id=fake.channel.id)
        before = await stored(db, game_id)
        bot = StationmasterBot(Settings(db_path=str(db), guild_ids=(fake.guild.id,)),
                               Moderator(repo, images=False, router_budget=0.5))
        async with running_bot(fake, bot):
            word, options = slash_command(move.line)
            status = await (await fake.invoke_slash(users[move.other], "game", "status")).wait_message(timeout=20)
            assert move.entity in status.content
            held = position(bot, game_id)

            handle = await fake.invoke_slash(users[move.other], word, options=options)
            refused = await handle.wait_message(timeout=20)
            assert refused.ephemeral and REFUSED in refused.content.lower(), refused.content
            assert await stored(db, game_id) == before
            assert position(bot, game_id) == held
            assert fake.messages_in(fake.channel, include_ephemeral=False) == [status]

            made = await (await fake.invoke_slash(users[move.acting], word, options=options)).wait_message(timeout=20)
            assert not made.ephemeral, made.content
            assert len(await stored(db, game_id)) == len(before) + 1
    finally:
        await repo.close()

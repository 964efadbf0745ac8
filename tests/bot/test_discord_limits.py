"""What the bot does stays within Discord's limits, which the fake enforces (a refusal fails
the test): a first answer within 3 seconds, messages of at most 2,000 characters,
autocomplete choices of at most 100.

A move that has to wait (here for the game's lock, held by the test) is acknowledged in time
and answered in the thread once it is made.

Players with long display names make the game log long: sixty lines of it are well over
2,000 characters, so the bot keeps the newest lines and marks the cut with "…". A proposal
for two long runs does not fit in a choice's 100 characters, so its label is shortened.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from company_moves import GENERATED, company_moves, log, replay, slash_command, store_position
from fakediscord import FakeDiscord, running_bot
from fixture_script import decider, typed_command

from bot.config import Settings
from bot.discord.client import StationmasterBot
from bot.moderator import Moderator
from bot.routes_text import format_routes
from storage import SqliteGameRepository

LIMIT = 2000
CHOICE = 100


async def test_a_long_log_is_clipped_to_its_newest_lines(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    players = [p["name"] for p in log()["players"]]
    # Discord display names run to 32 characters.
    names = {name: f"{name} the Longest-Named Rail Baron"[:32] for name in players}
    users = {name: fake.add_user(names[name]) for name in players}
    repo = await SqliteGameRepository.open(tmp_path / "games.db")
    try:
        game_id = await store_position(repo, company_moves()["run"].upto, {n: u.id for n, u in users.items()},
                                       thread_id=fake.channel.id, names=names)
        moderator = Moderator(repo, images=False)
        full = (await moderator.log_lines(game_id, 60)).text
        assert len(full) > LIMIT + 200, "the test needs a log longer than one message"
        bot = StationmasterBot(Settings(db_path=str(tmp_path / "games.db"), guild_ids=(fake.guild.id,)), moderator)
        async with running_bot(fake, bot):
            handle = await fake.invoke_slash(users[players[0]], "game", "log", options={"lines": 60})
            shown = await handle.wait_message(timeout=20)
    finally:
        await repo.close()
    assert not shown.ephemeral and len(shown.content) <= LIMIT
    first, *kept = shown.content.split("\n")
    assert first == "…" and len(kept) > 10
    assert full.endswith("\n".join(kept)), "the newest lines are kept, whole and in order"


async def test_a_long_proposal_is_offered_with_a_short_label(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake = fake_discord
    document = log(GENERATED / "randplay_18Texas_3p_s101.json")
    # The first run in the log too long to show in full in a choice; the position before the
    # company's move that leads to it, so the bot proposes runs after that move.
    run = next(i for i, a in enumerate(document["actions"])
               if a["type"] == "run_routes" and len(format_routes(a["routes"])) > CHOICE)
    state = replay(document, run - 1).state
    before = document["actions"][run - 1]
    president, line = decider(state, before), typed_command(state, before)
    assert line is not None
    word, options = slash_command(line)
    users = {p["name"]: fake.add_user(p["name"]) for p in document["players"]}
    repo = await SqliteGameRepository.open(tmp_path / "games.db")
    try:
        game_id = await store_position(repo, run - 1, {n: u.id for n, u in users.items()},
                                       thread_id=fake.channel.id, document=document)
        moderator = Moderator(repo, images=False, router_budget=1.0)
        bot = StationmasterBot(Settings(db_path=str(tmp_path / "games.db"), guild_ids=(fake.guild.id,)), moderator)
        async with running_bot(fake, bot):
            moved = await (await fake.invoke_slash(users[president], word, options=options)).wait_message(timeout=20)
            assert "Proposed runs for" in moved.content, moved.content
            handle = await fake.autocomplete(users[president], "run", focused="routes", value="")
            (choice,) = await handle.wait_choices(timeout=20)
            session = await moderator.sessions.get(game_id)
            assert session.proposal is not None and session.proposal[1] is not None
            proposal = session.proposal[1]
            full = f"The proposed runs (${proposal.total}): {format_routes(proposal.action['routes'])}"
            assert len(full) > CHOICE, "the test needs a proposal longer than a choice"
            assert choice["value"] == "proposal" and len(choice["name"]) <= CHOICE
            assert choice["name"] == full[:CHOICE - 1] + "…"
            ran = await (await fake.invoke_slash(users[president], "run", options={"routes": "proposal"})
                         ).wait_message(timeout=20)
            assert f"runs for ${proposal.total}" in ran.content, ran.content
    finally:
        await repo.close()


async def test_a_move_that_waits_is_acknowledged_within_3_seconds(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, move = fake_discord, company_moves()["lay"]
    users = {p["name"]: fake.add_user(p["name"]) for p in log()["players"]}
    repo = await SqliteGameRepository.open(tmp_path / "games.db")
    try:
        game_id = await store_position(repo, move.upto, {n: u.id for n, u in users.items()}, thread_id=fake.channel.id)
        moderator = Moderator(repo, images=False)
        bot = StationmasterBot(Settings(db_path=str(tmp_path / "games.db"), guild_ids=(fake.guild.id,)), moderator)
        word, options = slash_command(move.line)
        async with running_bot(fake, bot):
            async with moderator.sessions.lock(game_id):  # someone else's command is being worked on
                handle = await fake.invoke_slash(users[move.acting], word, options=options)
                acknowledged = await handle.wait_response(timeout=fake.response_deadline)
                assert acknowledged.type == 5 and acknowledged.ephemeral
                await asyncio.sleep(fake.response_deadline)  # still waiting after Discord's 3 s
            (done,) = await handle.wait_followups(timeout=20)
            assert done.ephemeral and done.content == "Done: your move is in."
            posted = await fake.wait_for_message(fake.channel, lambda m: "lays tile" in m.content, timeout=20)
            assert not posted.ephemeral and posted.interaction_id is None
        assert len(await repo.list_actions(game_id)) == move.upto + 1
    finally:
        await repo.close()

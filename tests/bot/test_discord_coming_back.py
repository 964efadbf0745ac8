"""Coming back to a game, through the real discord.py client against tests/fakediscord (which
refuses anything over Discord's limits): the ping after the others' moves carries what happened
since the pinged player's last move; /game since says it to them alone; /game map at: draws
an earlier position titled with the moment; /game mine lists a player's games; the charts come
with the final scores.

The 18USA game s8403 (4 players, played to its end by the reference engine) is imported up to
a point by /game import, its seats handed to four Discord users, and the log's next moves made
by slash command, each by the player the engine says decides it (as in test_discord_usa_late).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from PIL import Image
from test_discord_e2e import PNG, WAIT, Table, pngs, seen_answer, stationmaster
from test_discord_usa_late import S8403, ImportedTable

from engine import load_game
from engine.core.rng import seed_from_game
from engine.describe import log_by_action
from engine.log import document_options
from render.cli import render_files, truncate_log

# P3 moved at action 381; the 17 actions after it, by P1, P2 and P4 (company turns in an
# operating round and a merger round), come back to P3 at action 399.
LAST_MOVE, BACK = 381, 398


def _cash(document: dict[str, Any], count: int, name: str) -> int:
    state = load_game({**document, "actions": document["actions"][:count]}).state
    return next(player.cash for player in state.players if player.name == name)


async def test_the_ping_after_the_others_moves_says_what_happened_since(fake_discord: FakeDiscord,
                                                                        tmp_path: Path) -> None:
    document = json.loads(S8403.read_text())
    # Every stored change dated a quarter hour back: a reminder set to a quarter hour is due at once.
    async with stationmaster(fake_discord, tmp_path / "bot.db", hours_ago=0.25, images=False) as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, LAST_MOVE)
        replies = [await table.move(action) for action in document["actions"][LAST_MOVE:BACK]]
        ping = replies[-1]
        p3 = table.users["P3"]
        assert p3.id in [int(user) for user in ping.allowed_mentions["users"]]
        before, after = _cash(document, LAST_MOVE, "P3"), _cash(document, BACK, "P3")
        assert after != before
        sign = "+" if after > before else "-"
        head = (f"P3, while you were away ({BACK - LAST_MOVE} action(s) since your last move (action {LAST_MOVE})): "
                f"your cash ${before} → ${after} ({sign}${abs(after - before)})")
        assert head in ping.content, ping.content
        digest = ping.content[ping.content.index(head):]
        # Every other player's moves are in it, by round and by who made them, in the log's words.
        seed = seed_from_game(document["settings"].get("seed"), document.get("id"))
        _, parts = log_by_action(document["title"], document["players"], seed, document_options(document),
                                 document["actions"][:BACK])
        between = {id(action) for action in document["actions"][LAST_MOVE:BACK]}
        autos = {id(auto) for action in document["actions"][LAST_MOVE:BACK] for auto in action.get("auto_actions") or ()}
        written = [line for part, lines in parts if id(part) in between | autos for line in lines]
        assert written
        rounds = ("Operating Round", "Merger", "Acquisition", "Stock Round")
        for line in written:
            if not line.startswith(rounds) and not line.endswith(" operates"):
                assert line.split(" ", 1)[1] in digest or "more, `/game log`" in digest, (line, digest)
        for name in ("P1", "P2", "P4"):
            assert f"({name})" in digest or f"• {name}:" in digest
        # Earlier pings went to players who had just moved: no digest for nothing missed.
        assert all("P3, while you were away" not in reply.content for reply in replies[:-1])

        # /game since: the same, for P3 alone; someone with no seat is told why not.
        since = await table.slash(p3, "game", "since")
        assert since.ephemeral and since.content.startswith(
            f"While you were away ({BACK - LAST_MOVE} action(s) since your last move (action {LAST_MOVE}))")
        assert f"your cash ${before} → ${after}" in since.content
        stranger = await table.slash(fake_discord.add_user("mallory"), "game", "since")
        assert stranger.ephemeral and "no seat in this game" in stranger.content

        # The reminder to P3 carries it too.
        def reminders() -> list[Any]:
            return [m for m in fake_discord.messages_in(table.thread, include_ephemeral=False)
                    if m.content.startswith("Reminder: ")]

        await table.slash(table.users["P1"], "game", "settings", first_after_hours=0.25, repeat_hours=1.0)
        (reminder,) = await fake_discord.wait_for(reminders, timeout=WAIT, what="a reminder")
        assert [int(user) for user in reminder.allowed_mentions["users"]] == [p3.id]
        assert head in reminder.content, reminder.content


async def test_the_map_at_an_earlier_moment_is_the_log_cut_there(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    document = json.loads(S8403.read_text())
    async with stationmaster(fake_discord, tmp_path / "bot.db") as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, 300)
        p1 = table.users["P1"]
        offered = await fake_discord.autocomplete(p1, "game", "map", focused="at", value="OR 2", options={},
                                                  channel=table.thread)
        choices = [choice["value"] for choice in await offered.wait_choices(timeout=WAIT)]
        assert choices[:2] == ["OR 2.2", "OR 2.1"], choices
        everything = await fake_discord.autocomplete(p1, "game", "map", focused="at", value="", options={},
                                                     channel=table.thread)
        assert [c["value"] for c in await everything.wait_choices(timeout=WAIT)][0] == "my last move"

        shown = await table.slash(p1, "game", "map", at="OR 2.1")
        assert not shown.ephemeral and pngs(shown) == ["map.png"]
        assert "map, start of OR 2.1 (after action " in shown.content
        action_id = int(shown.content.split("(after action ")[1].split(")")[0])
        cut = load_game(truncate_log(document, action_id)).state
        assert cut.round_title() == "Operating Round 2.1"
        assert load_game(truncate_log(document, action_id - 1)).state.round_title() != "Operating Round 2.1"
        label = f"start of OR 2.1 (after action {action_id})"
        (expected,) = [path for path in render_files(cut, tmp_path / "cut", moment=label) if path.name == "map.png"]
        assert shown.attachments[0].data == expected.read_bytes()
        # Asked again: the same picture, from the kept views and picture.
        again = await table.slash(p1, "game", "map", at="or 2.1")
        assert again.attachments[0].data == shown.attachments[0].data

        market = await table.slash(p1, "game", "market", at="SR 2")
        assert pngs(market) == ["market.png"] and "market, start of SR 2" in market.content
        mine = await table.slash(p1, "game", "table", at="my last move")
        assert pngs(mine) == ["table.png"] and "table, after your last move (action " in mine.content
        wrong = await table.slash(p1, "game", "map", at="OR 99.1")
        assert wrong.ephemeral and "no round 'OR 99.1'" in wrong.content and not wrong.attachments


async def test_my_games_across_three_games(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    table = Table(fake_discord)
    alice, bob, carol = (table.users[name] for name in ("alice", "bob", "carol"))
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table.bot = bot
        threads = []
        for seed in (3, 5, 8):
            created = await (await fake_discord.invoke_slash(alice, "game", "new",
                                                             options={"title": "18Texas", "seed": seed})).wait_message(
                timeout=WAIT)
            assert not created.ephemeral
            table.thread = fake_discord.threads(fake_discord.channel)[-1]
            threads.append(table.thread)
            for user in (bob, carol):
                await table.slash(user, "game", "join")
            await table.slash(alice, "game", "start")
        listed = {}
        for name, user in table.users.items():
            handle = await fake_discord.invoke_slash(user, "game", "mine", options={}, channel=fake_discord.channel)
            listed[name] = await seen_answer(fake_discord, handle)
            assert listed[name].ephemeral
            assert all(thread.mention in listed[name].content for thread in threads)
            assert listed[name].content.startswith("Your games (3)")
        # Each game's line says whose turn it is; the caller's own turns come first, with what to do.
        states = [bot.moderator.sessions._cache[game_id].game.state for game_id in (1, 2, 3)]
        for name in table.users:
            text = listed[name].content
            mine = [number for number, state in enumerate(states, start=1)
                    if state.acting_players()[0].name == name]
            yours = [line for line in text.splitlines() if "**your turn**" in line]
            assert [int(line.split("#")[1].split(" ")[0]) for line in yours] == sorted(
                mine, key=lambda number: bot.moderator.sessions._cache[number].loaded.game.updated_at)
            assert all("(/bid" in line or "(/pass" in line for line in yours)
            lines = text.splitlines()[1:]
            assert [line for line in lines if "**your turn**" in line] == lines[:len(yours)]
        nobody = await seen_answer(fake_discord, await fake_discord.invoke_slash(
            fake_discord.add_user("dave"), "game", "mine", options={}, channel=fake_discord.channel))
        assert nobody.ephemeral and "no unfinished game on this server" in nobody.content


async def test_the_charts_come_with_the_final_scores(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    document = json.loads(S8403.read_text())
    async with stationmaster(fake_discord, tmp_path / "bot.db") as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, 818)
        replies = [await table.move(action) for action in document["actions"][818:827]]
        final = replies[-1]
        assert "Final scores:" in final.content
        names = pngs(final)
        assert {"map.png", "chart-values.png", "chart-prices.png", "chart-revenue.png"} <= set(names), names
        assert all("chart-" not in name for reply in replies[:-1] for name in pngs(reply))
        values = next(a for a in final.attachments if a.filename == "chart-values.png")
        assert Image.open(io.BytesIO(values.data)).size == (1400, 861)

        asked = await table.slash(table.users["P1"], "game", "chart", kind="revenue")
        assert not asked.ephemeral and pngs(asked) == ["chart-revenue.png"]
        assert asked.attachments[0].data.startswith(PNG)
        wrong = await table.slash(table.users["P1"], "game", "chart", kind="pie")
        assert wrong.ephemeral and "charts: values, prices, revenue" in wrong.content

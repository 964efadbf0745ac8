"""18USA's later moves through the real discord.py client against tests/fakediscord: a coal token
laid with a yellow tile and a second tile lay in one operating turn, a merger,
liquidations and a cash crisis in the acquisition round, a short sale, an acquisition (a company
bought), a Pullman bought and attached by the run button, and the game's end with its scores.

A whole game through Discord takes too long for the suite, so each part starts from a log the
engine plays exactly to its end (s8403, s8603): the log up to shortly before the part is
imported with `/game import`, the importer hands the seats to the players with `/game replace`,
and then the players make the log's next moves with 18USA's slash commands (the words
`usa_script` gives them), each typed by the player the engine says decides it. After the part
the bot's position is the one the engine reaches by replaying the log that far.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeUser, StoredMessage
from test_discord_e2e import WAIT, pngs, seen_answer, stationmaster
from test_discord_hardening import _import_by_slash
from test_usa_table import position
from usa_script import USA_LOGS, decider, typed_parts

from bot.discord.client import StationmasterBot
from bot.vocabulary import MOVES
from engine import load_game
from engine.core.game import BaseGame
from engine.legal import legal_moves

RUN_BUTTON = re.compile(r"sm:\d+:\d+:run:\d+")  # "Run for $N" names the total it runs

S8403 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8403")
S8603 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8603")

# (log, first action made through Discord, action after the last, what the replies must say)
PARTS = {
    "merger and cash crisis": (S8403, 378, 392, ["NP merges with N&W", "must raise", "P4 sells 10% of NP",
                                                 "P4 has raised the money for MKT's loans"]),
    "resource token and second lay": (S8403, 441, 443, [
        "NP lays tile 7 in E25 (rotation 2) and places P21's coal token (+$10 to each train running through it); "
        "the coal token saves $15 of the terrain cost",
        "NP lays tile 57 in H22 (rotation 2); pays $20 for a second tile action"]),
    "short": (S8403, 657, 664, ["P3 sells a share of NP short for $110"]),
    "acquisition": (S8603, 756, 764, ["P3 bids $60 for MP", "MKT buys MP for $60", "MP leaves play"]),
    "pullman and the end": (S8403, 818, 827, ["SLSF buys a Pullman car", "The game is over",
                                              "Final scores:\n1. P2 $711\n2. P3 $413\n3. P1 $109\n4. P4 $47"]),
}


class ImportedTable:
    """A game imported by slash, its seats given to one Discord user per logged player."""

    def __init__(self, fake: FakeDiscord, bot: StationmasterBot, names: list[str]) -> None:
        self.fake, self.bot = fake, bot
        self.users: dict[str, FakeUser] = {name: fake.add_user(name) for name in names}
        self.thread: Any = None

    async def open(self, document: dict[str, Any], count: int) -> None:
        creator = next(iter(self.users.values()))
        raw = json.dumps({**document, "actions": document["actions"][:count]}).encode()
        imported = await (await _import_by_slash(self.fake, creator, raw)).wait_message(timeout=60)
        assert imported.content.startswith("Imported as game #1"), imported.content
        (self.thread,) = self.fake.threads(self.fake.channel)
        for name, user in self.users.items():
            given = await self.slash(creator, "game", "replace", seat=name, user=user)
            assert f"is now played by {name}" in given.content, given.content

    async def slash(self, actor: FakeUser, *path: str, **options: Any) -> StoredMessage:
        handle = await self.fake.invoke_slash(actor, *path, options=options, channel=self.thread)
        return await seen_answer(self.fake, handle)

    def state(self) -> BaseGame:
        session = self.bot.moderator.sessions._cache[1]
        assert session.game is not None
        return session.game.state

    async def move(self, action: dict[str, Any]) -> StoredMessage:
        """The logged action as its decider's slash command, options typed as Discord sends them."""
        state = self.state()
        parts = typed_parts(state, action)
        assert parts is not None, action
        word, options = parts
        kinds = {option.name: option.kind for option in MOVES[word].options}
        typed = {name: kinds[name](value) for name, value in options.items()}
        return await self.slash(self.users[decider(state, action)], word, **typed)


@pytest.mark.parametrize("part", list(PARTS))
async def test_an_18usa_part_played_through_discord(fake_discord: FakeDiscord, tmp_path: Path, part: str) -> None:
    log, start, stop, said = PARTS[part]
    document = json.loads(log.read_text())
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False) as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, start)
        replies = []
        for action in document["actions"][start:stop]:
            reply = await table.move(action)
            assert not reply.ephemeral, (action, reply.content)
            replies.append(reply.content)
        text = "\n".join(replies)
        for words in said:
            assert words in text, (words, text[-3000:])
        played = table.state()
    replayed = load_game({**document, "actions": document["actions"][:stop]}).state
    assert position(played) == position(replayed)
    assert played.finished == replayed.finished
    if played.finished:
        assert played.result() == replayed.result() and not legal_moves(played)


async def test_the_run_button_attaches_the_pullman_the_proposal_counted(fake_discord: FakeDiscord,
                                                                       tmp_path: Path) -> None:
    """s8603 at 1060: MKT lays twice, its president asks /game routes, then presses "Run for
    $..." under that answer: the bot attaches the Pullman where the optimizer counted it, then
    runs, and MKT earns exactly the proposal's total."""
    document = json.loads(S8603.read_text())
    async with stationmaster(fake_discord, tmp_path / "bot.db", images=False, router_budget=2.0) as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, 1060)
        for action in document["actions"][1060:1063]:
            await table.move(action)
        last = fake_discord.messages_in(table.thread, include_ephemeral=False)[-1]
        assert "Proposed runs for MKT" in last.content and " with Pullman on the " in last.content, last.content
        proposed = int(last.content.split("total $", 1)[1].split()[0].rstrip("."))
        state = table.state()
        president = state.corporations["MKT"].president()
        assert president is not None
        # /game routes: the optimizer searches longer (or says the proposal is proven); its
        # reply carries the run button too.
        searched = await table.slash(table.users[president.name], "game", "routes", seconds=3)
        assert not searched.ephemeral and "Proposed runs for MKT" in searched.content, searched.content
        assert searched.content.startswith(("Already proven the best runs:", "Searched 3 s:")), searched.content
        total = int(searched.content.split("total $", 1)[1].split()[0].rstrip("."))
        assert total >= proposed
        last = searched
        button = next(b for b in last.custom_ids() if RUN_BUTTON.fullmatch(b))
        before = len(bot.moderator.sessions._cache[1].actions)
        handle = await fake_discord.click(table.users[president.name], last, button)
        reply = await seen_answer(fake_discord, handle)
        assert not reply.ephemeral and f"MKT runs for ${total}" in reply.content, reply.content
        made = [stored.action["type"] for stored in bot.moderator.sessions._cache[1].actions[before:]]
        assert made == ["choose", "run_routes"]
        assert sum(run.revenue for run in table.state().last_runs) == total


async def test_an_unproven_proposal_is_followed_in_the_thread_by_the_proven_runs(fake_discord: FakeDiscord,
                                                                               tmp_path: Path) -> None:
    """s8603 at 1126: MKT lays its track; given a millisecond, the proposal is not proven. Nobody
    asks: the bot searches on and posts the proven $420 in the thread after the lay's reply, with
    the map drawn with those runs, and its "Run for $420" button runs it."""
    document = json.loads(S8603.read_text())
    async with stationmaster(fake_discord, tmp_path / "bot.db", router_budget=0.001, follow_up_seconds=20) as bot:
        table = ImportedTable(fake_discord, bot, [p["name"] for p in document["players"]])
        await table.open(document, 1126)
        laid = await table.move(document["actions"][1126])
        assert "(best found in the time allowed; /game routes searches longer)" in laid.content, laid.content
        quick = int(laid.content.split("total $", 1)[1].split()[0].rstrip("."))
        await asyncio.wait_for(bot.moderator.follow_ups.settled(), WAIT)
        shown = fake_discord.messages_in(table.thread, include_ephemeral=False)
        assert shown[-2].id == laid.id, [m.content[:60] for m in shown[-3:]]
        answer = shown[-1]
        assert answer.content.startswith("Searched 20 s more since the proposal: better runs, proven the best.\n"
                                         "Proposed runs for MKT: "), answer.content
        assert "total $420." in answer.content and 420 > quick
        assert pngs(answer)[:1] == ["map.png"]  # the map redrawn with the better runs
        president = table.state().corporations["MKT"].president()
        assert president is not None
        # The lay's own button offered the quick runs: pressed now, it runs nothing and says why.
        stale = next(b for b in laid.custom_ids() if RUN_BUTTON.fullmatch(b))
        assert stale.endswith(f":run:{quick}")
        moves = len(bot.moderator.sessions._cache[1].actions)
        handle = await fake_discord.click(table.users[president.name], laid, stale)
        refused = await handle.wait_message(timeout=WAIT)
        assert refused.ephemeral and refused.content.startswith(
            f"Not run: that button offered the runs for ${quick}, and a longer search has since found runs for "
            "$420."), refused.content
        assert len(bot.moderator.sessions._cache[1].actions) == moves
        button = next(b for b in answer.custom_ids() if RUN_BUTTON.fullmatch(b))
        handle = await fake_discord.click(table.users[president.name], answer, button)
        reply = await seen_answer(fake_discord, handle)
        assert not reply.ephemeral and "MKT runs for $420" in reply.content, reply.content

"""Several bot processes on one PostgreSQL database (issue 14): each move lands once however
many processes race for it, a move made through one process is seen by the next command in
another, and a process killed in the middle of moves loses none it acknowledged.

The processes are real (tests/bot/moderator_worker.py: the Moderator that every front door
uses, on its own connection pool); the moves are the first ones of the 18Texas fixture, typed
as its players would type them.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fixture_script import script
from live_processes import fixture_game_before
from multiproc_helpers import Worker, create_database, drop_database

from bot.model import Actor, Command
from bot.moderator import Moderator, plain_mention
from engine import load_game
from storage import open_repository
from storage.replay import engine_document

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


@pytest.fixture(scope="module")
def fixture_lines() -> list[str]:
    return script(FIXTURE)[0]


async def stored_log(url: str, game_id: int) -> list[dict[str, Any]]:
    """The stored actions, after checking that the log replays (nothing half written)."""
    repo = await open_repository(url)
    try:
        loaded = await repo.load_game(game_id)
    finally:
        await repo.close()
    assert [a.seq for a in loaded.actions] == list(range(1, len(loaded.actions) + 1))
    load_game(engine_document(loaded), options=list(loaded.game.options))
    return [a.action for a in loaded.actions]


async def test_racing_processes_land_each_move_once_and_each_sees_the_others_moves(
        pg_url: str, fixture_lines: list[str]) -> None:
    game_id = await fixture_game_before(pg_url, [])
    workers = list(await asyncio.gather(*(Worker.start(pg_url, game_id) for _ in range(3))))
    try:
        winners: list[int] = []
        refusals: set[str] = set()
        for index, line in enumerate(fixture_lines[:50]):
            # The same move, for the same position, reaches all three at the same moment.
            at = time.time() + 0.05
            for worker in workers:
                await worker.send({"line": line, "seq": index, "at": at})
            answers = [await worker.read() for worker in workers]
            landed = [n for n, a in enumerate(answers) if a["committed"]]
            assert len(landed) == 1, (index, line, answers)
            assert answers[landed[0]]["seq"] == index + 1
            winners += landed
            for answer in answers:
                if not answer["committed"]:
                    assert not answer["ok"], answer
                    refusals.add(answer["text"].split(";")[0].split(",")[0])
        assert len(await stored_log(pg_url, game_id)) == 50
        # Losers were refused by name, never by an error, and saw the winner's move (the lock
        # holds them until it is committed, so none even reached the seq-checked append).
        assert {r.split(" (move")[0] for r in refusals} == {"That button is from an earlier position"}, refusals

        # Each next move through another process than the last: every one lands, so each
        # process saw the move the previous one made.
        for index in range(50, 80):
            answer = await workers[index % 3].ask({"line": fixture_lines[index], "seq": index})
            assert answer["committed"] and answer["seq"] == index + 1, answer
        assert len(await stored_log(pg_url, game_id)) == 80
        print(f"race winners by process: {[winners.count(n) for n in range(3)]}")
    finally:
        for worker in workers:
            await worker.stop()


async def test_a_process_killed_mid_move_loses_no_acknowledged_move(
        pg_url: str, fixture_lines: list[str]) -> None:
    game_id = await fixture_game_before(pg_url, [])
    rng = random.Random(1414)
    acknowledged: list[int] = []
    for _ in range(4):
        stored = len(await stored_log(pg_url, game_id))
        worker = await Worker.start(pg_url, game_id)
        await worker.send({"play": fixture_lines[stored:stored + 30]})
        for _ in range(rng.randint(1, 6)):
            answer = await worker.read()
            assert answer["committed"], answer
            acknowledged.append(answer["seq"])
        await asyncio.sleep(rng.uniform(0.0, 0.03))  # into the middle of a later move
        acknowledged += [a["seq"] for a in await worker.kill() if a.get("committed")]
        log = await stored_log(pg_url, game_id)
        # Every acknowledged move is stored, in order; the log is whole and replays.
        assert max(acknowledged) <= len(log)
        assert sorted(set(acknowledged)) == acknowledged
    # The dead processes held no lock any more (PostgreSQL ends a lost session's advisory
    # locks): another process goes on from the stored position at once.
    stored = len(await stored_log(pg_url, game_id))
    survivor = await Worker.start(pg_url, game_id)
    try:
        await survivor.send({"play": fixture_lines[stored:stored + 3]})
        answers = [await survivor.read() for _ in range(3)]
        assert [a["seq"] for a in answers] == [stored + 1, stored + 2, stored + 3], answers
        assert await survivor.read() == {"done": True}
    finally:
        await survivor.stop()
    assert len(await stored_log(pg_url, game_id)) == stored + 3


async def test_the_next_command_sees_a_move_another_process_made(pg_url: str, fixture_lines: list[str]) -> None:
    """Without a change feed to wait for: the move is committed when the first process
    answers, and the second process's very next command checks the store first."""
    game_id = await fixture_game_before(pg_url, [])
    first, second = await Worker.start(pg_url, game_id), await Worker.start(pg_url, game_id)
    try:
        assert await second.ask({"seq": None}) == {"seq": 0}  # holds the game at move 0
        assert (await first.ask({"line": fixture_lines[0], "seq": 0}))["committed"]
        assert await second.ask({"seq": None}) == {"seq": 1}
        again = await second.ask({"line": fixture_lines[0], "seq": 0})
        assert not again["ok"] and "the game has moved on to move 1" in again["text"]
        assert (await second.ask({"line": fixture_lines[1], "seq": 1}))["committed"]
    finally:
        await first.stop()
        await second.stop()


async def test_an_end_agreement_given_through_one_process_counts_in_another(pg_url: str) -> None:
    game_id = await fixture_game_before(pg_url, [])
    repos = [await open_repository(pg_url) for _ in range(2)]
    try:
        moderators = [Moderator(repo, images=False, mention=plain_mention) for repo in repos]
        players = [Actor(user_id=None, name=f"Player {n}") for n in range(1, 5)]
        for number, player in enumerate(players[:3]):
            reply = (await moderators[number % 2].end_game(game_id, player)).reply
            assert reply.ok and "still" in reply.text, reply.text
        ended = await moderators[1].end_game(game_id, players[3])
        assert ended.committed, ended.reply.text
        assert (await repos[0].get_game(game_id)).status == "finished"
        assert await repos[0].list_end_votes(game_id) == []
    finally:
        for repo in repos:
            await repo.close()


async def test_a_train_offer_made_through_one_process_is_answered_through_another(postgres_server: Any) -> None:
    from bot_helpers import actor
    from offer_helpers import stored_game

    name, url = await create_database(postgres_server)
    repos = [await open_repository(url) for _ in range(2)]
    try:
        game_id = await stored_game(repos[0], "consent")
        first, second = (Moderator(repo, images=False) for repo in repos)
        assert (await second.status(game_id)).ok  # the second process holds the game already
        offer = await first.perform(game_id, actor("Alice"), Command("train", {"train": "2-0"}))
        assert offer.ok and "asks to buy your 2-train" in offer.text, offer.text
        bought = await second.accept(game_id, actor("Carol"))
        assert bought.committed, bought.reply.text
        assert "SAA buys a 2-train from T&P" in bought.reply.text
        assert await repos[0].get_train_offer(game_id) is None
    finally:
        for repo in repos:
            await repo.close()
        await drop_database(postgres_server, name)


async def test_the_terminal_and_its_fallback_play_on_postgresql(pg_url: str, tmp_path: Path) -> None:
    """`stationmaster play --db postgresql://...`, then a bare `stationmaster bot` without a
    token, configured with that database_url, resumes the game there."""
    from multiproc_helpers import environment

    async def run(*args: str, lines: str) -> tuple[int, str]:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.cli", *args, cwd=tmp_path, env=environment(),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await asyncio.wait_for(process.communicate(lines.encode()), 120)
        return process.returncode or 0, out.decode()

    code, out = await run("play", "--db", pg_url, "--players", "Ann,Ben,Cid", "--seed", "3", "--images", "none",
                          "--strict", lines="@Ann /bid company:BBBCRC price:50\n")
    assert code == 0, out
    assert "Game #1 starts" in out and "Ann" in out.split("Game #1 starts", 1)[1]
    config = tmp_path / "config.toml"
    config.write_text(f'[bot]\ndatabase_url = "{pg_url}"\n')
    code, out = await run("bot", "--config", str(config), "--out", str(tmp_path / "png"), lines="/game status\n")
    assert code == 0, out
    host = pg_url.split("@", 1)[1]
    assert f"resuming game #1 from postgresql://{host}" in out, out
    repo = await open_repository(pg_url)
    try:
        assert [a.action["type"] for a in (await repo.load_game(1)).actions] == ["bid"]
    finally:
        await repo.close()

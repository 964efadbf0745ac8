"""/game routes: a longer search for the running company's best runs, on real SQLite files and
the optimizer's real worker processes. The proposal after a move gets the Moderator's budget;
when that answer is not proven, a player can give the optimizer longer, and /run with no routes
then runs the better answer."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from bot_helpers import actor, imported, open_moderator, president_of
from usa_script import USA_LOGS

from bot import pictures
from bot.model import Actor, Command
from bot.pictures import OptimizerWorker
from engine import load_game

TEXAS = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
S8603 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8603")
# MKT has laid its track (action 1126); its 6-train and Pullman run next. With a millisecond the
# optimizer has no time for a proof; given longer it proves $420 in a few hundredths of a second.
MKT_RUNS = 1127


async def test_an_unproven_proposal_is_searched_longer_and_run_runs_the_better_answer(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db", router_budget=0.001)
    try:
        document = json.loads(S8603.read_text())
        game_id = await imported(moderator, S8603, MKT_RUNS - 1)
        president = await president_of(moderator, game_id, "MKT")
        laid = await moderator.perform(game_id, president, Command("action", {"json": json.dumps(
            document["actions"][MKT_RUNS - 1])}))
        assert laid.ok, laid.text
        assert "(best found in the time allowed; /game routes searches longer)" in laid.text
        quick = int(laid.text.split("total $", 1)[1].split()[0])
        searched = await moderator.search_routes(game_id, president, 20)
        assert searched.ok, searched.text
        assert searched.text.startswith("Searched 20 s: these are the best runs (proven).\nProposed runs for MKT: ")
        total = int(searched.text.split("total $", 1)[1].split(".")[0])
        assert total == 420 > quick
        assert [(b.label, b.verb) for b in searched.buttons] == [("Run for $420", "run:420")]
        assert searched.seq == await repo.last_seq(game_id)
        # Asked again: the proven answer is kept, not searched for again.
        again = await moderator.search_routes(game_id, president, 5)
        assert again.text.startswith("Already proven the best runs:\nProposed runs for MKT: ")
        ran = await moderator.perform(game_id, president, Command("run"))
        assert ran.ok and "MKT runs for $420" in ran.text, ran.text
    finally:
        await repo.close()


async def test_a_search_is_refused_when_asked_wrongly_and_changes_nothing(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, TEXAS, 44)
        president = await president_of(moderator, game_id, "SP")
        before = await repo.last_seq(game_id)
        for seconds in (0.5, 61):
            refused = await moderator.search_routes(game_id, president, seconds)
            assert not refused.ok and refused.private
            assert refused.text == f"seconds must be from 1 to 60 (you gave {seconds:g})."
        early = await moderator.search_routes(game_id, president, 5)
        assert not early.ok and early.text.startswith("No company is to run trains now")
        stranger = await moderator.search_routes(game_id, actor("Zed"), 5)
        assert not stranger.ok and "You have no seat in this game" in stranger.text
        assert await repo.last_seq(game_id) == before
        session = await moderator.sessions.get(game_id)
        assert session.proposal is None
    finally:
        await repo.close()


async def test_a_move_made_during_the_search_wins_and_a_second_search_waits(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The search runs without the game's lock: a move made meanwhile stands, and the search's
    answer (for the earlier position) is not kept. One longer search at a time."""
    # A worker of its own, so that it must start (a second or so) before it searches.
    worker = OptimizerWorker()
    monkeypatch.setattr(pictures, "LONGER", worker)
    repo, moderator = await open_moderator(tmp_path / "games.db")
    cleanup: list[asyncio.Task[object]] = []
    try:
        game_id = await imported(moderator, TEXAS, 44)
        president = await president_of(moderator, game_id, "SP")
        laid = await moderator.act(game_id, president, Command("lay", {"hex": "J7", "tile": "8", "rotation": 1}))
        assert laid.committed
        search = asyncio.create_task(moderator.search_routes(game_id, president, 10))
        cleanup.append(search)
        while not worker.searching:
            await asyncio.sleep(0.01)
        busy = await moderator.search_routes(game_id, president, 10)
        assert not busy.ok and busy.text.startswith("The optimizer is already searching longer")
        undone = await moderator.undo(game_id, Actor(None, "table", True))  # a manager may
        assert undone.committed, undone.reply.text
        late = await search
        assert not late.ok and late.text.startswith("The game moved on (to move ")
        session = await moderator.sessions.get(game_id)
        assert session.proposal is None or session.proposal[0] != session.seq
    finally:
        for task in cleanup:
            task.cancel()
        worker.close()
        await repo.close()


async def test_a_search_nobody_waits_for_any_more_does_not_hold_up_the_next() -> None:
    """A search whose caller is cancelled (the follow-up of a bot that stops, a lost interaction)
    stops with its process: the next search starts at once instead of queueing behind it and
    running out of its own time."""
    worker = OptimizerWorker()
    try:
        fixture = json.loads(next(path for path in USA_LOGS if path.stem == "109372").read_text())
        late = load_game({**fixture, "actions": fixture["actions"][:1441]}).state  # B&O's 8+6: 10 s and more
        document = json.loads(S8603.read_text())
        mkt = load_game({**document, "actions": document["actions"][:MKT_RUNS]}).state
        long_search = asyncio.create_task(worker.propose(late, "B&O", 30))
        while not worker.searching:
            await asyncio.sleep(0.01)
        await asyncio.sleep(1.0)  # well into its search
        long_search.cancel()
        with pytest.raises(asyncio.CancelledError):
            await long_search
        found = await worker.propose(mkt, "MKT", 5)
        assert found is not None and found.proven_optimal and found.total == 420
    finally:
        worker.close()


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="process priorities are a Unix call")
async def test_the_longer_searches_run_at_a_lower_cpu_priority() -> None:
    """The bot's longer worker yields the CPU to the moves' proposals and pictures."""
    assert pictures.LONGER.niceness > 0 and pictures.QUICK.niceness == 0
    worker = OptimizerWorker(niceness=pictures.LONGER.niceness)
    try:
        document = json.loads(S8603.read_text())
        mkt = load_game({**document, "actions": document["actions"][:MKT_RUNS]}).state
        assert await worker.propose(mkt, "MKT", 5) is not None
        assert worker._pool is not None  # noqa: SLF001 (the process the search ran in)
        (process,) = worker._pool._processes.values()  # noqa: SLF001
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == min(19, ours + pictures.LONGER.niceness)
    finally:
        worker.close()

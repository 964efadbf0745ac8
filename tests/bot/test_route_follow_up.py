"""The longer search that follows an unproven proposal by itself, on real SQLite files and the
optimizer's real worker processes: its answer becomes the proposal, and it is posted only after
the move's own reply is out and only while the game still stands where it was searched."""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from bot_helpers import imported, open_moderator, president_of
from usa_script import USA_LOGS, decider, typed_parts

from bot import pictures
from bot.config import ConfigError, load_settings
from bot.console import add_play_arguments, play
from bot.model import Actor, Command, Reply
from bot.moderator import Moderator
from bot.reminders import ReminderService
from storage import ReminderDue

S8603 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8603")
FIXTURE = next(path for path in USA_LOGS if path.stem == "109372")
# MKT has laid its track (action 1126); its 6-train and Pullman run next. With a millisecond the
# optimizer has no time for a proof; given longer it proves $420 in a few hundredths of a second.
MKT_RUNS = 1127
# B&O lays its track (109372's action 1441); its 8- and 6-train then run, a search of many seconds.
BO_LAYS = 1441
WAIT = 60.0


async def _lay(moderator: Moderator, log: Path, action: int) -> tuple[int, Actor, Reply]:
    """The game imported just before `action` (a tile lay), and the lay made by its president."""
    document = json.loads(log.read_text())
    game_id = await imported(moderator, log, action - 1)
    move = document["actions"][action - 1]
    president = await president_of(moderator, game_id, str(move["entity"]))
    laid = await moderator.perform(game_id, president, Command("action", {"json": json.dumps(move)}))
    assert laid.ok, laid.text
    # Given a millisecond, the optimizer proves nothing (on a big map it finds nothing at all).
    assert "(best found in the time allowed; /game routes searches longer)" in laid.text \
        or "Proposed runs" not in laid.text, laid.text
    return game_id, president, laid


@asynccontextmanager
async def _moderator(path: Path, seconds: float, announced: bool = True,
                     images: bool = False) -> AsyncIterator[tuple[Moderator, list[Reply]]]:
    """A Moderator with 1 ms proposals and `seconds` of follow-up, and what it posts by itself
    (as a front door would post it; nothing can be posted when not `announced`)."""
    repo, moderator = await open_moderator(path, router_budget=0.001, follow_up_seconds=seconds, images=images)
    posted: list[Reply] = []

    async def announce(reply: Reply) -> None:
        posted.append(reply)

    if announced:
        moderator.announce = announce
    try:
        yield moderator, posted
    finally:
        await moderator.follow_ups.close()
        await repo.close()


def _total(text: str) -> int:
    """The total of the proposal a reply gives ($0 if none)."""
    return int(text.split("total $", 1)[1].split()[0].rstrip(".")) if "total $" in text else 0


async def _until(condition: Callable[[], bool], what: str) -> None:
    waited = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < waited, f"waited {WAIT:g} s for {what}"
        await asyncio.sleep(0.005)


async def test_an_unproven_proposal_is_searched_on_and_posted_after_the_reply(tmp_path: Path) -> None:
    async with _moderator(tmp_path / "games.db", 20, images=True) as (moderator, posted):
        game_id, president, laid = await _lay(moderator, S8603, MKT_RUNS)
        quick = _total(laid.text)
        session = await moderator.sessions.get(game_id)

        def proven() -> bool:
            kept = session.proposal
            return kept is not None and kept[0] == laid.seq and kept[1] is not None and kept[1].proven_optimal

        # The answer is in and kept, but the move's reply is not out yet: nothing is posted.
        await _until(proven, "the follow-up's proven answer")
        await asyncio.sleep(0.1)
        assert posted == []
        moderator.delivered(laid)
        await asyncio.wait_for(moderator.follow_ups.settled(), WAIT)
        assert len(posted) == 1, [p.text for p in posted]
        answer = posted[0]
        assert answer.text.startswith("Searched 20 s more since the proposal: better runs, proven the best.\n"
                                      "Proposed runs for MKT: "), answer.text
        assert _total(answer.text) == 420 > quick
        assert (answer.game_id, answer.seq) == (game_id, laid.seq)
        assert [(b.label, b.verb) for b in answer.buttons] == [("Run for $420", "run:420")]
        # The better runs drawn: the map (and its close-up of the lay if the runs there changed);
        # the market and table did not change.
        assert [p.name for p in answer.pictures] in (["map.png"], ["map.png", "map-close-up.png"])
        assert all(p.data.startswith(b"\x89PNG") for p in answer.pictures)
        # /game routes knows the proof; /run with no routes runs the follow-up's answer.
        again = await moderator.search_routes(game_id, president, 5)
        assert again.text.startswith("Already proven the best runs:\nProposed runs for MKT: "), again.text
        # The lay's own button offered the quick runs: it no longer runs anything, and says why.
        stale = await moderator.perform(game_id, president, Command("run", {"offered_total": quick}))
        assert not stale.ok and stale.text.startswith(
            f"Not run: that button offered the runs for ${quick}, and a longer search has since found runs "
            "for $420. To run those, /run with no routes (or press “Run for $420” if it is offered)."), stale.text
        assert (await moderator.sessions.get(game_id)).seq == laid.seq
        ran = await moderator.perform(game_id, president, Command("run", {"offered_total": 420}))
        assert ran.ok and "MKT runs for $420" in ran.text, ran.text


async def test_a_follow_up_of_a_position_the_game_left_posts_nothing(tmp_path: Path) -> None:
    async with _moderator(tmp_path / "games.db", 20) as (moderator, posted):
        # The worker is busy (its lock held) until the president has run: the follow-up waits.
        await moderator.follow_ups.turn.acquire()
        try:
            game_id, president, laid = await _lay(moderator, S8603, MKT_RUNS)
            # The president runs the quick proposal at once, before the longer search is in.
            ran = await moderator.perform(game_id, president, Command("run"))
        finally:
            moderator.follow_ups.turn.release()
        assert ran.ok and f"MKT runs for ${_total(laid.text)}" in ran.text, ran.text
        moderator.delivered(laid)
        moderator.delivered(ran)
        await asyncio.wait_for(moderator.follow_ups.settled(), WAIT)
        assert posted == []
        session = await moderator.sessions.get(game_id)
        assert session.seq == ran.seq
        # The answer for the left position was not kept: the proposal there is still the quick one.
        assert session.proposal is not None and session.proposal[0] == laid.seq and session.proposal[1] is not None
        assert session.proposal[1].total == _total(laid.text) and not session.proposal[1].proven_optimal


async def test_no_follow_up_without_a_channel_or_seconds(tmp_path: Path) -> None:
    for seconds, announced in ((0.0, True), (20.0, False)):
        async with _moderator(tmp_path / f"games{seconds:g}{announced}.db", seconds, announced) as (moderator, posted):
            game_id, _, laid = await _lay(moderator, S8603, MKT_RUNS)
            moderator.delivered(laid)
            assert moderator.follow_ups.running is None and not moderator.follow_ups.turn.locked()
            await asyncio.wait_for(moderator.follow_ups.settled(), WAIT)
            assert posted == []
            session = await moderator.sessions.get(game_id)
            assert session.proposal is not None and session.proposal[1] is not None
            assert not session.proposal[1].proven_optimal  # nothing searched on


async def test_asking_for_routes_while_the_follow_up_searches_says_so(tmp_path: Path) -> None:
    async with _moderator(tmp_path / "games.db", 3) as (moderator, posted):
        game_id, president, laid = await _lay(moderator, FIXTURE, BO_LAYS)
        await _until(lambda: moderator.follow_ups.running == (game_id, laid.seq), "the follow-up to start")
        asked = await moderator.search_routes(game_id, president, 10)
        assert not asked.ok and asked.private
        assert asked.text == ("The optimizer is already searching these runs longer (3 s, since the proposal); "
                              "its answer is posted here when it is in."), asked.text
        moderator.delivered(laid)
        await asyncio.wait_for(moderator.follow_ups.settled(), WAIT)
        session = await moderator.sessions.get(game_id)
        assert session.proposal is not None and session.proposal[1] is not None
        kept = session.proposal[1]
        assert kept.total >= _total(laid.text)
        # Posted when, and only when, the longer search beat the proposal or proved it.
        assert len(posted) == (1 if kept.total > _total(laid.text) or kept.proven_optimal else 0)
        if posted:
            since = "since the proposal: " if "Proposed runs" in laid.text else "after the move: the best runs "
            assert posted[0].text.startswith(f"Searched 3 s more {since}"), posted[0].text
            assert _total(posted[0].text) == kept.total


def test_the_follow_up_seconds_are_configured_and_checked(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[bot]\n")
    assert load_settings(config, environ={}).router_follow_up == 20.0
    config.write_text("[bot]\nrouter_follow_up = 0\n")
    assert load_settings(config, environ={}).router_follow_up == 0.0
    for wrong in ("61", "-1", "nan", "true", '"20"'):
        config.write_text(f"[bot]\nrouter_follow_up = {wrong}\n")
        with pytest.raises(ConfigError, match="router_follow_up must be a number from 0 to 60, not "):
            load_settings(config, environ={})
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    assert parser.parse_args([]).router_follow_up == 20.0
    assert parser.parse_args(["--router-follow-up", "0"]).router_follow_up == 0.0
    for wrong in ("61", "-1", "nan", "soon"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--router-follow-up", wrong])


class _Terminal(io.StringIO):
    """Typed lines from a person at a terminal, who waits for the follow-up before Ctrl-D."""

    def __init__(self, lines: list[str], output: io.StringIO) -> None:
        super().__init__()
        self.lines, self.output = lines, output

    def isatty(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:
        if self.lines:
            return self.lines.pop(0)
        waited = time.monotonic() + WAIT
        while "Searched 20 s more" not in self.output.getvalue() and time.monotonic() < waited:
            time.sleep(0.05)
        return ""


async def test_the_terminal_prints_the_follow_up_between_typed_lines(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    repo, moderator = await open_moderator(db)
    try:
        game_id = await imported(moderator, S8603, MKT_RUNS - 1)
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        state = session.game.state
    finally:
        await repo.close()
    action = json.loads(S8603.read_text())["actions"][MKT_RUNS - 1]
    parts = typed_parts(state, action)
    assert parts is not None
    word, options = parts
    typed = f"@{decider(state, action)} /{word} " + " ".join(f"{name}:{value}" for name, value in options.items())
    output = io.StringIO()
    args = argparse.Namespace(title="18USA", players="", seed=None, site_rules=False, db=str(db), out=None,
                              images="none", game=game_id, strict=True, router_budget=0.001, router_follow_up=20.0)
    assert await play(args, _Terminal([typed + "\n"], output), output) == 0
    printed = output.getvalue()
    laid = printed.index("MKT lays tile")
    assert "(best found in the time allowed; /game routes searches longer)" in printed[laid:]
    followed = printed.index("Searched 20 s more since the proposal: better runs, proven the best.\n"
                             "Proposed runs for MKT: ")
    assert followed > laid and "total $420." in printed[followed:]


async def test_closing_during_a_follow_up_stops_its_worker_process(tmp_path: Path) -> None:
    """A front door stopping (Ctrl-D, the bot's close) must not wait for a long search to end:
    the worker searching is stopped with it."""
    async with _moderator(tmp_path / "games.db", 60) as (moderator, _):
        game_id, _, laid = await _lay(moderator, FIXTURE, BO_LAYS)
        # Not a moment picked by a sleep: on a loaded machine the worker may still be starting
        # (or the position still travelling to it) when the follow-up has begun. Wait until the
        # worker process has the search, which then takes many seconds of its 60.
        await _until(lambda: moderator.follow_ups.running == (game_id, laid.seq) and pictures.LONGER.in_worker == 1,
                     "the follow-up's search to be in the worker process")
        pool = pictures.LONGER._pool  # noqa: SLF001 (the process the search runs in)
        assert pool is not None
        workers = list(pool._processes.values())  # noqa: SLF001
        assert workers and all(worker.is_alive() for worker in workers)
        # Well before the search's 60 s are up (without stopping the worker it waits for them).
        await asyncio.wait_for(moderator.follow_ups.close(), 30)
        for worker in workers:
            worker.join(timeout=WAIT)
        assert not any(worker.is_alive() for worker in workers)
        assert moderator.follow_ups.pending == 0 and not moderator.follow_ups.turn.locked()


async def test_a_reminder_to_run_trains_gives_the_proposed_runs(tmp_path: Path) -> None:
    """The president reminded to run reads what /run would run, even after a restart (the
    proposal is then made again for the reminder)."""
    repo, moderator = await open_moderator(tmp_path / "games.db", router_budget=5)
    try:
        game_id = await imported(moderator, S8603, MKT_RUNS)  # MKT is to run: nothing proposed yet
        sent: list[tuple[int, str, tuple[int, ...]]] = []

        async def send(game: int, text: str, users: tuple[int, ...], nonce: str) -> None:
            sent.append((game, text, users))

        later = time.time() + 30 * 24 * 3600  # every seat long overdue
        reminders = ReminderService(moderator, send, clock=lambda: later)
        await reminders.fire(ReminderDue(game_id, int(later)))
        ((game, text, _),) = sent
        assert game == game_id and text.startswith(f"Reminder: game #{game_id} is waiting.\n")
        turn, runs = text.splitlines()[1:]
        assert turn.startswith("@P4 — MKT: ") and "run trains (/run)" in turn, turn
        assert runs.startswith("Proposed runs for MKT: 6-3: ") and " — 6-3 $" in runs and \
            " with Pullman on the 6-train 6-3" in runs and "total $420. Confirm with /run" in runs, runs
    finally:
        await repo.close()


async def test_the_status_of_a_game_whose_company_is_to_run_gives_the_proposed_runs(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db", router_budget=5)
    try:
        game_id = await imported(moderator, S8603, MKT_RUNS)
        status = await moderator.status(game_id)
        assert status.ok and status.text.splitlines()[-1].startswith("Proposed runs for MKT: "), status.text
        assert "total $420. Confirm with /run" in status.text
        before = await imported(moderator, S8603, MKT_RUNS - 1)  # MKT still lays track: nothing to run
        assert "Proposed runs" not in (await moderator.status(before)).text
    finally:
        await repo.close()

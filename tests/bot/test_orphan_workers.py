"""No orphans (issue 31, item 11): a moderator (`stationmaster play` on a PostgreSQL database)
that has started the optimizer's worker (and the two picture workers) and multiprocessing's
resource tracker is killed with SIGKILL, SIGTERM or SIGHUP, and none of its children lives on.

The move that starts them: in the 18Texas fixture 65394, Player 3's lay before action 46 brings
SP to run its 2-train, so the reply carries the optimizer's proposal and the pictures.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fixture_script import script
from live_processes import WAIT, Terminal, descendants, fixture_game_before, running, until
from multiproc_helpers import create_database, drop_database

from storage import open_repository

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
BEFORE = 44  # the fixture's moves before Player 3's lay that brings SP to its run
ENDED = 30.0  # seconds the children have to notice their parent is gone (a busy machine)
STARTING = 120.0  # seconds for workers to start (they import the engine, the solver, the renderer)


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


@pytest.mark.parametrize(("kill", "images"), [(signal.SIGKILL, "each"), (signal.SIGTERM, "none"),
                                             (signal.SIGHUP, "none")], ids=["SIGKILL", "SIGTERM", "SIGHUP"])
async def test_the_workers_end_with_a_killed_moderator(pg_url: str, tmp_path: Path, kill: signal.Signals,
                                                       images: str) -> None:
    """With pictures (SIGKILL) the moderator has four children: the optimizer's worker, two picture
    workers and the resource tracker; without (the other signals, to keep the test short) two."""
    lines = script(FIXTURE)[0]
    assert lines[BEFORE + 1].startswith("@Player 3 /run")
    game_id = await fixture_game_before(pg_url, lines[:BEFORE])
    # A test run started under nohup ignores SIGHUP, and its children would inherit that: the
    # moderator is started with the signal's default action, as from a terminal.
    inherited = signal.signal(signal.SIGHUP, signal.SIG_DFL)
    try:
        terminal = await Terminal.start("--game", str(game_id), "--db", pg_url, "--out", str(tmp_path), images=images)
    finally:
        signal.signal(signal.SIGHUP, inherited)
    workers = 3 if images == "each" else 1
    try:
        await terminal.expect(f"18Texas game #{game_id} (active)")
        answer = await terminal.expect("Confirm with /run", await terminal.send(lines[BEFORE]), timeout=STARTING)
        assert "Proposed runs for SP: 2-2: " in answer, answer  # the optimizer's worker answered

        def children() -> dict[int, str]:
            return descendants(terminal.process.pid)

        def started() -> bool:
            found = children().values()
            return (sum("multiprocessing.spawn" in c for c in found) >= workers
                    and any("multiprocessing.resource_tracker" in c for c in found))

        await until(started, STARTING, lambda: f"{workers} worker(s) and the resource tracker: {children()}")
        pids = list(children())
        terminal.process.send_signal(kill)
        assert await asyncio.wait_for(terminal.process.wait(), WAIT) == -kill
        await until(lambda: not running(pids), ENDED,
                    lambda: f"the children of the killed moderator to end: {running(pids)} of {pids}")
    finally:
        await terminal.kill()
    repo = await open_repository(pg_url)
    try:  # the move was committed before its reply: nothing acknowledged was lost
        assert len((await repo.load_game(game_id)).actions) == BEFORE + 1
    finally:
        await repo.close()

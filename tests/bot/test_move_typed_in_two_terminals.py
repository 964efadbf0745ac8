"""A move that stays legal twice, typed at the same position in two processes at once (issue
31, item 13): two `stationmaster play --game 1` processes on one PostgreSQL database, both
showing the 18Texas fixture before its action 48, where Player 3 passes twice in a row. Each
is sent "@Player 3 /pass" while the game is held elsewhere, so both wait for it together.
Exactly one pass is made: the other terminal's line was typed at a position the game has
left, and is refused saying so, whichever process it reached. The same for `/game undo`,
which would otherwise take back two moves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from fixture_script import script
from live_processes import Terminal, fixture_game_before, hold_game_lock, lock_waiters, no_traceback
from multiproc_helpers import create_database, drop_database

from storage import open_repository

FIXTURE = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
BEFORE = 47  # the fixture's moves before Player 3's two passes in a row


def moved_on(typed_at: int) -> str:
    return (f"error: Not made: the game has moved on since this was typed (it was at move {typed_at}, "
            f"it is at move {typed_at + 1} now")


@pytest.fixture
async def pg_url(postgres_server: Any) -> AsyncIterator[str]:
    name, url = await create_database(postgres_server)
    yield url
    await drop_database(postgres_server, name)


async def stored_count(url: str, game_id: int) -> int:
    repo = await open_repository(url)
    try:
        return len((await repo.load_game(game_id)).actions)
    finally:
        await repo.close()


async def at_once(url: str, game_id: int, terminals: list[Terminal], line: str) -> list[str]:
    """Type ``line`` in every terminal while the game is held elsewhere, so that all wait for it
    at the same position; then let go. Returns each terminal's answer."""
    holder = await hold_game_lock(url, game_id)
    marks = [await terminal.send(line) for terminal in terminals]
    await lock_waiters(url, game_id, count=len(terminals))
    await holder.close()
    answers = []
    for terminal, mark in zip(terminals, marks, strict=True):
        await terminal.send("/game status")  # answered after the line, so the line's answer is whole
        output = await terminal.expect(f"18Texas game #{game_id} (active)", mark)
        answers.append(output.split(f"18Texas game #{game_id} (active)")[0])
    return answers


async def test_a_pass_or_an_undo_typed_at_one_position_in_two_terminals_is_made_once(pg_url: str) -> None:
    lines = script(FIXTURE)[0]
    assert lines[BEFORE] == lines[BEFORE + 1] == "@Player 3 /pass"
    game_id = await fixture_game_before(pg_url, lines[:BEFORE])
    terminals = [await Terminal.start("--game", str(game_id), "--db", pg_url) for _ in range(2)]
    try:
        for terminal in terminals:
            await terminal.expect(f"18Texas game #{game_id} (active)")
        answers = await at_once(pg_url, game_id, terminals, "@Player 3 /pass")  # both typed at move 47
        refused = [a for a in answers if a.startswith(moved_on(BEFORE))]
        made = [a for a in answers if not a.startswith("error:")]
        assert len(refused) == 1 and len(made) == 1, answers
        assert made[0].startswith("SP passes") and "Now: " in refused[0], answers
        assert await stored_count(pg_url, game_id) == BEFORE + 1

        answers = await at_once(pg_url, game_id, terminals, "/game undo")  # both typed at move 48
        refused = [a for a in answers if a.startswith(moved_on(BEFORE + 1))]
        made = [a for a in answers if a.startswith("Undone: SP passes")]
        assert len(refused) == 1 and len(made) == 1, answers
        assert await stored_count(pg_url, game_id) == BEFORE + 2  # the pass and one undo
        assert [await terminal.finish() for terminal in terminals] == [0, 0]
    finally:
        for terminal in terminals:
            await terminal.kill()
    no_traceback(*(t.text + t.errors for t in terminals))

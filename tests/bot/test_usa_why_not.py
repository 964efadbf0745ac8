"""A command no legal move is made by now says why, in the engine's words, instead of only
"/loan is not possible now": SP at its most loans, SP repaying before its interest, a second
short sale in one turn (109372 before 144, SP's first turn; before 592, Player 1's stock turn).
"""

from __future__ import annotations

from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.dispatch import handle
from bot.model import Actor, Command

LOG = next(path for path in USA_LOGS if path.stem == "109372")
PLAYER_1 = Actor(user_id=None, name="Player 1")


async def test_a_move_that_is_not_possible_says_why(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        sp_turn = await imported(moderator, LOG, 144)
        for _ in range(2):
            assert (await handle(moderator, sp_turn, PLAYER_1, Command("loan"))).ok
        third = await handle(moderator, sp_turn, PLAYER_1, Command("loan"))
        assert not third.ok and third.text.startswith(
            "/loan is not possible now: SP already holds 2 loans, the most it may (one per share).\nNow:"), third.text
        early = await handle(moderator, sp_turn, PLAYER_1, Command("repay"))
        assert not early.ok and early.text.startswith(
            "/repay is not possible now: SP repays loans after paying interest, at the end of its turn (12.9)."), \
            early.text
        assert await repo.last_seq(sp_turn) == 146

        stock_turn = await imported(moderator, LOG, 592)
        assert (await handle(moderator, stock_turn, PLAYER_1, Command("short", {"corporation": "PRR"}))).ok
        second = await handle(moderator, stock_turn, PLAYER_1, Command("short", {"corporation": "NYC"}))
        assert not second.ok and second.text.startswith(
            "/short is not possible now: one share may be sold short each turn (11.2)."), second.text
        assert await repo.last_seq(stock_turn) == 593
    finally:
        await repo.close()

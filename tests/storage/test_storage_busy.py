"""A write that waits too long for another connection's write lock on a SQLite file (a process
frozen inside its transaction, say) is told the game is busy (GameBusy), not "database is
locked", and changes nothing; the same write goes through once the lock is let go."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import GameBusy, NewGame, NewSeat, SqliteGameRepository


async def test_a_write_behind_a_held_sqlite_write_lock_is_told_busy(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    repo = await SqliteGameRepository.open(path, busy_timeout=0.3)
    try:
        game_id = await repo.create_game(NewGame("18Texas", 1, status="active"),
                                         [NewSeat(n, name) for n, name in enumerate("abc", 1)])
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process's write transaction, frozen
        with pytest.raises(GameBusy) as raised:
            await repo.append_action(game_id, 1, {"type": "pass", "entity": 1, "entity_type": "player"}, None)
        assert "held it for more than 0.3 s" in str(raised.value)
        holder.execute("ROLLBACK")
        holder.close()
        assert await repo.list_actions(game_id) == []
        await repo.append_action(game_id, 1, {"type": "pass", "entity": 1, "entity_type": "player"}, None)
        assert [a.seq for a in await repo.list_actions(game_id)] == [1]
    finally:
        await repo.close()

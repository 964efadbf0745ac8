"""A stored game whose log the engine no longer replays (a rules change now refuses one of its
stored moves) must not crash the moderator or hold up the other games: every command on it says
which game and which move fail and why, moves are refused and change nothing, its log can
still be exported, and its creator (or a server manager) can take the refused move back with
/game undo, after which it plays again.

Two games imported from a generated 18USA log (s8400, its first 40 actions, in the private
auction), in one SQLite file; to the first, the log's next bid is stored at $10 below its
private's minimum (the store keeps what it is given; the engine refuses it), then a pass.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot_helpers import open_moderator
from usa_script import USA_LOGS

from bot.console_hints import choices_text
from bot.dispatch import handle
from bot.model import Actor, Command
from bot.moderator import Moderator

LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8400")
KEPT = 40
ADMIN = Actor(user_id=None, name="", manager=True)  # the person at the terminal
PLAYER = Actor(user_id=None, name="P1", manager=False)


async def two_games(path: Path) -> tuple[int, int]:
    """Game ids (broken, sound), stored and the store closed (the next open is a restart)."""
    document = json.loads(LOG.read_text())
    logged = document["actions"]
    document["actions"] = logged[:KEPT]
    repo, moderator = await open_moderator(path)
    try:
        ids = []
        for _ in range(2):
            imported = await moderator.import_game(ADMIN, json.dumps(document))
            assert imported.ok and imported.game_id is not None, imported.text
            ids.append(imported.game_id)
        refused: dict[str, Any] = {**logged[KEPT], "price": 10}
        assert refused["type"] == "bid" and refused["entity"] == "P4"
        await repo.append_action(ids[0], KEPT + 1, refused, None)
        await repo.append_action(ids[0], KEPT + 2, logged[KEPT + 1], None)
    finally:
        await repo.close()
    return ids[0], ids[1]


async def stored_count(moderator: Moderator, game_id: int) -> int:
    return len((await moderator.repo.load_game(game_id)).actions)


async def test_a_game_that_no_longer_replays_says_why_and_the_others_play_on(tmp_path: Path) -> None:
    broken, sound = await two_games(tmp_path / "games.db")
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        status = await handle(moderator, broken, ADMIN, Command("game status"))
        assert f"Game #{broken} cannot be replayed: its move {KEPT + 1} (P4 bids $10 on" in status.text
        assert "/game undo steps:2" in status.text
        move = await handle(moderator, broken, Actor(None, "P4", False), Command("pass"))
        assert not move.ok and f"its move {KEPT + 1}" in move.text
        for word in ("game log", "game map", "game undo"):
            refused = await handle(moderator, broken, PLAYER if word == "game undo" else ADMIN, Command(word))
            assert not refused.ok and "cannot be replayed" in refused.text, (word, refused.text)
        assert "cannot be replayed" in await choices_text(moderator, broken)
        assert await moderator.suggest(broken, Actor(None, "P4", False), "bid", "company", "", {}) == []
        assert await stored_count(moderator, broken) == KEPT + 2
        exported = await handle(moderator, broken, ADMIN, Command("game export"))
        assert exported.ok and exported.document is not None and len(exported.document["actions"]) == KEPT + 2

        # The other game in the same store plays on.
        assert (await handle(moderator, sound, Actor(None, "P4", False), Command("pass"))).ok
        assert await stored_count(moderator, sound) == KEPT + 1

        # Undoing too little changes nothing; undoing the refused move recovers the game.
        short = await handle(moderator, broken, ADMIN, Command("game undo", {"steps": 1}))
        assert not short.ok and "still does not replay" in short.text
        assert await stored_count(moderator, broken) == KEPT + 2
        recovered = await handle(moderator, broken, ADMIN, Command("game undo", {"steps": 2}))
        assert recovered.ok and "The game replays again" in recovered.text, recovered.text
        assert (await handle(moderator, broken, Actor(None, "P4", False), Command("pass"))).ok
        assert await stored_count(moderator, broken) == KEPT + 4
    finally:
        await repo.close()

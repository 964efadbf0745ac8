"""18USA rules 12.6 and 12.7 through the Moderator: a train from a company with another president
is bought only once that president accepts, as for 18Texas (`test_moderator_consent.py`).

The position: tests/data/positions/usa_train_from_another_president.json (the deep random player,
4 players, seed 1): TP (Player 3) at its buy-trains step, N&W (Player 2) holding the 2-0."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator

from bot.model import Actor, Command

POSITION = Path(__file__).resolve().parents[1] / "data" / "positions" / "usa_train_from_another_president.json"
BUY = Command("train", {"train": "2-0", "price": 30})


async def test_the_seller_is_asked_and_only_their_accept_makes_the_purchase(tmp_path: Path) -> None:
    actions = json.loads(POSITION.read_text())["actions"]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, POSITION, len(actions))
        asked = await moderator.perform(game_id, Actor(None, "Player 3"), BUY)
        assert asked.ok, asked.text
        assert "TP asks to buy your 2-train (2-0) from N&W for $30" in asked.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None and "2-0" in [t.id for t in session.game.state.corporation("N&W").trains]
        outcome = await moderator.accept(game_id, Actor(None, "Player 2"))
        assert outcome.committed, outcome.reply.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None and [t.id for t in session.game.state.corporation("TP").trains] == ["2-0"]
    finally:
        await repo.close()

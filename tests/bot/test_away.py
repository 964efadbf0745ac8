"""`/auto away until:` in the terminal (the Moderator with a real store): the table is told; the
bot passes for the player where passing is the only sensible choice (a stock-round turn, here
with the other players' standing orders after it), stops at their company's operating turn, and
the player, pinged there, hears how often it passed for them; `/auto back` ends it. Reference
game 65394 imported at Stock Round 3, Player 1 to act."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator

from bot.dispatch import handle
from bot.model import Actor, Command
from engine import load_game
from engine.legal import move_decider

LOG = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"


def _seat(name: str) -> Actor:
    return Actor(None, name)


async def test_away_passes_where_passing_is_sensible_and_stops_at_the_players_company(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, LOG, 85)  # Stock Round 3: Player 1 to act
        refused = await handle(moderator, game_id, _seat("Player 1"), Command("auto away", {"until": "yesterday"}))
        assert not refused.ok and "until: is a date (2026-12-24)" in refused.text
        away = await handle(moderator, game_id, _seat("Player 1"), Command("auto away", {"until": "3d"}))
        assert away.ok, away.text
        lines = away.text.splitlines()
        assert lines[0].startswith("Player 1 is away until ") and "leaves them the decisions that cost money" in lines[0]
        assert lines[1].startswith("Player 1 passes (away until ")
        assert "Player 2 passes (standing order)" in lines and "Player 3 passes (standing order)" in lines
        assert "Operating Round 3.1" in lines
        status = await handle(moderator, game_id, _seat("Player 2"), Command("game status"))
        assert "Away: Player 1 (until " in status.text
        shown = await handle(moderator, game_id, _seat("Player 1"), Command("auto show"))
        assert "You are away until " in shown.text

        # The operating round, as logged, until Player 1's SAA is to operate: its turn is theirs.
        for action in document["actions"][86:]:
            session = await moderator.sessions.get(game_id)
            assert session.game is not None
            state = session.game.state
            if any(corp.id == "SAA" for corp in [state.round.acting_entity(state)]):
                break
            player = move_decider(state, action)
            assert player is not None
            sent = {k: v for k, v in action.items() if k not in ("id", "created_at", "auto_actions")}
            if sent["type"] == "run_routes":
                sent["routes"] = [{"train": r["train"], "connections": r["connections"]} for r in sent["routes"]]
            reply = await handle(moderator, game_id, _seat(player.name), Command("action", {"json": json.dumps(sent)}))
            assert reply.ok, reply.text
        # The move that handed SAA its turn pinged Player 1, and told them what the bot did.
        assert "@Player 1 — SAA: " in reply.text, reply.text
        assert "Player 1: while you were away the bot passed for you once (moves " in reply.text
        back = await handle(moderator, game_id, _seat("Player 1"), Command("auto back"))
        assert back.ok and back.text == "Player 1 is back."
        again = await handle(moderator, game_id, _seat("Player 1"), Command("auto back"))
        assert not again.ok and "You are not away" in again.text
        stored = [a.action for a in await repo.list_actions(game_id)]
    finally:
        await repo.close()
    # The pass is an ordinary move in the log: it replays, and an export needs nothing of ours.
    passed = stored[85]
    assert passed["type"] == "pass" and passed["entity"] == document["actions"][0]["entity"]
    load_game({**document, "actions": stored}, recompute=True)

"""A company nobody presides (its president went bankrupt during its operating turn, rule 15)
passes the rest of its turn by itself: before, the game waited for a decider that does not exist
and nobody could move again. The passes are stored inside the move that caused them (as the
site's auto_actions), so the log replays and an undo takes both back.

The position: tests/data/positions/usa_presidentless_company_turn.json (random legal play, 5
players, seed 8005), whose last action is Player 5's bankruptcy while paying NP's interest."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator

from bot.model import Actor, Command
from bot.sessions import Sessions

POSITION = Path(__file__).resolve().parents[1] / "data" / "positions" / "usa_presidentless_company_turn.json"


async def test_the_bankruptcy_is_followed_by_the_company_s_passes_and_the_game_goes_on(tmp_path: Path) -> None:
    actions = json.loads(POSITION.read_text())["actions"]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, POSITION, len(actions) - 1)
        bankrupt = await moderator.perform(game_id, Actor(None, "Player 5"), Command("bankrupt"))
        assert bankrupt.ok, bankrupt.text
        assert "@Player 4 — GN: lay track (/lay)" in bankrupt.text  # GN's president, whose turn it is
        log = (await moderator.log_lines(game_id, 40)).text.splitlines()
        told = log.index("Nobody presides NP (15): it passes.")
        assert log[told - 1] == "Player 5 is bankrupt" and "Operating Round 5.2" in log[told:]
        stored = (await repo.list_actions(game_id))[-1].action
        assert stored["type"] == "bankrupt"
        assert stored["auto_actions"] == [{"type": "pass", "entity": "NP", "entity_type": "corporation",
                                           "created_at": stored["created_at"]}]
        # The next company's president is asked, and can move.
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        president = session.game.state.corporations["GN"].president()
        assert president is not None and f"@{president.name}" in bankrupt.text
        # The log as stored replays to the same position (a restart).
        again = await Sessions(repo).get(game_id)
        assert again.game is not None and again.game.state.round.current_entity(again.game.state).id == "GN"
        # The terminal's undo takes the bankruptcy back with its passes.
        undone = await moderator.undo(game_id, Actor(None, "", manager=True))
        assert undone.reply.ok, undone.reply.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None and not session.game.state.players[4].bankrupt
    finally:
        await repo.close()


async def test_a_log_imported_up_to_that_point_goes_on_at_once(tmp_path: Path) -> None:
    actions = json.loads(POSITION.read_text())["actions"]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, POSITION, len(actions))
        stored = [a.action for a in await repo.list_actions(game_id)]
        assert len(stored) == len(actions) + 1
        assert stored[-1] == {"type": "pass", "entity": "NP", "entity_type": "corporation",
                              "id": stored[-1]["id"], "created_at": stored[-1]["created_at"]}
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        assert session.game.state.round.current_entity(session.game.state).id == "GN"
    finally:
        await repo.close()

"""A company nobody presides (its president went bankrupt during its operating turn, rule 15)
passes the rest of its turn by itself: before, the game waited for a decider that does not exist
and nobody could move again. The passes are stored inside the move that caused them (as the
site's auto_actions), so the log replays and an undo takes both back.

The position: tests/data/positions/usa_presidentless_company_turn.json (random legal play by the
rare-path player, 5 players, seed 8014), whose last action is Player 4's bankruptcy while paying
WP's interest in Operating Round 3.2; NYC (Player 2) acts next."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator

from bot.model import Actor, Command
from bot.sessions import Sessions
from engine.core.game import BaseGame
from engine.legal import legal_moves


def acting_companies(state: BaseGame) -> set[str]:
    """The companies whose moves the legal moves offer."""
    return {str(move["entity"]) for move in legal_moves(state)}


POSITION = Path(__file__).resolve().parents[1] / "data" / "positions" / "usa_presidentless_company_turn.json"


async def test_the_bankruptcy_is_followed_by_the_company_s_passes_and_the_game_goes_on(tmp_path: Path) -> None:
    actions = json.loads(POSITION.read_text())["actions"]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, POSITION, len(actions) - 1)
        bankrupt = await moderator.perform(game_id, Actor(None, "Player 4"), Command("bankrupt"))
        assert bankrupt.ok, bankrupt.text
        # NYC's president, asked first whether P13 keeps a 2-train (phase 4 began with the bankruptcy)
        assert "@Player 2 — NYC: attach to a train (/attach), or pass (/pass)" in bankrupt.text
        log = (await moderator.log_lines(game_id, 40)).text.splitlines()
        told = log.index("Nobody presides WP (15): it passes.")
        assert log[told - 2:told] == ["Player 4 is bankrupt", "The certificate limit is now 21"]
        # The operating round goes on past WP: the end of its turn exports a train (phase 4).
        assert log[told + 1:] == ["A 4-train is exported", "Phase 4 begins", "NYC may keep one of its 2-trains with P13"]
        stored = (await repo.list_actions(game_id))[-1].action
        assert stored["type"] == "bankrupt"
        assert stored["auto_actions"] == [{"type": "pass", "entity": "WP", "entity_type": "corporation",
                                           "created_at": stored["created_at"]}]
        # The next company's president is asked, and can move.
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        president = session.game.state.corporations["NYC"].president()
        assert president is not None and f"@{president.name}" in bankrupt.text
        # The log as stored replays to the same position (a restart).
        again = await Sessions(repo).get(game_id)
        assert again.game is not None and acting_companies(again.game.state) == {"NYC"}
        # The terminal's undo takes the bankruptcy back with its passes.
        undone = await moderator.undo(game_id, Actor(None, "", manager=True))
        assert undone.reply.ok, undone.reply.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None and not session.game.state.players[3].bankrupt
    finally:
        await repo.close()


async def test_a_log_imported_up_to_that_point_goes_on_at_once(tmp_path: Path) -> None:
    actions = json.loads(POSITION.read_text())["actions"]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, POSITION, len(actions))
        stored = [a.action for a in await repo.list_actions(game_id)]
        assert len(stored) == len(actions) + 1
        assert stored[-1] == {"type": "pass", "entity": "WP", "entity_type": "corporation",
                              "id": stored[-1]["id"], "created_at": stored[-1]["created_at"]}
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        assert acting_companies(session.game.state) == {"NYC"}
    finally:
        await repo.close()

"""18USA runs with attachments: the optimizer's proposal puts a Pullman (or a private's
switcher or extender) on a train, and confirming the proposal sends the `choose` moves that
attach them before the run, so the company earns exactly what the proposal said. The choices
are shown by name (the attachment and its train), not by the site's codes."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import open_moderator
from usa_script import USA_LOGS

from bot.console import TABLE
from bot.model import Actor, Command
from bot.route_search import proposal_text
from engine.legal import legal_moves, move_decider

LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8603")
BEFORE_CHOICE = 1063  # MKT's turn, its Pullman not yet attached: the log chooses, then runs


async def test_confirming_the_proposal_attaches_what_the_optimizer_counted(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    assert document["actions"][BEFORE_CHOICE]["type"] == "choose"
    repo, moderator = await open_moderator(tmp_path / "usa.db", router_budget=5.0)
    try:
        imported = await moderator.import_game(TABLE, json.dumps({**document,
                                                                   "actions": document["actions"][:BEFORE_CHOICE]}))
        assert imported.ok and imported.game_id is not None, imported.text
        game_id = imported.game_id
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        state = session.game.state
        (attach,) = [m for m in legal_moves(state) if m["type"] == "choose"]
        president = move_decider(state, attach)
        assert president is not None
        who = Actor(user_id=None, name=president.name)
        corporation = str(attach["entity"])

        # /attach offers the choices by name: the attachment and the train it goes on.
        offered = await moderator.suggest(game_id, who, "attach", "choice", "", {})
        assert offered and all("-train" in label and label != value for label, value in offered), offered
        assert any("Pullman on the" in label for label, _ in offered), offered

        # The proposal counts an attachment and names it; confirming it attaches that, then runs.
        proposal = await moderator._proposal(session, state, session.seq)
        assert proposal is not None and any(run.attachments for run in proposal.runs), proposal
        text = proposal_text(state, proposal)
        assert " with Pullman on the " in text, text
        before = len(session.actions)
        reply = await moderator.perform(game_id, who, Command("run"))
        assert reply.ok, reply.text
        session = await moderator.sessions.get(game_id)
        made = [stored.action for stored in session.actions[before:]]
        kinds = [a["type"] for a in made]
        assert kinds[:-1] and set(kinds[:-1]) == {"choose"} and kinds[-1] == "run_routes", kinds
        assert session.game is not None
        earned = sum(run.revenue for run in session.game.state.last_runs)
        assert earned == proposal.total
        assert f"{corporation} runs for ${earned}" in reply.text, reply.text
    finally:
        await repo.close()

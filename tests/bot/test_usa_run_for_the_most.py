"""18USA rule 12.4 at the table (printed rules): runs below the most the company can earn are
refused with the way to run the most, and the check takes the optimizer's answer from its worker
process. s8603 action 1127: MKT ran its 6-train for $300 without its Pullman; the most is $420."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.model import Actor, Command
from engine import EXPORT_KEY
from engine.log import document_options

S8603 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_6p_s8603")
MKT_RUNS = 1127


async def test_printed_rules_refuse_the_logged_run_and_run_runs_the_most(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db", router_budget=2.0)
    try:
        document = json.loads(S8603.read_text())
        # As a player would send it (the site's log adds what the engine works out itself).
        logged_run = {key: value for key, value in document["actions"][MKT_RUNS].items()
                      if key in ("type", "entity", "entity_type", "routes")}
        printed = [option for option in document_options(document) if option != "site_any_runs"]
        game_id = await imported(moderator, S8603, MKT_RUNS - 1, **{EXPORT_KEY: {"rule_options": printed}})
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        president = session.game.state.corporations["MKT"].president()
        assert president is not None
        player = Actor(None, president.name)
        laid = await moderator.perform(game_id, player, Command("action", {"json": json.dumps(
            document["actions"][MKT_RUNS - 1])}))
        assert laid.ok and "Proposed runs for MKT" in laid.text and "total $420" in laid.text, laid.text
        before = await repo.last_seq(game_id)
        refused = await moderator.perform(game_id, player, Command("action", {"json": json.dumps(logged_run)}))
        assert not refused.ok
        assert "MKT's runs earn $300, but its trains can earn $420, no more" in refused.text, refused.text
        assert "To run for $420: /run with no routes runs the proposed runs" in refused.text
        assert await repo.last_seq(game_id) == before
        ran = await moderator.perform(game_id, player, Command("run"))
        assert ran.ok and "MKT runs for $420" in ran.text, ran.text
        made = [stored.action["type"] for stored in (await repo.list_actions(game_id))[-2:]]
        assert made == ["choose", "run_routes"]
    finally:
        await repo.close()

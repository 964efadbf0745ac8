"""/attach at the table: with two attachments on offer, an /attach that does not say which is
refused with both named (the terminal let it through as no options at all and attached the
first, and the reply said only "PRR choose"); the one chosen is said in players' words, in the
reply and in the game log.

The position: 109372 before action 233, PRR with P30's extender to put on one of its 2-trains.
"""

from __future__ import annotations

import io
from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.console import TABLE, Console
from bot.console_hints import choices_text
from bot.dispatch import handle
from bot.model import Actor, Command

LOG = next(path for path in USA_LOGS if path.stem == "109372")
BEFORE_CHOICE = 233
PRESIDENT = Actor(user_id=None, name="Player 4")


async def test_attach_says_which_and_what_it_did(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        game_id = await imported(moderator, LOG, BEFORE_CHOICE)

        listed = await choices_text(moderator, game_id)
        assert ("@Player 4 /attach choice: 0-0 (Double Heading (extender) on the 2-train 2-2); "
                "1-0 (Double Heading (extender) on the 2-train 2-3)") in listed, listed
        out = io.StringIO()
        await Console(moderator, game_id, None, out).line("@Player 4 /attach")
        # The terminal says what the missing option may be, as Discord's command does (below).
        assert out.getvalue().startswith(
            "error: /attach needs choice:, one of 0-0 (Double Heading (extender) on the 2-train 2-2), "
            "1-0 (Double Heading (extender) on the 2-train 2-3)."), out.getvalue()
        unsaid = await handle(moderator, game_id, PRESIDENT, Command("attach", {}))
        assert not unsaid.ok and unsaid.text.startswith(
            "/attach needs choice:, one of 0-0 (Double Heading (extender) on the 2-train 2-2), "
            "1-0 (Double Heading (extender) on the 2-train 2-3)"), unsaid.text
        assert await repo.last_seq(game_id) == BEFORE_CHOICE

        attached = await handle(moderator, game_id, PRESIDENT, Command("attach", {"choice": "1-0"}))
        said = "PRR puts Double Heading (extender) on its 2-train 2-3 for this run"
        assert attached.ok and attached.text.startswith(said), attached.text
        assert said in (await handle(moderator, game_id, TABLE, Command("game log", {"lines": 3}))).text
    finally:
        await repo.close()

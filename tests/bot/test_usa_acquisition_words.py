"""The winner of an acquisition auction is told what /merge does there: name which of their
companies buys (the turn text said only "merge (/merge)"). 109372 before action 553: Player 3
bids $310 for B&O, then names N&W or MKT as the buyer.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import open_moderator
from usa_script import USA_LOGS

from bot.console import TABLE
from bot.dispatch import handle
from bot.model import Actor, Command

LOG = next(path for path in USA_LOGS if path.stem == "109372")


async def test_the_winner_is_asked_which_company_buys(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    document["actions"] = document["actions"][:553]
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        imported = await moderator.import_game(TABLE, json.dumps(document))
        assert imported.ok and imported.game_id is not None, imported.text
        bid = await handle(moderator, imported.game_id, Actor(None, "Player 3"),
                           Command("bid", {"company": "B&O", "price": 310}))
        assert bid.ok, bid.text
        assert "@Player 3 — name which of your companies buys B&O for $310: MKT, N&W (/merge)" in bid.text, bid.text
    finally:
        await repo.close()

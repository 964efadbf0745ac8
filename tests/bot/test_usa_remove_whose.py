"""/remove in a city holding two stations that may be removed: whose is asked, not guessed.

In an 18USA company sale as the site plays it (`site_sale_stations`, rule 14.3), the buyer may
also take off another company's station in a city where one of its own is; that one goes back to
its owner and counts for nothing. The position: generated game s8602 before action 1231, where
DRG (having bought NP) must remove stations and Denver (E11, city 63-2-0) holds NP's station in
slot 0 and WP's in slot 1; the log's player took WP's off. `/remove city:E11` used to take NP's,
the first slot, with no word of WP's.
"""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator, president_of
from usa_script import USA_LOGS

from bot.model import Command

LOG = next(path for path in USA_LOGS if path.stem.endswith("s8602"))
BEFORE_REMOVAL = 1231
WP_NOT_COUNTED = "goes back to WP; does not count as one of DRG's"


async def test_a_city_with_two_stations_to_remove_asks_whose(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        game_id = await imported(moderator, LOG, BEFORE_REMOVAL)
        president = await president_of(moderator, game_id, "DRG")
        before = await repo.last_seq(game_id)
        offered = await moderator.suggest(game_id, president, "remove", "city", "", {})
        assert ("E11 Denver — owner: NP or WP", "E11") in offered, offered
        owners = await moderator.suggest(game_id, president, "remove", "owner", "", {"city": "E11"})
        assert owners == [("NP", "NP"), (f"WP — {WP_NOT_COUNTED}", "WP")]
        for city in ("E11", "63-2-0"):
            asked = await moderator.perform(game_id, president, Command("remove", {"city": city}))
            assert not asked.ok and asked.text.startswith(
                "E11 (city 63-2-0) holds more than one station DRG may remove; say whose: "
                f"owner:NP or owner:WP ({WP_NOT_COUNTED})"), asked.text
        wrong = await moderator.perform(game_id, president, Command("remove", {"city": "E11", "owner": "MILW"}))
        assert not wrong.ok and wrong.text.startswith(
            "E11 (city 63-2-0) has no station of MILW that DRG may remove; say owner:NP or owner:WP"), wrong.text
        assert await repo.last_seq(game_id) == before

        removed = await moderator.perform(game_id, president, Command("remove", {"city": "E11", "owner": "wp"}))
        assert removed.ok, removed.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        logged = json.loads(LOG.read_text())["actions"][BEFORE_REMOVAL]
        assert (logged["city"], logged["slot"]) == ("63-2-0", 1)
        last = session.actions[-1].action
        assert (last["type"], last["entity"], last["city"], last["slot"]) == ("remove_token", "DRG", "63-2-0", 1)
        assert session.game.state.board.hexes["E11"].tokens[0][:2] == ["NP", None]
    finally:
        await repo.close()


async def test_the_company_own_station_is_taken_when_named(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        game_id = await imported(moderator, LOG, BEFORE_REMOVAL)
        president = await president_of(moderator, game_id, "DRG")
        removed = await moderator.perform(game_id, president, Command("remove", {"city": "63-2-0", "owner": "NP"}))
        assert removed.ok, removed.text
        session = await moderator.sessions.get(game_id)
        assert session.game is not None
        assert session.game.state.board.hexes["E11"].tokens[0][:2] == [None, "WP"]
    finally:
        await repo.close()

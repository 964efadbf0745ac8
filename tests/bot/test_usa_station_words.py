"""Stations in a hex with two cities are told apart by what is in them, and a station to
remove is refused in removal's words: N&W, having bought B&O, must take a station off New York
(D28, two cities), where before the choices read only "city X12-0-1" / "city X12-0-0" and a
wrong one was answered "no station can go in ...; cities you can reach".

The position: 109372 before action 555.
"""

from __future__ import annotations

from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.dispatch import handle
from bot.model import Actor, Command

LOG = next(path for path in USA_LOGS if path.stem == "109372")
BEFORE_REMOVAL = 555
PRESIDENT = Actor(user_id=None, name="Player 3")


async def test_new_york_cities_are_named_by_their_stations(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "usa.db")
    try:
        game_id = await imported(moderator, LOG, BEFORE_REMOVAL)
        offered = await moderator.suggest(game_id, PRESIDENT, "remove", "city", "", {})
        assert offered == [("D28 New York City — city X12-0-1 (stations of N&W)", "X12-0-1"),
                           ("D28 New York City — city X12-0-0 (stations of B&O; 1 slot free)", "X12-0-0")]
        which = await handle(moderator, game_id, PRESIDENT, Command("remove", {"city": "D28"}))
        assert not which.ok and which.text.startswith(
            "D28 has more than one city; say which: city:X12-0-1 (stations of N&W) or "
            "city:X12-0-0 (stations of B&O; 1 slot free)"), which.text
        wrong = await handle(moderator, game_id, PRESIDENT, Command("remove", {"city": "E11"}))
        assert not wrong.ok and wrong.text.startswith(
            "E11 is not a station you can remove; you can remove one in D28"), wrong.text
        assert await repo.last_seq(game_id) == BEFORE_REMOVAL
        removed = await handle(moderator, game_id, PRESIDENT, Command("remove", {"city": "X12-0-0"}))
        assert removed.ok, removed.text
    finally:
        await repo.close()

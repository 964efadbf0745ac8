"""Issue 31, clarity: `/game abandon` asks again (a button, or `confirm:yes`) and only then ends
the game; afterwards /game status says the game is abandoned, not whose turn it is. /game status
says which rules the game follows (the printed rulebook's or 18xx.games' readings). Through the
real discord.py client and tests/fakediscord, and a real terminal process."""

from __future__ import annotations

from pathlib import Path

from cli_helpers import cli
from fakediscord import FakeDiscord
from hostile_inputs import database_rows
from test_discord_e2e import Table, stationmaster

from engine.log import rules_words, title_class


async def test_abandon_asks_first_on_discord(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    table = Table(fake)
    async with stationmaster(fake, db, images=False) as bot:
        table.bot = bot
        await table.open("18Texas", 5)
        alice, bob = table.users["alice"], table.users["bob"]
        before = database_rows(db)
        asked = await table.slash(alice, "game", "abandon")
        assert asked.content == ("Abandon game #1? It ends now, without a result, and cannot be resumed. To abandon "
                                 "it, press “Abandon game #1” or give /game abandon confirm:yes.")
        refused = await table.slash(alice, "game", "abandon", confirm="maybe")
        assert refused.ephemeral and refused.content == ("confirm: takes yes (to abandon the game now), not 'maybe'; "
                                                         "nothing was changed.")
        assert database_rows(db) == before  # asked, not done
        status = await table.slash(bob, "game", "status")
        assert "(active)" in status.content and "Rules: the printed rulebook's reading." in status.content
        (button,) = [c for row in asked.components or [] for c in row["components"]]
        assert button["label"] == "Abandon game #1"
        not_theirs = await table.click(bob, asked, button["custom_id"])
        assert not_theirs.ephemeral and "Only the game's creator" in not_theirs.content
        done = await table.click(alice, asked, button["custom_id"])
        assert done.content == "Game #1 was abandoned."
        assert (await bot.moderator.repo.get_game(1)).status == "abandoned"
        status = await table.slash(bob, "game", "status")
        assert "(abandoned)" in status.content and "The game was abandoned after move 0: nobody moves any more." \
            in status.content and "bid on a private company" not in status.content, status.content


def test_abandon_asks_first_in_the_terminal(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    lines = "/game abandon\n/game status\n/game abandon confirm:yes\n/game status\n"
    out = cli("play", "--db", str(db), "--images", "none", "--site-rules", stdin=lines)
    assert ("Abandon game #1? It ends now, without a result, and cannot be resumed. To abandon it, give /game "
            "abandon confirm:yes.") in out and "press" not in out
    asked, abandoned = out.split("Game #1 was abandoned.")
    assert "18Texas game #1 (active)" in asked and "@Alice — bid on a private company" in asked.split("Abandon")[1]
    assert "Rules: 18xx.games' reading of every rule where it differs from the rulebook." in asked
    assert "18Texas game #1 (abandoned)" in abandoned and "The game was abandoned after move 0" in abandoned
    assert "bid on a private company" not in abandoned
    assert database_rows(db)["games"][0][4] == "abandoned"


def test_the_rules_in_words() -> None:
    readings = [name for name in title_class("18USA").RULE_OPTIONS if name.startswith("site_")]
    assert rules_words("18USA", ()) == "the printed rulebook's reading"
    assert rules_words("18USA", ("seventeen_trains", "site_any_runs")) == (
        f"the printed rulebook's reading, with 18xx.games' on 1 of the {len(readings)} points where they differ "
        "(site_any_runs); variants: seventeen_trains")
    assert rules_words("18USA", tuple(readings)).startswith("18xx.games' reading of every rule")

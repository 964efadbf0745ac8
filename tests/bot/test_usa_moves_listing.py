"""The terminal's /moves lists every command word the acting players may use now, from the
title's command table and the legal moves: in an 18USA stock round that is /short, /pass and a
president's /loan and /scrap beside /bid, /buy and /sell (it listed only the 1829-family words
before, so /short, /pass, /loan and /scrap were missing).

The position: s8503 after 1101 actions, P3's stock turn, P3 presiding PRR (loans, a Pullman).
"""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import open_moderator
from usa_script import USA_LOGS

from bot.console_hints import choices_text
from bot.model import Actor

LOG = next(path for path in USA_LOGS if path.stem == "randplay_18USA_5p_s8503")
ACTIONS = 1101


async def test_moves_lists_every_word_the_legal_moves_allow(tmp_path: Path) -> None:
    document = json.loads(LOG.read_text())
    document["actions"] = document["actions"][:ACTIONS]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "", True), json.dumps(document))
        assert imported.ok and imported.game_id is not None, imported.text
        listed = await choices_text(moderator, imported.game_id, limit=25)
        words = {line.split()[1] for line in listed.splitlines()}
        assert words == {"/bid", "/pass", "/buy", "/sell", "/short", "/loan", "/scrap"}, listed
        lines = {line.split()[1]: line.strip() for line in listed.splitlines()}
        assert lines["/pass"] == "@P3 /pass"
        assert lines["/short"].startswith("@P3 /short corporation: ") and "NYC — New York Central" in lines["/short"]
        assert lines["/loan"] == "@P3 /loan corporation: PRR — Pennsylvania Railroad"
        assert lines["/scrap"] == "@P3 /scrap train: P-4"
    finally:
        await repo.close()


async def test_help_in_an_18usa_game_gives_its_own_words(tmp_path: Path) -> None:
    import io

    from bot.console import Console

    document = json.loads(LOG.read_text())
    document["actions"] = document["actions"][:10]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "", True), json.dumps(document))
        assert imported.ok and imported.game_id is not None, imported.text
        out = io.StringIO()
        await Console(moderator, imported.game_id, None, out).line("/help")
        words = {line.split()[0] for line in out.getvalue().splitlines() if line.startswith("  /")}
        assert {"/short", "/attach", "/loan", "/size", "/action", "/game"} <= words
        assert not {"/par", "/issue"} & words  # 18Texas's, not 18USA's
        assert "  /bid company:… price:… — Bid on a private, to start a company" in out.getvalue()
    finally:
        await repo.close()


async def test_a_pullman_before_the_run_is_listed_and_suggested(tmp_path: Path) -> None:
    """The Pullman step's offer (s8503 before 1126: SR may buy P-6 before running) made /train's
    autocomplete fail and /moves end the terminal session (its choice had no seller)."""
    document = json.loads(LOG.read_text())
    document["actions"] = document["actions"][:1126]
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        imported = await moderator.import_game(Actor(None, "", True), json.dumps(document))
        assert imported.ok and imported.game_id is not None, imported.text
        game_id = imported.game_id
        president = Actor(None, "P2")
        offered = await moderator.suggest(game_id, president, "train", "train", "", {})
        assert offered == [("P-6-train from the depot for $200", "P-6")]
        assert "@P2 /train train: P-6-train from the depot for $200" in await choices_text(moderator, game_id)
        # Typed by its name in any case, as players write it.
        from bot.dispatch import handle
        from bot.model import Command

        bought = await handle(moderator, game_id, president, Command("train", {"train": "p"}))
        assert bought.ok and bought.text.startswith("SR buys a Pullman car"), bought.text
    finally:
        await repo.close()

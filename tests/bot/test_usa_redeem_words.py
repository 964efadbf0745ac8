"""/redeem by a president of several companies that can each redeem (18USA's stock round): the
command names the company, and without the name it asks rather than guesses. On 109372 after
901 moves, where the president of TP and MP may redeem for either."""

from __future__ import annotations

from pathlib import Path

from bot_helpers import imported, open_moderator, president_of
from usa_script import USA_LOGS

from bot.model import Command

FIXTURE = next(path for path in USA_LOGS if path.stem == "109372")
BOTH_REDEEM = 901


async def test_a_president_of_two_companies_names_the_one_that_redeems(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        for corporation in ("TP", "MP"):
            game_id = await imported(moderator, FIXTURE, BOTH_REDEEM)
            president = await president_of(moderator, game_id, "TP")
            assert president == await president_of(moderator, game_id, "MP")
            before = await repo.last_seq(game_id)
            asked = await moderator.perform(game_id, president, Command("redeem", {"count": 1}))
            assert not asked.ok and asked.private
            assert "/redeem for which company? You can for MP, TP: give corporation:" in asked.text, asked.text
            assert await repo.last_seq(game_id) == before
            made = await moderator.perform(game_id, president, Command("redeem", {"count": 1,
                                                                                  "corporation": corporation}))
            assert made.ok, made.text
            session = await moderator.sessions.get(game_id)
            last = session.actions[-1].action
            assert (last["type"], last["entity"], len(last["shares"])) == ("buy_shares", corporation, 1)
            assert all(share.startswith(f"{corporation}_") for share in last["shares"])
    finally:
        await repo.close()


async def test_a_company_that_cannot_redeem_is_refused_with_those_that_can(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db")
    try:
        game_id = await imported(moderator, FIXTURE, BOTH_REDEEM)
        president = await president_of(moderator, game_id, "TP")
        before = await repo.last_seq(game_id)
        refused = await moderator.perform(game_id, president, Command("redeem", {"count": 1, "corporation": "UP"}))
        assert not refused.ok and "corporation:UP cannot /redeem now; corporation can be MP, TP" in refused.text, \
            refused.text
        assert await repo.last_seq(game_id) == before
    finally:
        await repo.close()

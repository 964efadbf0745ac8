"""What a player reads when a move is refused speaks the title's command words, not the
18xx.games action ids; a raw `/action json:` refusal names the type typed and its word.

Before: "/train is not possible now: buy_train is not allowed now: SP is at the pay dividends
step; allowed now: dividend". Positions of the real games 65394 (18Texas, before action 46 SP,
presided by Player 3, is to pay dividends) and 109372 (18USA, before action 144 SP, presided by
Player 1, is to buy trains).
"""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS

from bot.dispatch import handle
from bot.model import Actor, Command

TEXAS = Path(__file__).resolve().parents[1] / "data" / "fixtures" / "18Texas" / "65394.json"
USA = next(path for path in USA_LOGS if path.stem == "109372")
PLAYER_1, PLAYER_3 = Actor(user_id=None, name="Player 1"), Actor(user_id=None, name="Player 3")


async def test_a_command_at_the_wrong_step_says_what_to_type_instead(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "words.db")
    try:
        game = await imported(moderator, TEXAS, 46)
        train = await handle(moderator, game, PLAYER_3, Command("train", {"train": "3"}))
        assert not train.ok and train.text.startswith(
            "/train is not possible now: SP is to pay dividends; what you can do now: /dividend.\nNow:"), train.text
        issue = await handle(moderator, game, PLAYER_3, Command("issue", {"count": 1}))
        assert not issue.ok and issue.text.startswith("/issue is not possible now"), issue.text
        assert "_" not in issue.text.split("\nNow:")[0], issue.text

        usa = await imported(moderator, USA, 144)
        dividend = await handle(moderator, usa, PLAYER_1, Command("dividend", {"kind": "payout"}))
        assert not dividend.ok and dividend.text.startswith(
            "/dividend is not possible now: SP is to buy trains; what you can do now: /loan, /pass, /train.\nNow:"), \
            dividend.text
        assert await repo.last_seq(game) == 46 and await repo.last_seq(usa) == 144
    finally:
        await repo.close()


async def test_a_raw_action_s_refusal_names_its_type_and_its_word(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "raw.db")
    try:
        game = await imported(moderator, TEXAS, 46)

        async def raw(action: dict[str, object]) -> str:
            reply = await handle(moderator, game, PLAYER_3, Command("action", {"json": json.dumps(action)}))
            assert not reply.ok
            return reply.text

        refused = await raw({"type": "buy_train", "entity": "SP", "entity_type": "corporation",
                             "train": "2-5", "price": 80})
        assert refused.startswith("That move is not allowed: buy_train (/train) is not possible now: SP is to pay "
                                  "dividends; what you can do now: /dividend.\nNow:"), refused
        malformed = await raw({"type": "run_routes", "entity": "SP", "entity_type": "corporation", "routes": "x"})
        assert malformed.startswith(
            "That move is not allowed: run_routes needs a list of routes (run_routes is /run).\nNow:"), malformed
        incomplete = await raw({"type": "buy_train", "entity": "SP", "entity_type": "corporation"})
        assert incomplete == 'A buy_train action (/train) needs "train" and "price".', incomplete
        assert await repo.last_seq(game) == 46
    finally:
        await repo.close()

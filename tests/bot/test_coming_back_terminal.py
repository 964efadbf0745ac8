"""Coming back to a game in the terminal (the command words `bot.dispatch` takes): the turn's
reply says in one line what the moves since the player to act last moved did to them, `/game since`, `/game map at:`
with the moment's words, and `/game mine` listing every unfinished game of the database (at the
terminal everyone plays every seat)."""

from __future__ import annotations

import json
from pathlib import Path

from bot_helpers import imported, open_moderator
from usa_script import USA_LOGS, typed_parts

from bot.console_parse import parse_line
from bot.dispatch import handle
from bot.model import Actor, Command
from engine import load_game
from engine.legal import move_decider

S8403 = next(path for path in USA_LOGS if path.stem == "randplay_18USA_4p_s8403")
TERMINAL = Actor(user_id=None, name="", manager=True)


async def test_the_terminal_says_what_happened_since_when_a_players_turn_comes_back(tmp_path: Path) -> None:
    repo, moderator = await open_moderator(tmp_path / "games.db", images=False)
    try:
        document = json.loads(S8403.read_text())
        moderator.coming_back.one_line = True  # as `stationmaster play` sets it
        game_id = await imported(moderator, S8403, 381)  # P3's last move is action 381
        replies = []
        for action in document["actions"][381:398]:
            state = load_game({**document, "actions": document["actions"][:len(replies) + 381]}).state
            player, parts = move_decider(state, action), typed_parts(state, action)
            assert player is not None and parts is not None
            reply = await handle(moderator, game_id, Actor(None, player.name), Command(*parts))
            assert reply.ok, reply.text
            replies.append(reply.text)
        # One line: the table saw the moves; what they did to P3's cash and shares is the news.
        (line,) = [line for line in replies[-1].splitlines() if "while you were away" in line]
        before = load_game({**document, "actions": document["actions"][:381]}).state.player("P3").cash
        after = load_game({**document, "actions": document["actions"][:398]}).state.player("P3").cash
        assert line.startswith(f"P3, while you were away (17 action(s) since your last move (action 381)): "
                               f"your cash ${before} → ${after} (+${after - before}); ")
        assert replies[-1].endswith(line) and "\n— MR 4.1 —" not in replies[-1] and "\n• " not in replies[-1]
        assert all("P3, while you were away" not in text for text in replies[:-1])

        since = await handle(moderator, game_id, Actor(None, "P3"), Command("game since"))
        assert since.private and since.text.startswith("While you were away (17 action(s)")
        typed = parse_line("/game map at:start of OR 4.1")  # as the terminal reads it
        assert typed is not None
        shown = await handle(moderator, game_id, Actor(None, "P3"), typed[1])
        assert shown.ok and [picture.name for picture in shown.pictures] == ["map.png"]
        assert shown.text.startswith(f"Game #{game_id}: map, start of OR 4.1 (after action ")
        refused = await handle(moderator, game_id, Actor(None, "P3"), Command("game market", {"at": "SR 0"}))
        assert not refused.ok and "no round 'SR 0'" in refused.text and not refused.pictures

        other = await imported(moderator, S8403, 120)
        mine = await handle(moderator, other, TERMINAL, Command("game mine"))
        lines = mine.text.splitlines()
        assert lines[0].startswith("Your games (2)")
        assert {f"#{game_id} 18USA", f"#{other} 18USA"} <= {line.split("**")[1] for line in lines[1:]}
        assert all("waiting" in line for line in lines[1:])
        chart = await handle(moderator, game_id, TERMINAL, Command("game chart", {"kind": "Values"}))
        assert chart.ok and [picture.name for picture in chart.pictures] == ["chart-values.png"]
    finally:
        await repo.close()

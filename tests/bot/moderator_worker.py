"""A bot process for the multi-process tests: the Moderator (the layer under every front door,
Discord's cogs and the terminal alike) on a shared store, driven by JSON lines on stdin.

    python tests/bot/moderator_worker.py DATABASE_URL GAME_ID

Requests (one JSON object a line), each answered by one line:
- ``{"line": "@Player 1 /pass", "seq": 7, "at": 1700000000.5}``: make the move, refused if
  the game is no longer at ``seq`` (as a Discord button is), not before the time ``at`` (so
  that several processes start on it together). Answer ``{"ok", "committed", "seq", "text"}``.
- ``{"play": ["@Player 1 /pass", ...]}``: make the moves one after the other (each expecting
  the seq the last one left), answering each as it is acknowledged, until one is refused.
- ``{"seq": null}``: the seq this process sees (after its check of the store).
- ``{"hold": true}``: take the game's lock, as a move does, answer ``{"held": true}`` and keep
  it until the next request (a test may freeze the process meanwhile).
First it prints ``{"ready": true}``.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.console_parse import parse_line  # noqa: E402
from bot.model import Actor  # noqa: E402
from bot.moderator import Moderator, plain_mention  # noqa: E402
from storage import open_repository  # noqa: E402


def say(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


async def move(moderator: Moderator, game_id: int, line: str, seq: int) -> dict[str, Any]:
    parsed = parse_line(line)
    assert parsed is not None and parsed[0] is not None, line
    name, command = parsed
    actor = Actor(user_id=None, name=name, manager=True)
    outcome = await moderator.act(game_id, actor, command, expected_seq=seq)
    # Acknowledged only now, after the commit, as a front door would answer the player.
    return {"ok": outcome.reply.ok, "committed": outcome.committed, "seq": outcome.reply.seq,
            "text": outcome.reply.text}


async def main(url: str, game_id: int) -> None:
    repo = await open_repository(url)
    moderator = Moderator(repo, images=False, router_budget=0.5, mention=plain_mention)
    say({"ready": True})
    loop = asyncio.get_running_loop()
    try:
        while True:
            text = await loop.run_in_executor(None, sys.stdin.readline)
            if not text:
                return
            request = json.loads(text)
            if "line" in request:
                delay = float(request.get("at", 0)) - time.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                say(await move(moderator, game_id, request["line"], int(request["seq"])))
            elif "play" in request:
                seq = (await moderator.sessions.get(game_id)).seq
                for line in request["play"]:
                    answer = await move(moderator, game_id, line, seq)
                    say(answer)
                    if not answer["committed"]:
                        break
                    seq = answer["seq"]
                say({"done": True})
            elif "hold" in request:
                async with moderator.sessions.lock(game_id):
                    say({"held": True})
                    await loop.run_in_executor(None, sys.stdin.readline)
                say({"released": True})
            else:
                async with moderator.sessions.lock(game_id):
                    say({"seq": (await moderator.sessions.get(game_id)).seq})
    finally:
        await repo.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))

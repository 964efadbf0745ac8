"""Child process of the crash test (not a test module).

Usage: python crash_writer.py DATABASE_URL FIXTURE

Opens the store, creates the fixture's game if the file has none, then appends the
fixture's actions from the stored last seq + 1 on, printing ``seq N`` after each append
returned (that is, after its COMMIT): a printed seq is an acknowledged move.
"""

from __future__ import annotations

import asyncio
import json
import sys

from engine import document_options
from storage import NewGame, NewSeat, open_repository


async def main(db: str, fixture: str) -> None:
    with open(fixture, encoding="utf-8") as handle:
        doc = json.load(handle)
    actions = doc["actions"]
    repo = await open_repository(db)
    print("open", flush=True)
    games = await repo.list_games()
    if games:
        game_id = games[0].id
    else:
        game_id = await repo.create_game(
            NewGame(title=doc["title"], seed=doc["settings"]["seed"],
                    options=tuple(document_options(doc)), status="active"),
            seats=[NewSeat(player_id=p["id"], display_name=p["name"]) for p in doc["players"]],
        )
    print(f"game {game_id}", flush=True)
    for seq in range(await repo.last_seq(game_id) + 1, len(actions) + 1):
        await repo.append_action(game_id, seq, actions[seq - 1], actor=None)
        print(f"seq {seq}", flush=True)
    await repo.close()
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))

"""Games stopped where a company may buy another company's train (rule 12.6 consent).

The logs in tests/data/bot/train_offers_18Texas.json were made by random legal play under the
rulebook's options: "consent" stops where SAA may buy T&P's 2-0 (another president),
"same" where a company may buy a train from one with the same president."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot_helpers import USERS

from storage import GameRepository, NewGame, NewSeat

DATA = Path(__file__).resolve().parents[1] / "data" / "bot" / "train_offers_18Texas.json"
NAMES = ("Alice", "Bob", "Carol")


def offer_log(which: str) -> dict[str, Any]:
    return json.loads(DATA.read_text())[which]


async def stored_game(repo: GameRepository, which: str, options: tuple[str, ...] = (),
                      thread_id: int | None = None, users: dict[str, int] | None = None) -> int:
    """The logged position as a running game (seats 1-3: Alice, Bob, Carol)."""
    users = users or USERS
    log = offer_log(which)
    seats = [NewSeat(number, name, users[name]) for number, name in enumerate(NAMES, 1)]
    game = NewGame("18Texas", log["seed"], options, status="active", thread_id=thread_id, creator_user_id=users["Alice"])
    return await repo.create_game(game, seats, actions=[(a, None) for a in log["actions"]])

"""What the follow-up search adds at the table: an 18USA log replayed through the Moderator, with
the proposal's budget and the follow-up's seconds the bot runs with, waiting after each move for
the follow-up to end (as if the president took their time).

For every position whose proposal was not proven it prints the company, the proposal's total,
what the follow-up posted (its total, proven or not) and how many seconds after the move's reply
it was posted; then a summary line. Real SQLite file (a temporary one), real optimizer workers.

    python bench/follow_up.py [--log 109372] [--start 1200] [--budget 2] [--follow-up 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.append(str(ROOT / "tests" / "bot"))

from bot_helpers import imported, open_moderator  # noqa: E402
from usa_script import USA_LOGS, decider  # noqa: E402

from bot.model import Actor, Command, Reply  # noqa: E402
from bot.moderator import Moderator  # noqa: E402


def _total(text: str) -> str:
    return "$" + text.split("total $", 1)[1].split()[0].rstrip(".") if "total $" in text else "-"


async def replay(log: Path, start: int, budget: float, follow_up: float) -> None:
    document = json.loads(log.read_text())
    with tempfile.TemporaryDirectory() as folder:
        repo, moderator = await open_moderator(Path(folder) / "games.db", router_budget=budget,
                                               follow_up_seconds=follow_up)
        posted: list[tuple[float, Reply]] = []

        async def announce(reply: Reply) -> None:
            posted.append((time.monotonic(), reply))

        moderator.announce = announce
        try:
            game_id = await imported(moderator, log, start)
            print(f"{log.stem} from action {start}, proposal budget {budget:g} s, follow-up {follow_up:g} s")
            print(f"{'action':>6} {'company':>7} {'proposal':>9} {'follow-up':>10} {'proven':>6} {'after s':>7}")
            unproven = answered = proven = 0
            for index in range(start, len(document["actions"])):
                reply = await _move(moderator, game_id, document["actions"][index], index)
                if reply is None:  # the site's programmed passes differ from a table's: import past it
                    game_id = await imported(moderator, log, index + 1)
                    continue
                out = time.monotonic()
                if not moderator.follow_ups.pending:
                    moderator.delivered(reply)
                    continue
                unproven += 1
                before = len(posted)
                moderator.delivered(reply)
                await moderator.follow_ups.settled()
                company = reply.text.split("Proposed runs for ", 1)[1].split(":", 1)[0] \
                    if "Proposed runs for " in reply.text else "?"
                if len(posted) > before:
                    at, answer = posted[-1]
                    answered += 1
                    is_proven = "(proven)" in answer.text or "proven the best." in answer.text
                    proven += is_proven
                    print(f"{index + 1:>6} {company:>7} {_total(reply.text):>9} {_total(answer.text):>10} "
                          f"{'yes' if is_proven else 'no':>6} {at - out:>7.1f}")
                else:
                    print(f"{index + 1:>6} {company:>7} {_total(reply.text):>9} {'(none)':>10} {'-':>6} {'-':>7}")
            print(f"unproven proposals {unproven}, follow-ups posted {answered}, of them proven {proven}")
        finally:
            await moderator.follow_ups.close()
            await repo.close()


async def _move(moderator: Moderator, game_id: int, action: dict[str, object], index: int) -> Reply | None:
    """The logged action by the player who decides it (its reply); None where the game refuses it
    (where the site's programmed passes made a move out of a player's turn)."""
    session = await moderator.sessions.get(game_id)
    assert session.game is not None
    state = session.game.state
    if action["type"] == "message":
        return Reply("")
    try:
        name = decider(state, action)
    except AssertionError:
        return Reply("")  # a programmed move the site made: the game makes it by itself
    reply = await moderator.perform(game_id, Actor(None, name, True), Command("action", {"json": json.dumps(action)}))
    if not reply.ok:
        print(f"action {index + 1} refused ({reply.text.splitlines()[0][:120]}); imported from there")
        return None
    return reply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--log", default="109372", help="a log's name (or its end), e.g. 109372 or s8603")
    parser.add_argument("--start", type=int, default=1200, help="import the log's first N actions first")
    parser.add_argument("--budget", type=float, default=2.0, help="the proposal's seconds (the bot's default)")
    parser.add_argument("--follow-up", type=float, default=20.0, help="the follow-up's seconds (the bot's default)")
    args = parser.parse_args()
    log = next(path for path in USA_LOGS if path.stem.endswith(args.log))
    asyncio.run(replay(log, args.start, args.budget, args.follow_up))


if __name__ == "__main__":
    main()

"""Moves through the bot's Moderator from 2 bot processes on one store, SQLite and PostgreSQL.

Fills a store with 1,000 games (each the first 20 to 200 moves of the 18Texas fixture game,
as its 4 players made them through the Moderator), then runs 2 processes, each with the
Moderator and the reminder planning the Discord bot has (no pictures, no Discord). As two
shards would, each process serves its own half of the games; it first loads 100 of them,
then makes their next moves as the commands their players type (``/bid``, ``/lay``, ``/run``
...): the game's lock (an advisory lock on PostgreSQL), the stale check, the command to an
action, the rules, the seq-checked commit, the reminder's new due time.
Paced run: commands arrive at 50 moves/s together for ``--seconds`` (each handled as it
arrives, as Discord's interactions are); latency is from the command to its acknowledgement
(the commit), queueing included. Then an unpaced run: each process as fast as it can for 5 s.

    python bench/bot_multiprocess.py [--seconds 20] [--rate 50] [--backend sqlite|postgresql|both]

PostgreSQL runs on a throwaway server (tests/pg_server.py) with fsync on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "bot"), str(ROOT / "bench")]

from fixture_script import script  # noqa: E402
from two_processes import percentile, run_workers, store  # noqa: E402

from bot.console_parse import parse_line  # noqa: E402
from bot.model import Actor  # noqa: E402
from bot.moderator import Moderator, plain_mention  # noqa: E402
from bot.reminders import ReminderService  # noqa: E402
from storage import NewGame, NewSeat, open_repository  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
GAMES = 1000
PROCESSES = 2
ACTIVE = 100  # games each process moves (loaded before the clock starts)
RATE = 50.0  # moves per second, all processes together


PREFIX = 200  # the longest stored game; the moves after it are the ones made in the run
TABLE = Actor(user_id=None, name="", manager=True)


def lines() -> list[str]:
    return script(FIXTURE)[0]


async def fill(url: str) -> None:
    """One game played through the Moderator, then 1,000 copies of its first moves."""
    typed = lines()
    rng = random.Random(1)
    async with await open_repository(url) as repo:
        moderator = Moderator(repo, images=False, mention=plain_mention)
        players = [f"Player {n}" for n in range(1, 5)]
        created = await moderator.create_game(TABLE, "18Texas", seed=65394, site_rules=True, players=players)
        assert created.game_id is not None
        await moderator.start(created.game_id, TABLE, shuffle=False)
        for line in typed[:PREFIX]:
            outcome = await _move(moderator, created.game_id, line)
            assert outcome.committed, outcome.reply.text
        template = await repo.load_game(created.game_id)
        for _ in range(GAMES - 1):
            prefix = template.actions[: rng.randint(20, PREFIX)]
            await repo.create_game(
                NewGame("18Texas", 65394, options=template.game.options, status="active"),
                [NewSeat(s.player_id, s.display_name) for s in template.seats],
                actions=[(a.action, None) for a in prefix],
            )


async def _move(moderator: Moderator, game_id: int, line: str, seq: int | None = None) -> Any:
    """The typed move, for the position at ``seq`` (refused if the game moved on, as a button is)."""
    parsed = parse_line(line)
    assert parsed is not None and parsed[0] is not None
    actor = Actor(user_id=None, name=parsed[0], manager=True)
    return await moderator.act(game_id, actor, parsed[1], expected_seq=seq)


async def worker(url: str, rate: float, seconds: float, number: int, start_at: float) -> dict[str, Any]:
    typed = lines()
    rng = random.Random(number)
    latency_ms: list[float] = []
    refused: list[str] = []
    async with await open_repository(url) as repo:
        moderator = Moderator(repo, images=False, mention=plain_mention)
        moderator.listeners.append(ReminderService(moderator, send=_no_send).schedule)
        mine = [g for g in await repo.list_game_ids() if g % PROCESSES == number]
        games = rng.sample(mine, ACTIVE)
        for game_id in games:
            await moderator.sessions.get(game_id)
        await asyncio.sleep(max(0.0, start_at - time.time()))

        async def one(game_id: int) -> None:
            # The next move of the game as it stands when the command arrives (a game that
            # is busy queues at its lock, as commands from Discord do).
            seq = (await moderator.sessions.get(game_id)).seq
            t0 = time.perf_counter()
            outcome = await _move(moderator, game_id, typed[seq], seq)
            if outcome.committed:
                latency_ms.append((time.perf_counter() - t0) * 1000)
            elif "earlier position" not in outcome.reply.text:  # two arrivals for one position
                refused.append(outcome.reply.text[:120])

        began = time.perf_counter()
        tasks: list[asyncio.Task[None]] = []
        while (elapsed := time.perf_counter() - began) < seconds:
            if rate:  # commands arrive on their own, as interactions do
                due = len(tasks) / rate
                if due > elapsed:
                    await asyncio.sleep(due - elapsed)
                tasks.append(asyncio.create_task(one(rng.choice(games))))
            else:  # as fast as the process goes: one command after the other
                await one(rng.choice(games))
        await asyncio.gather(*tasks)
        wall = time.perf_counter() - began
    return {"latency_ms": latency_ms, "refused": refused, "seconds": wall}


async def _no_send(*args: Any) -> None:
    return None


def report(name: str, paced: list[dict[str, Any]], flat_out: list[dict[str, Any]]) -> None:
    moves = [v for r in paced for v in r["latency_ms"]]
    seconds = max(r["seconds"] for r in paced)
    fast = sum(len(r["latency_ms"]) for r in flat_out) / max(r["seconds"] for r in flat_out)
    refused = [t for r in paced + flat_out for t in r["refused"]]
    print(
        f"{name:10s} paced {len(moves) / seconds:5.1f} moves/s ({len(moves)} moves): command to commit "
        f"median {statistics.median(moves):.1f} ms, p95 {percentile(moves, 95):.1f} ms, max {max(moves):.0f} ms | "
        f"unpaced {fast:.0f} moves/s (p95 {percentile([v for r in flat_out for v in r['latency_ms']], 95):.1f} ms)"
        f" | refused {len(refused)}{': ' + refused[0] if refused else ''}"
    )


async def bench(backend: str, seconds: float, rate: float) -> None:
    async with store(backend) as url:
        started = time.perf_counter()
        await fill(url)
        print(f"{backend:10s} filled {GAMES} games in {time.perf_counter() - started:.1f} s")
        # Each process loads its games before the clock starts.
        paced = await run_workers(__file__, url, rate / PROCESSES, seconds, PROCESSES, lead_seconds=15.0)
        flat_out = await run_workers(__file__, url, 0.0, 5.0, PROCESSES, lead_seconds=15.0)
        report(backend, paced, flat_out)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, rate, seconds, number, start_at = sys.argv[2:7]
        result = asyncio.run(worker(url, float(rate), float(seconds), int(number), float(start_at)))
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the paced run")
    parser.add_argument("--rate", type=float, default=RATE, help="moves per second, both processes together")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    for backend in ("sqlite", "postgresql") if args.backend == "both" else (args.backend,):
        asyncio.run(bench(backend, args.seconds, args.rate))


if __name__ == "__main__":
    main()

"""Commit latency and throughput of the game store, SQLite and PostgreSQL, from 2 processes.

Fills a store with 1,000 games (each the first 20 to 200 actions of the 18Texas fixture
log), then runs 2 writer processes that make moves the way the bot commits one, without
pictures or rules: take the game's lock, read the stored seq (the stale check), append the
game's next logged action with the seq check. Paced run: together 50 moves/s for
``--seconds``, to random games; latency is the append (its commit) and the whole
lock-check-append. Then an unpaced run: each process as fast as it can for 5 s.

    python bench/store_throughput.py [--seconds 20] [--backend sqlite|postgresql|both]

PostgreSQL runs on a throwaway server started from the installed binaries (tests/pg_server.py)
with fsync on, so a commit waits for the disk as it would in production.
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
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]

from two_processes import percentile, run_workers, store  # noqa: E402

from storage import NewGame, NewSeat, SeqConflict, open_repository  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"
GAMES = 1000
PROCESSES = 2
RATE = 50.0  # moves per second, all processes together


def _log() -> dict[str, Any]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


async def fill(url: str) -> None:
    doc = _log()
    rng = random.Random(1)
    seats = [NewSeat(p["id"], p["name"]) for p in doc["players"]]
    async with await open_repository(url) as repo:
        for _ in range(GAMES):
            prefix = doc["actions"][: rng.randint(20, 200)]
            await repo.create_game(
                NewGame(doc["title"], doc["settings"]["seed"], status="active"),
                seats, actions=[(action, None) for action in prefix],
            )


async def worker(url: str, rate: float, seconds: float, seed: int, start_at: float) -> dict[str, Any]:
    """One process's moves: paced at ``rate`` (0: as fast as possible) for ``seconds``."""
    actions = _log()["actions"]
    rng = random.Random(seed)
    commit_ms: list[float] = []
    move_ms: list[float] = []
    conflicts = 0
    async with await open_repository(url) as repo:
        game_ids = await repo.list_game_ids()
        await asyncio.sleep(max(0.0, start_at - time.time()))
        began = time.perf_counter()
        done = 0
        while (elapsed := time.perf_counter() - began) < seconds:
            if rate:
                due = done / rate
                if due > elapsed:
                    await asyncio.sleep(due - elapsed)
            game_id = rng.choice(game_ids)
            t0 = time.perf_counter()
            async with repo.game_lock(game_id):
                seq = await repo.last_seq(game_id) + 1
                t1 = time.perf_counter()
                try:
                    await repo.append_action(game_id, seq, actions[seq - 1], actor=None)
                except SeqConflict:  # the other process moved this game first
                    conflicts += 1
                    continue
                t2 = time.perf_counter()
            commit_ms.append((t2 - t1) * 1000)
            move_ms.append((t2 - t0) * 1000)
            done += 1
        wall = time.perf_counter() - began
    return {"commit_ms": commit_ms, "move_ms": move_ms, "conflicts": conflicts, "seconds": wall}


def report(name: str, paced: list[dict[str, Any]], flat_out: list[dict[str, Any]]) -> None:
    commits = [v for r in paced for v in r["commit_ms"]]
    moves = [v for r in paced for v in r["move_ms"]]
    seconds = max(r["seconds"] for r in paced)
    fast = sum(len(r["commit_ms"]) for r in flat_out) / max(r["seconds"] for r in flat_out)
    print(
        f"{name:10s} paced {len(commits) / seconds:5.1f} moves/s ({len(commits)} moves, "
        f"{sum(r['conflicts'] for r in paced)} seq conflicts): commit median "
        f"{statistics.median(commits):.2f} ms, p95 {percentile(commits, 95):.2f} ms, max {max(commits):.1f} ms; "
        f"lock+check+commit p95 {percentile(moves, 95):.2f} ms | unpaced {fast:.0f} moves/s "
        f"(commit p95 {percentile([v for r in flat_out for v in r['commit_ms']], 95):.2f} ms)"
    )


async def bench(backend: str, seconds: float) -> None:
    async with store(backend) as url:
        started = time.perf_counter()
        await fill(url)
        print(f"{backend:10s} filled {GAMES} games in {time.perf_counter() - started:.1f} s")
        paced = await run_workers(__file__, url, RATE / PROCESSES, seconds, PROCESSES)
        flat_out = await run_workers(__file__, url, 0.0, 5.0, PROCESSES)
        report(backend, paced, flat_out)


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        url, rate, seconds, seed, start_at = sys.argv[2:7]
        result = asyncio.run(worker(url, float(rate), float(seconds), int(seed), float(start_at)))
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the paced run")
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    for backend in ("sqlite", "postgresql") if args.backend == "both" else (args.backend,):
        asyncio.run(bench(backend, args.seconds))


if __name__ == "__main__":
    main()

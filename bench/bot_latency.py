"""Interaction-to-reply latency of the Discord bot on the local fake Discord server.

Plays a game (3 players: auction, stock round, operating rounds) with slash commands and
button clicks through the real discord.py client, images on, and times each interaction from
the moment the fake dispatches it to the moment the user sees the final reply (the follow-up
with its PNGs, or the ephemeral refusal). Prints median, p95 and max. 18USA is played by the
policy of tests/bot/test_discord_usa.py (with the site's rules), as far as the moves allow.
With --log, an 18USA log the engine plays to its end is imported up to --at (by `/game import`)
and its next moves are made as slash commands by their deciders: a late position (s8403 at 768
is just after the first 8-train, phase 8).

    python bench/bot_latency.py [--moves 60] [--title 18USA]
    python bench/bot_latency.py --log randplay_18USA_4p_s8403 --at 768 [--moves 59]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "bot")]

from bot_helpers import opening_command, operating_command  # noqa: E402
from fakediscord import FakeDiscord, pointed_at, running_bot  # noqa: E402
from test_discord_usa import usa_step  # noqa: E402
from test_discord_usa_late import ImportedTable  # noqa: E402
from usa_script import USA_LOGS  # noqa: E402

from bot.config import Settings  # noqa: E402
from bot.discord.client import StationmasterBot  # noqa: E402
from bot.moderator import Moderator  # noqa: E402
from storage import SqliteGameRepository  # noqa: E402


def summary(name: str, seconds: list[float]) -> str:
    if not seconds:
        return f"{name}: no samples"
    ordered = sorted(seconds)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (f"{name}: n={len(ordered)} median {statistics.median(ordered) * 1000:.0f} ms, "
            f"p95 {p95 * 1000:.0f} ms, max {ordered[-1] * 1000:.0f} ms")


async def bench(moves: int, title: str) -> None:
    timings: dict[str, list[float]] = {"move (with images)": [], "refusal (ephemeral)": [], "autocomplete": []}
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        async with FakeDiscord() as fake:
            with pointed_at(fake):
                users = {n: fake.add_user(n) for n in ("alice", "bob", "carol")}
                repo = await SqliteGameRepository.open(db)
                moderator = Moderator(repo, images=True, router_budget=2.0)
                bot = StationmasterBot(Settings(db_path=str(db), guild_ids=(fake.guild.id,)), moderator)
                async with running_bot(fake, bot):
                    await (await fake.invoke_slash(users["alice"], "game", "new",
                                                   options={"title": title, "seed": 6 if title == "18Texas" else 5,
                                                            "site_rules": title != "18Texas"})).wait_message()
                    (thread,) = fake.threads(fake.channel)

                    async def timed(category: str, user, *path: str, **options) -> None:
                        started = time.perf_counter()
                        handle = await fake.invoke_slash(user, *path, options=options, channel=thread)
                        await handle.wait_message(timeout=30)
                        timings[category].append(time.perf_counter() - started)

                    for name in ("bob", "carol"):
                        await timed("move (with images)", users[name], "game", "join")
                    await timed("move (with images)", users["alice"], "game", "start")
                    laid: set = set()
                    for _ in range(moves):
                        session = moderator.sessions._cache[1]
                        state = session.game.state
                        if state.finished:
                            break
                        if title == "18Texas":
                            name, command = opening_command(state) or operating_command(state, laid)
                        else:
                            name, command = usa_step(state, laid)
                        options = {k: v for k, v in command.options.items() if v is not None}
                        if command.name == "run" and (session.proposal is None or session.proposal[1] is None):
                            options["routes"] = "none"  # nothing to propose: the trains run for nothing
                        await timed("move (with images)", users[name], command.name, **options)
                        # Someone who must not act now tries to pass: refused, ephemeral.
                        acting = {p.name for p in moderator.sessions._cache[1].game.state.acting_players()}
                        other = next((u for n, u in users.items() if n not in acting), None)
                        if other is not None:
                            await timed("refusal (ephemeral)", other, "pass")
                        started = time.perf_counter()
                        handle = await fake.autocomplete(users[name], "lay", focused="hex", value="", channel=thread)
                        await handle.wait_choices(timeout=30)
                        timings["autocomplete"].append(time.perf_counter() - started)
                state = moderator.sessions._cache[1].game.state
                print(f"{title}: reached {state.round_label()}, phase {state.phase.name}")
                await repo.close()
    for kind, seconds in timings.items():
        print(summary(kind, seconds))


def _timing_parts(timings: dict[str, list[float]]) -> None:
    """Time the parts of a reply too: the move (engine and commit), the proposal, the pictures."""
    for name, part in (("act", "  part: the move (engine, commit)"), ("_proposal", "  part: run proposal"),
                       ("_draw", "  part: pictures")):
        original = getattr(Moderator, name)
        timings[part] = []

        def timed(*args: object, _original=original, _part=part, **kwargs: object) -> object:
            async def run() -> object:
                started = time.perf_counter()
                try:
                    return await _original(*args, **kwargs)
                finally:
                    timings[_part].append(time.perf_counter() - started)
            return run()

        setattr(Moderator, name, timed)


async def bench_log(log: str, at: int, moves: int) -> None:
    """The log's moves after `at`, each timed from the interaction to the reply with pictures."""
    import json

    path = next(p for p in USA_LOGS if p.stem == log)
    document = json.loads(path.read_text())
    timings: dict[str, list[float]] = {"move (with images)": [], "refusal (ephemeral)": [], "autocomplete": []}
    _timing_parts(timings)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.db"
        async with FakeDiscord() as fake:
            with pointed_at(fake):
                repo = await SqliteGameRepository.open(db)
                moderator = Moderator(repo, images=True, router_budget=2.0)
                bot = StationmasterBot(Settings(db_path=str(db), guild_ids=(fake.guild.id,)), moderator)
                async with running_bot(fake, bot):
                    table = ImportedTable(fake, bot, [p["name"] for p in document["players"]])
                    await table.open(document, at)
                    state = table.state()
                    print(f"{log} at {at}: {state.round_label()}, phase {state.phase.name}")
                    for action in document["actions"][at:at + moves]:
                        if table.state().finished:
                            break
                        started = time.perf_counter()
                        reply = await table.move(action)
                        timings["move (with images)"].append(time.perf_counter() - started)
                        assert not reply.ephemeral, reply.content
                        acting = {p.name for p in table.state().acting_players()}
                        other = next((u for n, u in table.users.items() if n not in acting), None)
                        if other is not None:
                            started = time.perf_counter()
                            await table.slash(other, "pass")
                            timings["refusal (ephemeral)"].append(time.perf_counter() - started)
                        started = time.perf_counter()
                        user = next(iter(table.users.values()))
                        handle = await fake.autocomplete(user, "lay", focused="hex", value="", channel=table.thread)
                        await handle.wait_choices(timeout=30)
                        timings["autocomplete"].append(time.perf_counter() - started)
                await repo.close()
    for kind, seconds in timings.items():
        print(summary(kind, seconds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--title", default="18Texas", choices=("18Texas", "18USA"))
    parser.add_argument("--log", help="an 18USA log in tests/data the engine plays to its end, e.g. "
                                      "randplay_18USA_4p_s8403")
    parser.add_argument("--at", type=int, default=768, help="with --log: the actions imported before timing")
    args = parser.parse_args()
    if args.log:
        asyncio.run(bench_log(args.log, args.at, args.moves))
    else:
        asyncio.run(bench(args.moves, args.title))


if __name__ == "__main__":
    main()

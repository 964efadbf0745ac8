"""More 18USA property games than the test suite plays (run by hand, not a test): seeded random
legal games with 4-7 players, each checked after every action (tests' `usa_random_play.py`).

    python bench/usa_properties.py [--games 40] [--first-seed 5] [--cap 1200] [--options a,b,...]
        [--policy weighted|deep|rare] [--check-optimizer]

`--options site_rules` plays by the site's reading of every rule; the rule 17 variants are
`seventeen_trains`, `president_above_60` and `max_start_300`. `--policy deep` plays for long games
(`usa_random_play.deep_pick`); `--policy rare` plays for section 14's and rule 15's rare paths
(`usa_rare_policy`); the default is the property tests' weighted player.

Prints each game's ending or first broken property, how long the games took (CPU seconds), the
rare paths it went through (`usa_paths`), where the game's log does not replay to the game played
(`replay_check`) and any legal-moves query or action that took more than Discord's 3 s; at the end
the share of games that went through each rare path and the phases the games reached.
`--check-optimizer` checks every run proposal (`optimizer_check`).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18usa")]

from optimizer_check import bench_check  # noqa: E402
from replay_check import replay_difference  # noqa: E402
from usa_paths import PATHS  # noqa: E402
from usa_random_play import Played, play_random_game  # noqa: E402

from engine.titles.g18usa.usa_map import _SHARED_BY_COPIES  # noqa: E402

SLOW = 3.0  # seconds: Discord's deadline for the bot's answer


def biggest_train(played: Played) -> str:
    names = [phase.name for phase in played.game.state.phases]
    bought = {str(a.get("train", "")).split("-")[0] for a in played.game.raw_actions if a.get("type") == "buy_train"}
    return max((n for n in bought if n in names), key=names.index, default="none")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=5)
    parser.add_argument("--cap", type=int, default=1200)
    parser.add_argument("--options", default="", help="rule options, comma-separated")
    parser.add_argument("--policy", default="weighted", choices=("weighted", "deep", "rare"))
    parser.add_argument("--check-optimizer", action="store_true",
                        help="check every run proposal against a 20 s solve or the brute force (optimizer_check)")
    args = parser.parse_args()
    endings: collections.Counter[str] = collections.Counter()
    games: list[Played] = []
    start, cpu = time.perf_counter(), time.process_time()
    with bench_check(args.check_optimizer, f"usa_properties --policy {args.policy}"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            games.append(play_one(seed, args, endings))
    print(f"{args.games} games (seeds {args.first_seed}-{args.first_seed + args.games - 1}) in "
          f"{time.perf_counter() - start:.0f} s, {time.process_time() - cpu:.0f} s CPU: {dict(endings)}")
    print(path_table(games))


def path_table(games: list[Played]) -> str:
    """The share of games that went through each rare path, the times it happened in those, and
    the phases the games reached."""
    lines = [f"{'path':<22} {'games':>9} {'share':>6} {'times':>6}"]
    for path, meaning in PATHS.items():
        reached = [game.paths[path] for game in games if game.paths[path]]
        lines.append(f"{path:<22} {len(reached):>4} of {len(games):<3} {len(reached) / max(1, len(games)):>6.0%} "
                     f"{sum(reached):>6}  {meaning}")
    phases = collections.Counter(game.game.state.phase.name for game in games)
    order = [phase.name for phase in games[0].game.state.phases] if games else []
    lines.append("last phase reached: " + ", ".join(f"{name} in {phases[name]}" for name in order if phases[name]))
    return "\n".join(lines)


def play_one(seed: int, args: argparse.Namespace, endings: collections.Counter[str]) -> Played:
    """One game, its line printed and its ending counted."""
    count = 4 + seed % 4
    began = time.process_time()
    played = play_random_game(count, seed, args.cap, options=[o for o in args.options.split(",") if o],
                              policy=args.policy)
    endings[played.ending] += 1
    print(f"{count}p seed {seed}: {played.ending} at {played.where()}, biggest train {biggest_train(played)} ({time.process_time() - began:.1f} s CPU)"
          + (f"\n    {played.failure}" if played.failure else ""), flush=True)
    if played.paths:
        print("    paths: " + ", ".join(f"{path} {played.paths[path]}" for path in PATHS if played.paths[path]),
              flush=True)
    differs = None if played.failure else replay_difference(played.game, {"umap": _SHARED_BY_COPIES})
    if differs:
        endings["replay differs"] += 1
        print(f"    the log does not replay to the game: {differs}", flush=True)
    for what, (took, where) in (("legal moves", played.slowest_moves), ("action", played.slowest_action)):
        if took > SLOW:
            print(f"    slow {what}: {took:.1f} s at {where}", flush=True)
    return played


if __name__ == "__main__":
    main()

"""More 18Texas property games than the test suite plays (run by hand, not a test): seeded random
legal games with 3-5 players, each checked after every action (the property test's
`play_random_game`: money conserved, certificates whole, limits kept, refusals change nothing).
Policies and rule readings rotate with the seed.

    python bench/texas_properties.py [--games 40] [--first-seed 5000] [--policy deep] [--check-optimizer]

`--policy deep` plays every game with the deep player (`texas_deep_policy`), for long games;
by default the property tests' policies rotate.

Prints each game's ending or the first broken property, how long the games took, where the
game's log does not replay to the game played (`replay_check`) and a legal-moves query or action
over Discord's 3 s. `--check-optimizer` checks every run proposal (`optimizer_check`).
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18texas")]

from optimizer_check import bench_check  # noqa: E402
from replay_check import replay_difference  # noqa: E402
from test_18texas_properties import play_random_game  # noqa: E402

POLICIES = ("sensible", "uniform", "trader")
READINGS = ([], ["site_rules"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=5000)
    parser.add_argument("--policy", default=None, choices=(*POLICIES, "deep"), help="one policy for every game")
    parser.add_argument("--check-optimizer", action="store_true",
                        help="check every run proposal against a 20 s solve or the brute force (optimizer_check)")
    args = parser.parse_args()
    endings: collections.Counter[str] = collections.Counter()
    start = time.perf_counter()
    with bench_check(args.check_optimizer, f"texas_properties --policy {args.policy}"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            count, policy, options = 3 + seed % 3, args.policy or POLICIES[(seed // 2) % 3], READINGS[(seed // 3) % 2]
            began = time.perf_counter()
            try:
                played = play_random_game(count, seed, list(options), policy, None)
                ending, where = played.ending, f"{played.where()}, {len(played.game.raw_actions)} logged"
                differs = replay_difference(played.game)
                if differs:
                    ending, where = "replay differs", f"{where}; {differs}"
                if played.slowest[0] > 3.0:
                    where += f"; slow: {played.slowest[0]:.1f} s at {played.slowest[1]}"
            except AssertionError as broken:
                ending, where = "broken", str(broken).splitlines()[0]
            endings[ending] += 1
            print(f"{count}p seed {seed} {policy}{' ' + ','.join(options) if options else ''}: {ending} "
                  f"({where}, {time.perf_counter() - began:.1f} s)", flush=True)
    print(f"{args.games} games in {time.perf_counter() - start:.0f} s: {dict(endings)}")


if __name__ == "__main__":
    main()

"""More games of typed random play than the test suite plays (run by hand, not a test): every
random legal move also typed as its command and built by the bot, which must make the same move
(`tests/bot/typed_random_play.py`).

    python bench/typed_random_play.py 18Texas|18USA [--games 10] [--first-seed 9000] [--actions 1500]
        [--policy deep] [--check-optimizer]

Player counts, policies (18Texas) and the site's reading rotate with the seed. Prints each game's
disagreements. `--check-optimizer` checks every run proposal (`optimizer_check`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "bot")]

from optimizer_check import bench_check  # noqa: E402
from typed_random_play import play_typed  # noqa: E402

POLICIES = ("sensible", "uniform", "trader")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title", choices=("18Texas", "18USA"))
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=9000)
    parser.add_argument("--actions", type=int, default=1500)
    parser.add_argument("--policy", default=None, choices=(*POLICIES, "weighted", "deep"),
                        help="one policy for every game (default: 18Texas's rotate, 18USA's weighted)")
    parser.add_argument("--check-optimizer", action="store_true",
                        help="check every run proposal against a 20 s solve or the brute force (optimizer_check)")
    args = parser.parse_args()
    with bench_check(args.check_optimizer, f"typed_random_play {args.title} --policy {args.policy}"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            count = 3 + seed % 3 if args.title == "18Texas" else 4 + seed % 4
            options = ("site_rules",) if seed % 2 == 0 else ()
            began = time.perf_counter()
            policy = args.policy or (POLICIES[seed % 3] if args.title == "18Texas" else "weighted")
            made, problems = play_typed(args.title, count, seed, options, args.actions, policy)
            print(f"{args.title} {count}p seed {seed}{' site_rules' if options else ''}: {made} moves, "
                  f"{len(problems)} disagreements ({time.perf_counter() - began:.0f} s)", flush=True)
            for problem in problems[:8]:
                print(f"    {problem[:600]}", flush=True)


if __name__ == "__main__":
    main()

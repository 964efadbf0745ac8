"""More games of typed random play than the test suite plays (run by hand, not a test): every
random legal move also typed as its command and built by the bot, which must make the same move
(`tests/bot/typed_random_play.py`).

    python bench/typed_random_play.py 18Texas|18USA [--games 10] [--first-seed 9000] [--actions 1500]
        [--policy deep|rare] [--check-optimizer] [--options a,b,...]

Player counts, policies (18Texas) and the site's reading rotate with the seed; `--options` adds
rule options to every game (18USA's rule 17 variants: seventeen_trains, president_above_60,
max_start_300). Prints each game's disagreements and its legal-moves queries or actions over
Discord's 3 s (under load, a query over 3 s is worth timing again on a quiet machine).
`--check-optimizer` checks every run proposal (`optimizer_check`).
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
    parser.add_argument("--policy", default=None, choices=(*POLICIES, "weighted", "deep", "rare"),
                        help="one policy for every game (default: 18Texas's rotate, 18USA's weighted)")
    parser.add_argument("--check-optimizer", action="store_true",
                        help="check every run proposal against a 20 s solve or the brute force (optimizer_check)")
    parser.add_argument("--options", default="", help="rule options added to every game, comma-separated")
    args = parser.parse_args()
    added = tuple(option for option in args.options.split(",") if option)
    with bench_check(args.check_optimizer, f"typed_random_play {args.title} --policy {args.policy}"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            count = 3 + seed % 3 if args.title == "18Texas" else 4 + seed % 4
            options = tuple(dict.fromkeys((("site_rules",) if seed % 2 == 0 else ()) + added))
            began = time.perf_counter()
            policy = args.policy or (POLICIES[seed % 3] if args.title == "18Texas" else "weighted")
            slow: list[str] = []
            made, problems = play_typed(args.title, count, seed, options, args.actions, policy, slow)
            ending = "ended" if made < args.actions else "not ended"
            print(f"{args.title} {count}p seed {seed} {','.join(options) or 'printed'}: {made} moves ({ending}), "
                  f"{len(problems)} disagreements, {len(slow)} over 3 s ({time.perf_counter() - began:.0f} s)",
                  flush=True)
            for problem in problems[:8] + slow[:8]:
                print(f"    {problem[:600]}", flush=True)


if __name__ == "__main__":
    main()

"""How deep the random players' games go (run by hand, not a test): for a title, a policy and a
range of seeds, the share of games reaching the last phase and ending by the game-end rules
rather than the action cap, and how often the deep parts of the rules came up: loans, mergers
and acquisitions, shorts (18USA), liquidations, bankruptcies, Pullmans and private companies'
powers.

    python bench/random_depth.py 18USA|18Texas [--policy deep] [--games 30] [--first-seed 20000]
        [--cap 1500] [--options a,b] [--check-optimizer]

18USA's policies: `weighted` (the property tests'), `deep` and `rare`; 18Texas's: `sensible`, `uniform`,
`trader` (the property tests') and `deep`. Prints a line a game and the figures over all games.
`--check-optimizer` checks every run proposal (`optimizer_check`).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18usa"),
                str(ROOT / "tests" / "engine" / "titles" / "g18texas")]

from optimizer_check import bench_check  # noqa: E402

from engine.log import Game  # noqa: E402

ACQUIRED = re.compile(r"^\S+ buys \S+ for \$")


@dataclass
class Depth:
    """What one game reached."""
    phase: str
    last_phase: bool
    ending: str  # the game's end reason, "cap" or "broken"
    actions: int
    seconds: float
    failure: str | None = None
    counts: dict[str, int] = field(default_factory=dict)
    best_train: str = "none"  # the biggest train a company bought (a phase reached by play, not exports)


def depth_of(game: Game, ending: str, actions: int, seconds: float, failure: str | None) -> Depth:
    state = game.state
    raw = game.raw_actions
    kinds = collections.Counter(str(action.get("type")) for action in raw)
    log = [str(line) for line in state.log]
    counts = {
        "loans": kinds["take_loan"],
        "mergers": kinds["merge"],
        "conversions": kinds["convert"],
        "acquisitions": sum(1 for line in log if ACQUIRED.match(line)),
        "shorts": kinds["short"],
        "liquidations": sum(1 for line in log if "goes into liquidation" in line),
        "bankruptcies": sum(1 for player in state.players if player.bankrupt),
        "pullmans": sum(1 for action in raw if action.get("type") == "buy_train"
                        and str(action.get("train", "")).startswith("P-")),
        "private_powers": sum(1 for action in raw if action.get("entity_type") == "company"),
        "issues": sum(1 for action in raw if action.get("type") == "sell_shares"
                      and action.get("entity_type") == "corporation"),
        "redemptions": sum(1 for action in raw if action.get("type") == "buy_shares"
                           and action.get("entity_type") == "corporation"),
        "trains_bought": kinds["buy_train"],
    }
    names = [phase.name for phase in state.phases]
    bought = [str(action.get("train", "")).split("-")[0] for action in raw if action.get("type") == "buy_train"]
    best = max((names.index(name) for name in bought if name in names), default=-1)
    return Depth(state.phase.name, state.phase is state.phases[-1], ending, actions, seconds, failure, counts,
                 names[best] if best >= 0 else "none")


def play_usa(count: int, seed: int, options: list[str], policy: str, cap: int) -> Depth:
    from usa_random_play import play_random_game

    began = time.perf_counter()
    played = play_random_game(count, seed, cap, options=options, policy=policy)
    return depth_of(played.game, played.ending, played.actions, time.perf_counter() - began, played.failure)


def play_texas(count: int, seed: int, options: list[str], policy: str, cap: int) -> Depth:
    import test_18texas_properties as texas

    began = time.perf_counter()
    try:
        played = texas.play_random_game(count, seed, options, policy, None, cap=cap)
    except texas.BrokenGame as broken:
        return depth_of(broken.game, "broken", broken.actions, time.perf_counter() - began, str(broken))
    return depth_of(played.game, played.ending, played.actions, time.perf_counter() - began, None)


def summary(games: list[Depth]) -> str:
    n = len(games)
    endings = collections.Counter(g.ending for g in games)
    phases = collections.Counter(g.phase for g in games)
    lines = [f"{n} games: last phase {sum(g.last_phase for g in games)}/{n}, "
             f"ended by the rules {sum(g.ending not in ('cap', 'broken') for g in games)}/{n}, "
             f"endings {dict(endings)}, phases {dict(sorted(phases.items()))}",
             f"  biggest train bought {dict(sorted(collections.Counter(g.best_train for g in games).items()))}",
             f"  mean actions {sum(g.actions for g in games) / n:.0f}, "
             f"mean time {sum(g.seconds for g in games) / n:.1f} s"]
    for key in games[0].counts:
        total = sum(g.counts[key] for g in games)
        having = sum(1 for g in games if g.counts[key])
        lines.append(f"  {key}: {total} in all, in {having}/{n} games")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("title", choices=("18USA", "18Texas"))
    parser.add_argument("--policy", default=None)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--first-seed", type=int, default=20000)
    parser.add_argument("--cap", type=int, default=1500)
    parser.add_argument("--options", default="", help="rule options, comma-separated")
    parser.add_argument("--check-optimizer", action="store_true",
                        help="check every run proposal against a 20 s solve or the brute force (optimizer_check)")
    args = parser.parse_args()
    options = [o for o in args.options.split(",") if o]
    usa = args.title == "18USA"
    policy = args.policy or ("weighted" if usa else "sensible")
    games: list[Depth] = []
    with bench_check(args.check_optimizer, f"random_depth {args.title} --policy {policy}"):
        for seed in range(args.first_seed, args.first_seed + args.games):
            count = 4 + seed % 4 if usa else 3 + seed % 3
            depth = (play_usa if usa else play_texas)(count, seed, options, policy, args.cap)
            games.append(depth)
            counts = " ".join(f"{k}={v}" for k, v in depth.counts.items() if v)
            print(f"{count}p seed {seed}: {depth.ending} phase {depth.phase} (bought {depth.best_train}) after {depth.actions} actions "
                  f"({depth.seconds:.1f} s) {counts}" + (f"\n    {depth.failure}" if depth.failure else ""), flush=True)
    print(f"{args.title} policy {policy}{' options ' + args.options if options else ''}:\n{summary(games)}")


if __name__ == "__main__":
    main()

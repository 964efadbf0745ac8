"""The run positions of the 18USA logs as the game class reaches them (for bench/router.py).

Unlike bench/usa_positions.py (the board alone, Mexico and the Pullman as its only rules), each
log is replayed through the real 18USA game, as tests/engine/titles/g18usa/usa_tracecheck.py
does, and before each `run_routes` the optimizer answers for the game as it stands: the title's
own route hooks (red areas by phase, tokens, resources, privates, attachments already chosen)
and the engine's run check of its answer. A log is followed until the game first refuses one of
its actions (where our engine still differs from the reference), so the positions are only those
the game really reaches.

Positions whose answer is not proven or earns less than the players' runs are listed in one
table: log, action, company, trains, found, declared (what the logged routes earned), bound
(an upper bound: the answer itself when proven, else the sum of each train's proven best alone,
each solved for at most --bound-budget seconds, default 20, outside the timing; "?" if one was
not proven), wall and CPU seconds.

    python bench/usa_game_positions.py [--budget S] [--bound-budget S] [LOG-NAME-SUFFIX ...]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "engine" / "titles" / "g18usa"))

from usa_logs import LOGS, read_log  # noqa: E402
from usa_tracecheck import start  # noqa: E402

from engine import GameError  # noqa: E402
from engine.core.game import BaseGame  # noqa: E402
from engine.core.most_earnings import best_runs, problem_from_game  # noqa: E402
from engine.router import RouteResult, solve_problem  # noqa: E402


@dataclass(frozen=True)
class Timed:
    action: int  # index of the run_routes action in the log
    corporation: str
    declared: int  # what the players' runs earned
    result: RouteResult
    wall: float
    cpu: float
    trains: str = ""  # the company's trains by distance, "8+6"
    bound: int | None = None  # most the trains could earn (see the module docstring); None: unknown

    @property
    def listed(self) -> bool:
        return self.result.total < self.declared or not self.result.proven_optimal


def single_train_bound(game: BaseGame, corporation: str, budget: float) -> int | None:
    """The sum of each train's best run alone (with every attachment it may carry), if each is proven."""
    problem = problem_from_game(game, game.corporation(corporation))
    total = 0
    for train in problem.trains:
        alone = solve_problem(replace(problem, trains=(train,)), time_budget=budget)
        if not alone.proven_optimal:
            return None
        total += alone.total
    return total


def game_positions(log_path: Path, budget: float, bound_budget: float = 20.0) -> Iterator[Timed]:
    """Each run position the game reaches in this log, solved within `budget` seconds."""
    log = read_log(log_path)
    game = start(log)
    for index, action in enumerate(log["actions"]):
        if action["type"] == "run_routes" and action.get("routes"):
            entity = str(action["entity"])
            started, used = time.perf_counter(), time.process_time()
            result = best_runs(game, entity, time_budget=budget)
            wall, cpu = time.perf_counter() - started, time.process_time() - used
            declared = sum(int(route.get("revenue") or 0) for route in action["routes"])
            trains = "+".join(str(train.distance) for train in sorted(
                game.corporation(entity).trains, key=lambda train: -train.distance) if train.distance)
            timed = Timed(index, entity, declared, result, wall, cpu, trains)
            if timed.listed:
                timed = replace(timed, bound=single_train_bound(game, entity, bound_budget))
            elif result.proven_optimal:
                timed = replace(timed, bound=result.total)
            yield timed
        try:
            game.apply(action)
        except GameError:
            return


def main() -> None:
    args = sys.argv[1:]
    options = ("--budget", "--bound-budget")
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    bound_budget = float(args[args.index("--bound-budget") + 1]) if "--bound-budget" in args else 20.0
    wanted = [arg for index, arg in enumerate(args) if not arg.startswith("--")
              and (index == 0 or args[index - 1] not in options)]
    time_game_logs(budget, wanted, bound_budget)


def time_game_logs(budget: float, wanted: list[str] | None = None, bound_budget: float = 20.0) -> None:
    """Print the figures of each log and of all of them, then the table of the positions not
    proven or below the players' revenue."""
    sys.path.insert(0, str(ROOT / "bench"))
    from router import line

    everything: list[tuple[str, Timed]] = []
    for log_path, _ in LOGS:
        if wanted and not any(log_path.stem.endswith(name) for name in wanted):
            continue
        timed = list(game_positions(log_path, budget, bound_budget))
        if not timed:
            continue
        proven = sum(item.result.proven_optimal for item in timed)
        print(line(f"18USA game {log_path.stem}", [t.wall for t in timed], proven, [t.cpu for t in timed]),
              flush=True)
        everything += [(log_path.stem, item) for item in timed]
    if not everything:
        return
    listed = [(name, item) for name, item in everything if item.listed]
    if listed:
        print(f"{'log':26s} {'action':>6s} {'company':7s} {'trains':9s} {'found':>5s} {'declared':>8s} "
              f"{'bound':>5s} {'proven':6s} {'wall s':>6s} {'cpu s':>6s}")
        for name, item in listed:
            bound = "?" if item.bound is None else str(item.bound)
            print(f"{name:26s} {item.action:6d} {item.corporation:7s} {item.trains:9s} {item.result.total:5d} "
                  f"{item.declared:8d} {bound:>5s} {'yes' if item.result.proven_optimal else 'no':6s} "
                  f"{item.wall:6.3f} {item.cpu:6.3f}", flush=True)
    timed = [item for _, item in everything]
    proven = sum(item.result.proven_optimal for item in timed)
    below = sum(item.result.total < item.declared for item in timed)
    print(line(f"all 18USA game positions (budget {budget} s)", [t.wall for t in timed], proven,
               [t.cpu for t in timed]) + f"  below the players' revenue: {below}", flush=True)


if __name__ == "__main__":
    main()

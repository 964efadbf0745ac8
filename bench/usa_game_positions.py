"""The run positions of the 18USA logs as the game class reaches them (for bench/router.py).

Unlike bench/usa_positions.py (the board alone, Mexico and the Pullman as its only rules), each
log is replayed through the real 18USA game, as tests/engine/titles/g18usa/usa_tracecheck.py
does, and before each `run_routes` the optimizer answers for the game as it stands: the title's
own route hooks (red areas by phase, tokens, resources, privates, attachments already chosen)
and the engine's run check of its answer. A log is followed until the game first refuses one of
its actions (where our engine still differs from the reference), so the positions are only those
the game really reaches.

    python bench/usa_game_positions.py [--budget S] [LOG-NAME-SUFFIX ...]
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "engine" / "titles" / "g18usa"))

from usa_logs import LOGS, read_log  # noqa: E402
from usa_tracecheck import start  # noqa: E402

from engine import GameError  # noqa: E402
from engine.core.router import RouteResult, best_runs  # noqa: E402


@dataclass(frozen=True)
class Timed:
    action: int  # index of the run_routes action in the log
    corporation: str
    declared: int  # what the players' runs earned
    result: RouteResult
    wall: float
    cpu: float


def game_positions(log_path: Path, budget: float) -> Iterator[Timed]:
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
            yield Timed(index, entity, declared, result, wall, cpu)
        try:
            game.apply(action)
        except GameError:
            return


def main() -> None:
    args = sys.argv[1:]
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    wanted = [arg for index, arg in enumerate(args) if not arg.startswith("--")
              and (index == 0 or args[index - 1] != "--budget")]
    time_game_logs(budget, wanted)


def time_game_logs(budget: float, wanted: list[str] | None = None) -> None:
    """Print the figures of each log and of all of them; positions not proven or below the
    players' revenue are listed."""
    sys.path.insert(0, str(ROOT / "bench"))
    from router import line

    everything: list[Timed] = []
    for log_path, _ in LOGS:
        if wanted and not any(log_path.stem.endswith(name) for name in wanted):
            continue
        timed = list(game_positions(log_path, budget))
        if not timed:
            continue
        proven = sum(item.result.proven_optimal for item in timed)
        print(line(f"18USA game {log_path.stem}", [t.wall for t in timed], proven, [t.cpu for t in timed]),
              flush=True)
        for item in timed:
            if item.result.total < item.declared or not item.result.proven_optimal:
                print(f"  action {item.action} {item.corporation}: best {item.result.total} "
                      f"({'proven' if item.result.proven_optimal else 'not proven'}, {item.result.method}), "
                      f"declared {item.declared}, {item.cpu:.3f} s cpu", flush=True)
        everything += timed
    if everything:
        proven = sum(item.result.proven_optimal for item in everything)
        below = sum(item.result.total < item.declared for item in everything)
        print(line(f"all 18USA game positions (budget {budget} s)", [t.wall for t in everything], proven,
                   [t.cpu for t in everything]) + f"  below the players' revenue: {below}", flush=True)


if __name__ == "__main__":
    main()

"""The hardest run positions of an 18USA log, each rebuilt once and solved again and again (run by
hand, not a test).

bench/usa_game_positions.py replays a whole log for every measurement; here the log is replayed
once up to the positions wanted, their model inputs (router_modelinput) kept, and each solved by
the whole-network search (router_modelsearch.search_model) `--repeat` times. For each solve it
prints what each phase of the search took and what the best answer was after it (the quick
plans, the first model, the stop-circuit model, the longer search for good runs, the conflict
search, the last model),
then the answer, whether it is proven, the wall and CPU seconds and the load average. Default:
109372's late positions that issue 12 names (1256, 1385, 1441, 1454, 1489).

    python bench/usa_hard_positions.py [--budget S] [--repeat N] [--log NAME] [ACTION ...]
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "engine" / "titles" / "g18usa"))

from usa_logs import ALL_LOGS, read_log  # noqa: E402
from usa_tracecheck import start  # noqa: E402

from engine.core.most_earnings import problem_from_game  # noqa: E402
from engine.router import model_search as router_modelsearch  # noqa: E402
from engine.router import stopcircuit  # noqa: E402
from engine.router.model import ModelInput  # noqa: E402
from engine.router.model_input import model_input  # noqa: E402

DEFAULT_ACTIONS = (1256, 1385, 1441, 1454, 1489)
PHASES = ("plan_trains", "solve", "improve_plans", "prove")


def positions(log_name: str, actions: set[int]) -> dict[int, tuple[str, ModelInput]]:
    """Action index -> (company, model input) for each wanted run_routes action of the log."""
    log_path = next(path for path, _ in ALL_LOGS if path.stem.endswith(log_name))
    log = read_log(log_path)
    game = start(log)
    found: dict[int, tuple[str, ModelInput]] = {}
    for index, action in enumerate(log["actions"]):
        if index > max(actions):
            break
        if index in actions and action["type"] == "run_routes":
            corp = game.corporation(str(action["entity"]))
            problem = problem_from_game(game, corp)
            trains = sorted(problem.trains, key=lambda train: -train.distance)
            attachments = problem.rules.attachments() if "route_attachments" in problem.rules.hooks else ()
            found[index] = (corp.id, model_input(problem, trains, attachments))
        game.apply(action)
    return found


def _traced(name: str, real: Callable[..., Any], trace: list[str], started: list[float]) -> Callable[..., Any]:
    def phase(*args: Any, **options: Any) -> Any:
        entered = time.perf_counter()
        out = real(*args, **options)
        if name == "prove":
            what = f"better {out.better.total if out.better else '-'} finished {out.finished}"
        elif out is None:
            what = "does not apply"
        elif isinstance(out, list):
            what = str(router_modelsearch._worth(args[0], out))
        else:
            what = f"{out.total if out.found else '-'}{' proven' if out.proven else ''}"
        trace.append(f"{name} {entered - started[0]:.2f}-{time.perf_counter() - started[0]:.2f} s: {what}")
        return out
    return phase


def main() -> None:
    args = sys.argv[1:]
    options = ("--budget", "--repeat", "--log")
    budget = float(args[args.index("--budget") + 1]) if "--budget" in args else 2.0
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 1
    log_name = args[args.index("--log") + 1] if "--log" in args else "109372"
    wanted = {int(arg) for index, arg in enumerate(args) if not arg.startswith("--")
              and (index == 0 or args[index - 1] not in options)} or set(DEFAULT_ACTIONS)
    trace: list[str] = []
    started = [0.0]
    for name in PHASES:
        setattr(router_modelsearch, name, _traced(name, getattr(router_modelsearch, name), trace, started))
    stopcircuit.solve = _traced("stop circuits", stopcircuit.solve, trace, started)
    for action, (company, prepared) in sorted(positions(log_name, wanted).items()):
        trains = "+".join(str(train.distance) for train in prepared.trains)
        for _ in range(repeat):
            trace.clear()
            started[0], used = time.perf_counter(), time.process_time()
            outcome = router_modelsearch.search_model(prepared, started[0] + budget)
            wall, cpu = time.perf_counter() - started[0], time.process_time() - used
            print(f"{log_name} {action} {company} {trains}: {outcome.total} {'proven' if outcome.proven else 'open'} "
                  f"wall {wall:.2f} s cpu {cpu:.2f} s load {os.getloadavg()[0]:.1f}", flush=True)
            for line in trace:
                print(f"    {line}", flush=True)


if __name__ == "__main__":
    main()

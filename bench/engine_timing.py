"""Engine timings on the reference logs: full replay, and the legal-moves query per position.

Run by hand: `python bench/engine_timing.py`. Prints medians and worst cases in seconds.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path

from engine import load_game
from engine.core.most_earnings import best_runs
from engine.legal import legal_moves
from engine.log import SITE_RULES, effective_actions, new_game

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
LOGS = [DATA / "fixtures" / "18Texas" / "65394.json", *sorted((DATA / "generated" / "18Texas").glob("*.json"))]


def main() -> None:
    for path in LOGS:
        log = json.loads(path.read_text())
        replays = []
        for _ in range(3):
            start = time.perf_counter()
            load_game(log)
            replays.append(time.perf_counter() - start)
        game = new_game(log["title"], log["players"], log["settings"]["seed"], [SITE_RULES])
        state = game.state
        state.importing = True
        query = []
        process = []
        most = []  # the printed 12.4 check: the optimizer's best before each logged run
        for action in effective_actions(log["actions"]):
            start = time.perf_counter()
            legal_moves(state)
            query.append(time.perf_counter() - start)
            if action.get("type") == "run_routes":
                start = time.perf_counter()
                best_runs(state, str(action["entity"]), time_budget=state.most_earnings_budget)
                most.append(time.perf_counter() - start)
            start = time.perf_counter()
            state.process(action)
            process.append(time.perf_counter() - start)
        print(f"{path.stem}: {len(log['actions'])} actions; replay median {statistics.median(replays):.2f} s; "
              f"legal moves median {statistics.median(query) * 1000:.1f} ms, max {max(query) * 1000:.0f} ms; "
              f"checked process (with safety copy) median {statistics.median(process) * 1000:.1f} ms, "
              f"max {max(process) * 1000:.0f} ms; 12.4 best-runs check median "
              f"{statistics.median(most or [0.0]) * 1000:.1f} ms, max {max(most or [0.0]) * 1000:.0f} ms "
              f"({len(most)} runs)")


if __name__ == "__main__":
    main()

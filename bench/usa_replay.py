"""Whole-process time of `stationmaster replay` on the 18USA fixture 109372 (issue 11: at least
3 times faster than the reference engine's ~1.4 s whole process, so under 0.45 s), next to a
bare interpreter, the engine import alone and the replay inside one process, so a slow figure
can be told apart from a busy machine. The engine does not yet play every log to its end: the
report says how many actions the replay played.

    python bench/usa_replay.py [--runs 15] [--profile] [LOG.json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18USA" / "109372.json"


def timed(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float, float]:
    """Median and best wall-clock seconds, and the median CPU seconds of the child (after one
    run that is not counted, which writes the bytecode caches)."""
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT, env=env)
    seconds, cpu = [], []
    for _ in range(runs):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT,
                       env=env)
        seconds.append(time.perf_counter() - start)
        after = os.times()
        cpu.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return statistics.median(seconds), min(seconds), statistics.median(cpu)


def in_process(path: Path, runs: int, profile: bool) -> None:
    from engine.core.game import BaseGame
    from engine.errors import GameError
    from engine.log import document_options, new_game

    log = json.loads(path.read_text())
    seconds = []
    played = 0
    profiler = cProfile.Profile() if profile else None
    for run in range(runs):
        start = time.process_time()
        if profiler and run == runs - 1:
            profiler.enable()
        game = new_game(log["title"], log["players"], log["settings"]["seed"], document_options(log))
        state: BaseGame = game.state
        state.importing = True
        played = 0
        for action in log["actions"]:
            try:
                state.apply(action)
            except GameError:
                break
            played += 1
        if profiler and run == runs - 1:
            profiler.disable()
        seconds.append(time.process_time() - start)
    print(f"in-process replay of {path.stem}: {played} of {len(log['actions'])} actions; "
          f"CPU median {statistics.median(seconds):.3f} s, best {min(seconds):.3f} s ({runs} runs)")
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one in-process replay")
    parser.add_argument("--no-bytecode", action="store_true",
                        help="compile every module at every start (as with PYTHONDONTWRITEBYTECODE=1 and no "
                             "bytecode written yet); by default the processes read Python's bytecode caches, "
                             "as an installed Stationmaster does")
    parser.add_argument("log", nargs="?", default=str(FIXTURE))
    args = parser.parse_args()
    path = Path(args.log)
    script = shutil.which("stationmaster")
    replay = [script] if script else [sys.executable, "-m", "bot.cli"]
    rows = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import engine.log": [sys.executable, "-c", "import engine.log"],
        f"stationmaster replay {path.stem}": replay + ["replay", str(path)],
    }
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if args.no_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="stationmaster-nobytecode-")
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"bytecode caches {'not read' if args.no_bytecode else 'read'}")
    for name, command in rows.items():
        median, best, cpu = timed(command, args.runs, env)
        print(f"{name}: wall median {median:.3f} s, best {best:.3f} s; CPU median {cpu:.3f} s ({args.runs} runs)")
    in_process(path, max(3, args.runs // 3), args.profile)


if __name__ == "__main__":
    main()

"""Whole-process time of `stationmaster replay` on the 18USA fixture 109372 (issue 11: at least
3 times faster than the reference engine's ~1.4 s whole process, so under 0.45 s), next to a
bare interpreter, the engine import alone and the replay inside one process, so a slow figure
can be told apart from a busy machine. The engine does not yet play every log to its end: the
report says how many actions the replay played.

    python bench/usa_replay.py [--runs 15] [--profile] [--instructions] [LOG.json]

Wall and CPU seconds move by a quarter with what else the machine runs; `--instructions` also
counts the instructions of one whole `stationmaster replay` process under Valgrind (callgrind,
when it is installed; about a minute), a figure that compares two commits on a busy machine.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import re
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


def instructions(command: list[str], env: dict[str, str]) -> int | None:
    """Instructions executed by one run of `command` (Valgrind's callgrind), or None without
    Valgrind."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False, cwd=ROOT, env=env)
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else None


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
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions of one whole replay process (Valgrind's callgrind)")
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
    if args.instructions:
        count = instructions(replay + ["replay", str(path)], env)
        print(f"stationmaster replay {path.stem}: " +
              (f"{count:,} instructions (Valgrind callgrind)" if count is not None else "Valgrind is not installed"))
    in_process(path, max(3, args.runs // 3), args.profile)


if __name__ == "__main__":
    main()

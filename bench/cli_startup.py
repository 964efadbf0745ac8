"""Whole-process time of `stationmaster replay` on fixture 65394 (issue 9 item 6: at most
0.25 s on an idle 2-core machine), next to a bare interpreter and the engine import alone,
so a slow figure can be told apart from a busy machine.

    python bench/cli_startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18Texas" / "65394.json"


def timed(command: list[str], runs: int) -> tuple[float, float]:
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), min(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    script = shutil.which("stationmaster")
    replay = [script] if script else [sys.executable, "-m", "bot.cli"]
    rows = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "import engine.log": [sys.executable, "-c", "import engine.log"],
        "stationmaster replay 65394": replay + ["replay", str(FIXTURE)],
        "stationmaster --help (every subcommand)": replay + ["--help"],
    }
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for name, command in rows.items():
        median, best = timed(command, args.runs)
        print(f"{name}: median {median:.3f} s, best {best:.3f} s ({args.runs} runs)")


if __name__ == "__main__":
    main()

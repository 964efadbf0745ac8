"""Replay every 18USA log in tests/data against its reference trace, in parallel, and report the
first action of each that differs (run by hand, not a test; the suite runs the same check per log).

    python bench/usa_corpus.py [--jobs 2] [--offered] [--json OUT] [STEM-SUBSTRING ...]

--offered also asks, before every logged action, whether the legal moves offered it (slower).
Prints one line per log that stops, grouped by the first words of the reason, and the totals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18usa")]

from usa_logs import ALL_LOGS  # noqa: E402


def check(paths: tuple[Path, Path], offered: bool) -> tuple[str, int, str | None, list[str], float]:
    from usa_tracecheck import walk

    log_path, trace_path = paths
    start = time.perf_counter()
    try:
        found = walk(log_path, trace_path, offered_until=None if offered else 0)
    except Exception as error:  # noqa: BLE001 - a crash is a finding too
        import traceback

        return log_path.stem, -1, f"crash: {error!r} {traceback.format_exc()[-600:]}", [], 0.0
    seconds = time.perf_counter() - start
    if found.divergence is None:
        return log_path.stem, 0, None, found.unoffered, seconds
    index, reason = found.divergence
    return log_path.stem, index, reason, found.unoffered, seconds


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--offered", action="store_true")
    parser.add_argument("--json")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    logs = [pair for pair in ALL_LOGS if not args.names or any(n in pair[0].stem for n in args.names)]
    results = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(check, pair, args.offered) for pair in logs]
        for future in futures:
            results.append(future.result())
    exact = 0
    for stem, index, reason, unoffered, _seconds in results:
        if reason is None and not unoffered:
            exact += 1
            continue
        actions = len(json.loads(next(p for p, _ in logs if p.stem == stem).read_text())["actions"])
        if reason is not None:
            print(f"{stem} {index}/{actions}: {reason[:400]}")
        for line in unoffered[:3]:
            print(f"{stem} not offered: {line[:300]}")
    print(f"exact: {exact} of {len(results)}; {sum(r[4] for r in results):.0f} s of replay")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

"""Section 14's state machine on every 18USA log (run by hand, not a test): each transition the
moves of merger and acquisition rounds take, how often and where first, the ones the table of
engine/core/family1817/section14.py does not allow, the listed ones no log takes, and the fewest
logs that take every listed one (the test's COVERING_LOGS).

    python bench/usa_section_14.py [STEM ...]
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18usa")]

from usa_logs import ALL_LOGS  # noqa: E402
from usa_section14 import TABLES, Transition, listed, transitions_in  # noqa: E402

from engine.core.family1817.section14 import allowed  # noqa: E402


def main() -> None:
    names = [path.stem for path, _ in ALL_LOGS if not sys.argv[1:] or any(path.stem.endswith(a) for a in sys.argv[1:])]
    per_log: dict[str, set[Transition]] = {}
    for name in names:
        try:
            per_log[name] = transitions_in(name)
        except Exception as error:  # a log that does not replay: say so and go on
            print(f"{name}: does not replay ({error})")
    counts = Counter(t for seen in per_log.values() for t in seen)
    for (kind, before, move, after), logs in sorted(counts.items(), key=lambda item: str(item[0])):
        flag = "" if allowed(TABLES[kind], before, move, after) else "   NOT IN THE TABLE"
        print(f"{kind:16} {before.name:17} --{move:14}--> {after.name:17} in {logs:3} logs{flag}")
    wanted = listed()
    print("listed, in no log:", sorted(f"{k} {b.name} {m} {a.name}" for k, b, m, a in wanted - set(counts)) or "none")
    left, chosen = wanted & set(counts), []
    while left:
        best = max(per_log, key=lambda name: len(left & per_log[name]))
        chosen.append(best)
        left -= per_log[best]
    print("covering logs:", tuple(chosen))


if __name__ == "__main__":
    main()

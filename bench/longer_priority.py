"""Do the moves' proposals suffer while a longer search runs? 109372's run positions from action
1300 to 1440 are proposed (2 s each, the quick worker) while the longer worker searches B&O's
8+6 at action 1441 for up to 30 s, once with the longer worker at the same CPU priority and once
at the niceness the bot gives it (pictures.LONGER). Prints proposals proven, median, max and
total seconds for each, alternating twice.

    python bench/longer_priority.py
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import pictures as pics  # noqa: E402
from engine.log import load_game  # noqa: E402

LOG = ROOT / "tests" / "data" / "fixtures" / "18USA" / "109372.json"


async def measure(niceness: int, late: Any, positions: list[tuple[Any, str]]) -> None:
    longer, quick = pics.OptimizerWorker(niceness=niceness), pics.OptimizerWorker()
    try:
        first, corp = positions[0]
        await quick.propose(first, corp, 0.1)  # both workers started before the clock runs
        await longer.propose(first, corp, 0.1)
        background = asyncio.create_task(longer.propose(late, "B&O", 30))
        await asyncio.sleep(0.5)
        times, proven = [], 0
        for state, corporation in positions:
            started = time.monotonic()
            found = await quick.propose(state, corporation, 2.0)
            times.append(time.monotonic() - started)
            proven += bool(found and found.proven_optimal)
        background.cancel()
        try:
            await background
        except asyncio.CancelledError:
            pass
    finally:
        longer.close()
        quick.close()
    times.sort()
    print(f"longer worker niceness {niceness}: {len(times)} proposals, {proven} proven, "
          f"median {times[len(times) // 2]:.3f} s, max {times[-1]:.2f} s, total {sum(times):.1f} s")


def main() -> None:
    document = json.loads(LOG.read_text())
    late = load_game({**document, "actions": document["actions"][:1441]}).state
    positions = [(load_game({**document, "actions": document["actions"][:index]}).state, str(action["entity"]))
                 for index, action in enumerate(document["actions"][1300:1440], start=1300)
                 if action["type"] == "run_routes"]
    for niceness in (0, pics.LONGER.niceness) * 2:
        asyncio.run(measure(niceness, late, positions))


if __name__ == "__main__":
    main()

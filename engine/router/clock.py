"""When a phase of the route optimizer must stop: at a time on the wall clock, or by a test.

Most phases stop at a wall-clock time (`time.perf_counter()`), the deadline the player waits for.
The listing search's share of the budget is counted in the process's own CPU time instead
(`cpu_share`): it proves small positions in tens of milliseconds, and on a machine busy with
other work a share of wall time left it a fraction of that (18Texas random play, seed 19101,
SP's 6+6: listed and proven in 0.04 s of CPU, cut off after 0.1 s of wall time at load 6, and the
model then proved nothing in the second left).
"""

from __future__ import annotations

import time
from collections.abc import Callable

Deadline = float | Callable[[], bool]  # a perf_counter() time, or a test that says it has passed


def passed(deadline: Deadline | None) -> bool:
    if deadline is None:
        return False
    if callable(deadline):
        return deadline()
    return time.perf_counter() > deadline


def cpu_share(seconds: float, latest: float) -> Callable[[], bool]:
    """Passed once this process has used `seconds` of CPU from now, or at wall time `latest`."""
    cpu_end = time.process_time() + seconds
    return lambda: time.process_time() > cpu_end or time.perf_counter() > latest

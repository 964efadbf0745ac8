"""The listing search's share of the budget is CPU time (router_clock): a machine busy with other
work, which leaves this process little CPU, must not cut the listing off before it has done the
work it proves small positions with."""

from __future__ import annotations

import time
from typing import Any

import pytest
from test_router_api import position

from engine.core import router
from engine.core.router import best_runs
from engine.core.router_clock import cpu_share, passed


def _spin(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_a_cpu_share_passes_on_cpu_used_or_at_the_wall_deadline() -> None:
    share = cpu_share(0.05, time.perf_counter() + 60)
    time.sleep(0.2)  # waiting, as a process does on a loaded machine, uses no CPU
    assert not passed(share)
    _spin(0.06)
    assert passed(share)
    assert passed(cpu_share(60, time.perf_counter() - 1))
    assert passed(time.perf_counter() - 1) and not passed(time.perf_counter() + 60) and not passed(None)


def test_the_listing_gets_its_share_in_cpu_time(monkeypatch: pytest.MonkeyPatch) -> None:
    state, _ = position(470)  # T&P's 8-train late in the game
    real = router._listing
    waited: list[bool] = []

    def starved(*args: Any, **options: Any) -> router.RouteResult:
        # 0.3 s of wall time without CPU, as under load: more than the listing's 0.1 s share
        # of a 1 s budget, yet the listing may still do its work.
        time.sleep(0.3)
        waited.append(passed(args[3]))
        return real(*args, **options)

    monkeypatch.setattr(router, "_listing", starved)
    result = best_runs(state, "T&P", time_budget=1.0)

    assert waited == [False]
    assert result.method == "listing" and result.proven_optimal

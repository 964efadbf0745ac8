"""Coming back to a game, timed on the whole 18USA game 109372 (run by hand, not a test).

    python bench/since.py [runs]

- history: the one replay that records what every action did (cold; the bot keeps it per game);
- digest: `since` + its text for every pair of a player's consecutive moves (as a ping after
  the others' moves asks it), and the same after a history grows by the one new action
  (`extend`, what the bot does before a ping);
- map at: `state_at` + the map PNG for "OR 3.2" from a kept history (cold), the same from
  nothing (history built first), and cached (the bot's kept views and picture);
- charts: each chart's numbers and PNG, from a kept history.

Wall time and the process's CPU time are both given: on a busy machine the CPU time is what
the work costs. Targets: digest <= 50 ms (p95), map at <= 1 s cold, chart <= 1 s.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.history import History  # noqa: E402
from engine.moments import resolve, state_at  # noqa: E402
from engine.since import since  # noqa: E402
from engine.story import KINDS, chart  # noqa: E402
from render import png  # noqa: E402
from render.at_moment import map_at  # noqa: E402
from render.charts import chart_png  # noqa: E402
from render.from_engine import map_view  # noqa: E402
from render.map_svg import map_svg  # noqa: E402

FIXTURE = ROOT / "tests" / "data" / "fixtures" / "18USA" / "109372.json"


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def summary(label: str, walls: list[float], cpus: list[float]) -> None:
    def p95(values: list[float]) -> float:
        return sorted(values)[max(0, round(0.95 * len(values)) - 1)]

    print(f"{label:<46} n={len(walls):<5} wall median {statistics.median(walls) * 1000:8.1f} ms  "
          f"p95 {p95(walls) * 1000:8.1f} ms  max {max(walls) * 1000:8.1f} ms  |  "
          f"cpu median {statistics.median(cpus) * 1000:8.1f} ms  p95 {p95(cpus) * 1000:8.1f} ms")


def main(runs: int = 3) -> None:
    document = json.loads(FIXTURE.read_text())
    walls, cpus = [], []
    history = None
    for _ in range(runs):
        wall, cpu, history = timed(lambda: History.of_document(document))
        walls.append(wall)
        cpus.append(cpu)
    assert history is not None
    summary("history of 109372 (1,543 actions), cold", walls, cpus)

    walls, cpus = [], []
    for player in history.names:
        moves = [entry.index for entry in history.entries if entry.decider == player and entry.is_move]
        for second in moves[1:]:
            wall, cpu, _ = timed(lambda second=second, player=player: since(history, player, upto=second).text(1900))
            walls.append(wall)
            cpus.append(cpu)
    summary("digest between two moves (since + text)", walls, cpus)

    # A ping after one more action: the kept history grows by it, then the digest.
    raw = document["actions"]
    growing = History.of_document({**document, "actions": raw[:1000]})
    walls, cpus = [], []
    for end in range(1001, 1201):
        player = str(growing.entries[-1].decider) if growing.entries else ""
        wall, cpu, _ = timed(lambda end=end, player=player: (growing.extend(raw[:end]),
                                                             since(growing, player).text(1900)))
        walls.append(wall)
        cpus.append(cpu)
    summary("extend by one action + digest (actions 1001-1200)", walls, cpus)

    def map_at_moment(kept: History) -> bytes:
        moment = resolve(kept, "OR 3.2")
        return png.map_png(map_svg(map_at(map_view(state_at(kept, moment)), moment.label)))

    png.map_png(map_svg(map_view(history.state)))  # warm-up: fonts, CairoSVG
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, picture = timed(lambda: map_at_moment(history))
        walls.append(wall)
        cpus.append(cpu)
    summary("map at OR 3.2, cold (history kept)", walls, cpus)
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu, _ = timed(lambda: map_at_moment(History.of_document(document)))
        walls.append(wall)
        cpus.append(cpu)
    summary("map at OR 3.2, cold (history built first)", walls, cpus)
    # Cached, as bot.coming_back answers a second `/game map at:OR 3.2`: the kept history checked
    # against the stored log, the moment resolved, its views and their picture found kept.
    from bot import drawing
    from bot.coming_back import Kept, _views_at
    from bot.model import Picture

    moment = resolve(history, "OR 3.2")
    views_kept = Kept(32)
    views = _views_at(history, moment)
    views_kept.keep((1, moment.count, False), views)
    drawing._keep("map", views.map, Picture("map.png", picture))

    def cached() -> bytes:
        assert history.matches(raw)
        found = resolve(history, "OR 3.2")
        kept_views = views_kept.get_kept((1, found.count, found.actions is not None))
        kept = drawing._kept("map", kept_views.map)
        assert kept is not None
        return kept.data

    walls, cpus = [], []
    for _ in range(50):
        wall, cpu, _ = timed(cached)
        walls.append(wall)
        cpus.append(cpu)
    summary("map at OR 3.2, cached (history, views, picture kept)", walls, cpus)

    chart_png(chart(history, "values"))  # warm-up: matplotlib and its fonts
    for kind in KINDS:
        walls, cpus = [], []
        for _ in range(runs):
            wall, cpu, _ = timed(lambda kind=kind: chart_png(chart(history, kind)))
            walls.append(wall)
            cpus.append(cpu)
        summary(f"chart {kind}", walls, cpus)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)

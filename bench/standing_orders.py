"""What standing orders cost (issue 30), in one process:

- replaying the two logs with programs, as recorded and with their automatic moves worked out
  again (`load_game(..., recompute=True)`, what `stationmaster replay --recompute-programs` does);
- the question the Moderator asks after every move (`engine.automatic.follow_up`) when it makes
  nothing, summed over the 459 actions of 65394 (before issue 30 the Moderator listed the legal
  moves after each move to find a company nobody presides);
- one long chain made at the table: 65394 before action 148, Player 2's share pass setting off
  eight moves of four players' orders (`Game.play`, with its safety copy).

    python bench/standing_orders.py [--runs 7]

Medians (and the best) of CPU seconds (`time.process_time`), so another process's load shows less.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.automatic import follow_up  # noqa: E402
from engine.legal import unattended_move  # noqa: E402
from engine.log import effective_actions, load_game  # noqa: E402

FIXTURES = ROOT / "tests" / "data" / "fixtures"
TEXAS = FIXTURES / "18Texas" / "65394.json"
USA = FIXTURES / "18USA" / "109372.json"


def cpu(work: Callable[[], object], runs: int) -> tuple[float, float]:
    seconds = []
    for _ in range(runs):
        start = time.process_time()
        work()
        seconds.append(time.process_time() - start)
    return statistics.median(seconds), min(seconds)


def after_each_move(document: dict, ask: Callable[[object], object]) -> Callable[[], float]:
    """Replay the log and time only `ask(state)` after each action."""
    def work() -> float:
        game = load_game({**document, "actions": []})
        state = game.state
        state.importing = True
        spent = 0.0
        for action in effective_actions(document["actions"]):
            state.apply(action)
            start = time.process_time()
            ask(state)
            spent += time.process_time() - start
        return spent
    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    for path in (TEXAS, USA):
        document = json.loads(path.read_text())
        recorded = cpu(lambda document=document: load_game(document), runs)
        worked_out = cpu(lambda document=document: load_game(document, recompute=True), runs)
        print(f"{path.stem}: replay {recorded[0]:.2f} s (best {recorded[1]:.2f}), with the automatic moves worked "
              f"out {worked_out[0]:.2f} s (best {worked_out[1]:.2f})")
    document = json.loads(TEXAS.read_text())
    for name, ask in (("follow_up (now)", follow_up), ("legal moves for an unattended company (before)",
                                                       unattended_move)):
        spent = sorted(after_each_move(document, ask)() for _ in range(max(1, runs // 2)))
        print(f"65394, asked after each of {len(document['actions'])} actions: {name} {spent[len(spent) // 2]:.3f} s "
              f"in all")
    prefix = {**document, "actions": document["actions"][:148]}
    chained = dict(document["actions"][148])
    chained.pop("auto_actions")

    def chain() -> None:
        game = load_game(prefix)
        start = time.process_time()
        made = game.play(dict(chained))
        chain.seconds.append(time.process_time() - start)  # type: ignore[attr-defined]
        assert len(made) == 8, made

    chain.seconds = []  # type: ignore[attr-defined]
    for _ in range(runs):
        chain()
    seconds = chain.seconds  # type: ignore[attr-defined]
    print(f"65394 before 148: a share pass and the 8 moves of orders after it, {statistics.median(seconds) * 1000:.0f} ms "
          f"(best {min(seconds) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()

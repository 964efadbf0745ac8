"""Mend a kept position whose log a rules change made stop replaying (run by hand, not a test).

A kept position (tests/data/positions/NAME.json) is a log of random legal play. When a rule
change lets another player act where the log's next action assumed they could not (11.6.1's cash
subsidy toward the opening bid made more players able to start a company), the replay stops at
that action: it is someone else's turn. This replays the log and, at each refused action, puts in
a pass of whoever may pass now (never of the refused action's own entity), then tries the action
again. It prints each pass put in; with --write it saves the mended log. Check the position the
tests expect is still the one reached (the tests say what they rely on) before committing.

    python bench/mend_kept_position.py NAME [--write] [--most 20]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.core.rng import seed_from_game  # noqa: E402
from engine.errors import GameError  # noqa: E402
from engine.legal import legal_moves  # noqa: E402
from engine.log import document_options, new_game  # noqa: E402

KEPT = ROOT / "tests" / "data" / "positions"


def mended(document: dict[str, Any], most: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The log's actions with the passes put in, and a line for each pass (or the refusal that
    no pass could get past). Raises GameError when more than `most` passes would be needed."""
    seed = seed_from_game((document.get("settings") or {}).get("seed"), document.get("id"))
    game = new_game(document["title"], document["players"], seed, document_options(document)).state
    game.importing = True
    actions: list[dict[str, Any]] = []
    notes: list[str] = []
    for index, action in enumerate(document["actions"]):
        while True:
            try:
                game.apply(action)
                break
            except GameError as error:
                passes = [move for move in legal_moves(game)
                          if move["type"] == "pass" and str(move["entity"]) != str(action.get("entity"))]
                if not passes or len(notes) >= most:
                    raise GameError(f"action {index} ({action}) refused: {error}") from error
                game.apply(passes[0])
                actions.append(passes[0])
                notes.append(f"before action {index} ({action['type']} by {action.get('entity')}): "
                             f"a pass by {passes[0]['entity']} ({error})")
        actions.append(action)
    return actions, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", help="the kept position's file name, without .json")
    parser.add_argument("--write", action="store_true", help="save the mended log")
    parser.add_argument("--most", type=int, default=20, help="passes to put in at most")
    args = parser.parse_args()
    path = KEPT / f"{args.name}.json"
    document = json.loads(path.read_text())
    actions, notes = mended(document, args.most)
    for line in notes:
        print(line)
    if not notes:
        print("the log replays as it is")
    elif args.write:
        path.write_text(json.dumps({**document, "actions": actions}, separators=(",", ":")))
        print(f"wrote {path}")


if __name__ == "__main__":
    main()

"""`stationmaster replay [--recompute-programs] FILE.json`: replay an 18xx.games log and print
the result as JSON; with `--recompute-programs` the automatic moves (standing orders) are worked
out by the engine and checked against those the log recorded."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine.errors import AutomaticMovesDiffer, GameError
from engine.log import effective_actions, load_game
from untrusted.files import MAX_LOG_BYTES, PATH_QUOTE, FileRefused, read_json_file
from untrusted.quote import cut


def read_log(path: str) -> dict[str, Any]:
    """Read a game log file, with errors a user can act on: at most MAX_LOG_BYTES are read and
    the JSON is parsed as hostile input (``untrusted``), so no file can exhaust the memory or the
    stack. `replay`, `routes` and `render` all read their logs here."""
    try:
        data = read_json_file(path, MAX_LOG_BYTES)
    except FileRefused as error:
        raise GameError(str(error)) from None
    if not isinstance(data, dict):
        raise GameError(f"{cut(path, PATH_QUOTE)} does not hold a game log (a JSON object)")
    return data


def replay_summary(data: dict[str, Any], recompute: bool = False) -> dict[str, Any]:
    game = load_game(data, recompute=recompute)
    keys = {str(p.get("id", p.get("name"))): p.get("id", p.get("name")) for p in data.get("players", [])}
    result = {str(keys.get(key, key)): value for key, value in game.result().items()}
    summary = {
        "title": data["title"],
        "actions": len(data.get("actions", [])),
        "finished": game.finished,
        "result": result,
    }
    if recompute:
        kept = effective_actions([a for a in data.get("actions", []) if isinstance(a, dict)])
        summary["automatic_moves_reproduced"] = sum(len(a.get("auto_actions") or []) for a in kept)
    return summary


def run_replay(args: argparse.Namespace) -> int:
    try:
        summary = replay_summary(read_log(args.file), recompute=args.recompute_programs)
    except AutomaticMovesDiffer as error:
        print(f"stationmaster replay: {error}", file=sys.stderr)
        return 1
    except GameError as error:
        print(f"stationmaster replay: {error}", file=sys.stderr)
        return 2
    print(json.dumps(summary))
    return 0


def add_subcommands(subparsers: Any) -> None:
    replay = subparsers.add_parser("replay", help="replay an 18xx.games game log and print the result")
    replay.add_argument("file", help="18xx.games game log (JSON)")
    replay.add_argument("--recompute-programs", action="store_true",
                        help="work out the automatic moves (standing orders) by the engine's rules instead of "
                             "replaying those the log recorded, and stop at the first action whose moves differ")
    replay.set_defaults(func=run_replay)

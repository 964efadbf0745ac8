"""`stationmaster routes FILE.json`: the optimizer's best runs at every run of a logged game.

For each `run_routes` action of an 18xx.games log, the position just before it is rebuilt and the
optimizer's answer is printed beside what was logged, one JSON object per line. `action` is the
answer as an 18xx.games `run_routes` action, so another engine can check any run proposed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from engine.cli import read_log
from engine.core.game import BaseGame
from engine.core.most_earnings import best_runs
from engine.core.rng import seed_from_game
from engine.errors import GameError
from engine.log import SITE_RULES, effective_actions, new_game


def run_positions(data: dict[str, Any]) -> Iterator[tuple[BaseGame, dict[str, Any]]]:
    """Each logged `run_routes` action with the position just before it.

    The same game object moves on after each yield (replaying once, not once per action), so a
    caller must finish with a position before asking for the next one.
    """
    settings = data.get("settings") or {}
    players = data.get("players")
    title = data.get("title")
    if not isinstance(title, str) or not isinstance(players, list):
        raise GameError("the game log needs a title and a list of players")
    options = [SITE_RULES] + list(settings.get("optional_rules") or [])
    state = new_game(title, players, seed_from_game(settings.get("seed"), data.get("id")), options).state
    # As load_game does: logged revenues stand, since maps on the reference site were corrected.
    state.importing = True
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise GameError("the game log needs a list of actions")
    for action in effective_actions([a for a in actions if isinstance(a, dict)]):
        if action.get("type") == "run_routes":
            yield state, action
        try:
            state.apply(action)
        except GameError as error:
            raise GameError(f"action id {action.get('id')} ({action.get('type')}): {error}") from error


def route_lines(data: dict[str, Any], time_budget: float = 2.0) -> Iterator[dict[str, Any]]:
    """One summary per logged run: what was declared and what the optimizer finds."""
    for state, action in run_positions(data):
        corporation = str(action.get("entity"))
        result = best_runs(state, corporation, time_budget=time_budget)
        declared = sum(int(route.get("revenue") or 0) for route in action.get("routes") or [])
        yield {
            "action_id": action.get("id"),
            "corporation": corporation,
            "declared": declared,
            "best": result.total,
            "proven_optimal": result.proven_optimal,
            "seconds": round(result.seconds, 4),
            "method": result.method,
            "action": result.to_action(corporation),
        }


def run_routes(args: argparse.Namespace) -> int:
    try:
        for line in route_lines(read_log(args.file), args.time_budget):
            print(json.dumps(line), flush=True)
    except GameError as error:
        print(f"stationmaster routes: {error}", file=sys.stderr)
        return 2
    return 0


MAX_TIME_BUDGET = 600.0  # ten minutes a position: past it a log of many runs would take days


def _time_budget(text: str) -> float:
    """Seconds for one position: a finite number above 0 and at most MAX_TIME_BUDGET (NaN, -1 and
    1e308 are refused, not taken as no limit or as none)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None
    if not 0 < value <= MAX_TIME_BUDGET:  # NaN fails this too
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_TIME_BUDGET:g} seconds, "
                                         f"not {text[:40]}")
    return value


def add_subcommands(subparsers: Any) -> None:
    routes = subparsers.add_parser(
        "routes", help="for each run in an 18xx.games game log, the best runs the optimizer finds")
    routes.add_argument("file", help="18xx.games game log (JSON)")
    routes.add_argument("--time-budget", type=_time_budget, default=2.0,
                        help=f"seconds the optimizer may spend on one position (default 2; more than 0, "
                             f"at most {MAX_TIME_BUDGET:g})")
    routes.set_defaults(func=run_routes)

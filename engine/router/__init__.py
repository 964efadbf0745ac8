"""The route optimizer: the runs that earn a company the most, with their proof.

One entry, `solve_problem`: a `RouteProblem` in (the network, the company's trains and what it
may attach to them, the title's scoring hooks bound to the company), a `RouteResult` out (the
runs, their revenue, whether they are proven the most, and the bound the search reached). The
rules build the problem and check the answer (engine.core.most_earnings); nothing here imports
the rules. The modules import downward:

    solve            which search answers, within the time budget   (the entry)
     ├─ graph, runs, search          the listing search: small networks
     └─ model_input, model_search    the model searches: large networks
          ├─ heuristic               first answers (beam search, improvement)
          ├─ model, track            one CP-SAT model of all trains on the track
          ├─ joint                   branch and bound over the trains' single best runs
          └─ stopcircuit, segments   each run a circuit over stops joined by segments
    problem, result, attachments, network, clock    the words all of them share
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.router.attachments import Attachment, EndLimit, StopRole
    from engine.router.network import Network, Node, PathKey
    from engine.router.problem import CoreRules, RouteProblem, RouteRules, StopLimits, Train
    from engine.router.result import PlannedRun, RouteResult
    from engine.router.solve import RouterCache, solve_problem

# The entry's names, loaded when first asked for: the rules import the package's words
# (engine.router.attachments) at every start, and a replay never searches, so it should not pay
# for loading the searches and their solver (PEP 562).
_HOME = {
    "Attachment": "attachments", "EndLimit": "attachments", "StopRole": "attachments",
    "Network": "network", "Node": "network", "PathKey": "network",
    "CoreRules": "problem", "RouteProblem": "problem", "RouteRules": "problem", "StopLimits": "problem",
    "Train": "problem",
    "PlannedRun": "result", "RouteResult": "result",
    "RouterCache": "solve", "solve_problem": "solve",
}

__all__ = ["Attachment", "CoreRules", "EndLimit", "Network", "Node", "PathKey", "PlannedRun", "RouteProblem",
           "RouteResult", "RouteRules", "RouterCache", "StopLimits", "StopRole", "Train", "solve_problem"]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value

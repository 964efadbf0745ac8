"""The optimizer's answer: each train's run and what it earns, whether no better set of runs
exists (proven) and what the search knows of the bound, and the `run_routes` action for them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.router.network import Node, PathKey


@dataclass(frozen=True)
class PlannedRun:
    """One train's run: stops in order, the hexes and track it uses, and what it earns."""

    train: str
    stops: tuple[Node, ...]  # (hex, kind, index) in run order
    hexes: tuple[str, ...]  # the stops' hexes, in run order
    paths: tuple[PathKey, ...]  # track paths in travel order
    connections: tuple[tuple[str, ...], ...]  # 18xx.games chains, one per pair of stops
    revenue: int
    nodes: tuple[str, ...] = ()  # 18xx.games node ids of the stops, "<hex>-<part index>"
    attachments: tuple[str, ...] = ()  # ids of the attachments this train carries

    def route(self) -> dict[str, Any]:
        """This run as one entry of an 18xx.games `run_routes` action."""
        route: dict[str, Any] = {
            "train": self.train,
            "connections": [list(chain) for chain in self.connections],
            "hexes": list(self.hexes),
            "revenue": self.revenue,
            "revenue_str": "-".join(self.hexes),
        }
        if self.nodes:
            route["nodes"] = list(self.nodes)
        return route


@dataclass(frozen=True)
class RouteResult:
    """The best runs found for a company's trains; trains that cannot run are left out.

    `proven_optimal`: no set of runs earns more. Otherwise `runs` are the best found within the
    time budget (still legal). `method` names the search that answered ("listing" or "model").
    `bound`: no set of runs earns more than this, as far as the search got (the total when
    proven; None when the search that stopped knows no bound).
    """

    corporation: str
    runs: tuple[PlannedRun, ...]
    total: int
    proven_optimal: bool
    seconds: float
    # Better answers the engine's run check refused (always 0 unless optimizer and engine disagree).
    engine_disagreements: int = 0
    method: str = "listing"
    bound: int | None = None

    def to_action(self, corp_id: str | None = None) -> dict[str, Any]:
        """An 18xx.games `run_routes` action for these runs."""
        return {
            "type": "run_routes",
            "entity": corp_id or self.corporation,
            "entity_type": "corporation",
            "routes": [run.route() for run in self.runs],
        }

"""Pictures and run proposals for a position: the bridge to render/ and the route optimizer.

Both are optional at import time (the bot still plays without them: no images, no
proposals). Everything here is CPU work on a snapshot of the state, so callers run it with
``asyncio.to_thread``; nothing here changes the state it is given.
"""

from __future__ import annotations

import copy
import logging
from dataclasses import dataclass
from typing import Any

from bot.model import Picture
from engine.core.game import BaseGame

log = logging.getLogger(__name__)

try:
    from render import png as _png
    from render.from_engine import map_view, market_view, table_view
    from render.map_svg import map_svg
    from render.market_svg import market_svg
    from render.table_svg import table_svg
except ImportError as error:  # render is optional: the game is playable without pictures
    log.warning("render is not available (%s); replies will have no images", error)
    RENDER = False
else:
    RENDER = True

try:
    from engine.core.router import best_runs
except ImportError:  # the optimizer is optional: without it the president types the runs
    ROUTER = False
else:
    ROUTER = True


@dataclass(frozen=True)
class Proposal:
    """The optimizer's best runs for the operating company at one position."""

    corporation: str
    action: dict[str, Any]  # a run_routes action for them
    total: int
    proven_optimal: bool
    runs: tuple[Any, ...]  # the optimizer's runs, drawable like the engine's last runs


def propose(state: BaseGame, corporation: str, budget: float) -> Proposal | None:
    """The best runs for `corporation`, or None without an optimizer or any run."""
    if not ROUTER:
        return None
    result = best_runs(state, corporation, time_budget=budget)
    if not result.runs:
        return None
    return Proposal(corporation, result.to_action(corporation), result.total,
                    result.proven_optimal, tuple(result.runs))


@dataclass(frozen=True)
class Views:
    """The frozen render views of one position; equal views draw equal pictures."""

    map: Any
    market: Any
    table: Any


def views_of(state: BaseGame, proposal: Proposal | None = None) -> Views | None:
    if not RENDER:
        return None
    shown = state
    if proposal is not None:
        # Draw the proposed runs where the last runs go, on a shallow copy: the real state
        # keeps its own last runs.
        shown = copy.copy(state)
        shown.last_runs = list(proposal.runs)
    return Views(map_view(shown), market_view(state), table_view(state))


def draw(views: Views, which: tuple[str, ...]) -> list[Picture]:
    """PNG pictures for the named views ("map", "market", "table"), in that order."""
    pictures = []
    if "map" in which:
        pictures.append(Picture("map.png", _png.map_png(map_svg(views.map))))
    if "market" in which:
        pictures.append(Picture("market.png", _png.market_png(market_svg(views.market))))
    if "table" in which:
        pictures.append(Picture("table.png", _png.table_png(table_svg(views.table))))
    return pictures

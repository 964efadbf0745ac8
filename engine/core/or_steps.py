"""The operating steps moved to `engine/core/steps/`; this adapter keeps the route optimizer's
import of `check_runs` (for a run_routes action dict) working."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.routes import Run, action_routes
from engine.core.steps.route import check_runs as check_route_list

if TYPE_CHECKING:
    from engine.core.entities import Corporation
    from engine.core.game import BaseGame


def check_runs(game: BaseGame, corp: Corporation, action: dict[str, Any]) -> list[Run]:
    return check_route_list(game, corp, tuple(action_routes(action)))

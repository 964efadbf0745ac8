"""The rules' check of a company's runs (12.1-12.4): each run rebuilt from its chains of hexes,
its stops counted against its train, no track used twice, its revenue with the title's hooks.

Below the run step (which takes the runs) and the optimizer's seam (which checks an answer
with it), so neither imports the other for it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.route_hooks import finish_company_runs, run_adjustment
from engine.core.routes import Run, check_run, rebuild_run
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.entities import Corporation
    from engine.core.game import BaseGame


def check_runs(game: BaseGame, corp: Corporation, routes: tuple[Mapping[str, Any], ...]) -> list[Run]:
    runs: list[Run] = []
    declared_revenues: list[Any] = []
    used: set[tuple[str, int]] = set()
    used_edges: set[tuple[str, int]] = set()
    trains_used: set[str] = set()
    for route in routes:
        train_id = route.get("train")
        train = next((t for t in corp.trains if t.id == train_id), None)
        if train is None:
            raise GameError(f"{corp.id} has no train {train_id!r}")
        if train.id in trains_used:
            raise GameError(f"train {train_id} can run only once")
        trains_used.add(train.id)
        chains = route.get("connections")
        if not isinstance(chains, list):
            raise GameError("each route needs its connections")
        stops, paths = rebuild_run(game.board, chains, used)
        _check_edges_once(game, paths, used_edges)
        used.update(paths)
        revenue = check_run(game.board, corp.id, stops, train.distance, game.colors_available())
        revenue += run_adjustment(game, corp, train, stops, paths)
        declared_revenues.append(route.get("revenue"))
        runs.append(Run(train.id, tuple(stops), tuple(paths), tuple(tuple(c) for c in chains), revenue))
    # Title route hooks: limits across all the runs, and bonuses decided once for the company.
    runs = finish_company_runs(game, corp, runs)
    checked: list[Run] = []
    for run, declared in zip(runs, declared_revenues, strict=True):
        if isinstance(declared, int) and declared != run.revenue and not game.trust_logged_revenue():
            raise GameError(f"the run of train {run.train} is worth ${run.revenue}, not ${declared}")
        if isinstance(declared, int) and game.trust_logged_revenue():
            run = replace(run, revenue=declared)
        checked.append(run)
    return checked


def _check_edges_once(game: BaseGame, paths: list[tuple[str, int]], used_edges: set[tuple[str, int]]) -> None:
    """Rule 12.1: no segment of track twice, not even the short piece where two paths of a tile
    meet at the same side, so each side of a hex is crossed at most once by a company's runs."""
    for coord, index in paths:
        for kind, where in game.board.hexes[coord].paths()[index]:
            if kind != "edge":
                continue
            if (coord, where) in used_edges:
                raise GameError(f"the runs use the track at side {where} of {coord} twice; no piece of "
                                f"track may be used twice, not even where two tracks join (12.1)")
            used_edges.add((coord, where))

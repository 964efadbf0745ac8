"""Pictures and run proposals for a position: the bridge to render/ and the route optimizer.

Both are optional at import time (the bot still plays without them: no images, no
proposals). Everything here is CPU work on a snapshot of the state, so callers run it with
``asyncio.to_thread``; nothing here changes the state it is given.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from bot.model import Picture
from bot.parent_watch import start_worker
from engine.core.game import BaseGame

log = logging.getLogger(__name__)

try:
    from render.closeup import close_up
    from render.from_engine import map_view, market_view, table_view
    from render.map_svg import map_svg
    from render.market_svg import market_svg
    from render.table_svg import table_svg

    if importlib.util.find_spec("cairosvg") is None:  # loaded at the first picture (draw)
        raise ImportError("cairosvg is not installed")
except ImportError as error:  # render is optional: the game is playable without pictures
    log.warning("render is not available (%s); replies will have no images", error)
    RENDER = False
else:
    RENDER = True

try:
    from engine.core.most_earnings import best_runs
except ImportError:  # the optimizer is optional: without it the president types the runs
    ROUTER = False
else:
    ROUTER = True


@dataclass(frozen=True)
class Proposal:
    """The optimizer's best runs for the operating company at one position."""

    corporation: str
    action: dict[str, Any]  # a run_routes action for them
    result: Any  # the optimizer's RouteResult, which the engine's run check can take (given_most)

    @property
    def total(self) -> int:
        return int(self.result.total)

    @property
    def proven_optimal(self) -> bool:
        return bool(self.result.proven_optimal)

    @property
    def runs(self) -> tuple[Any, ...]:
        """The optimizer's runs, drawable like the engine's last runs."""
        return tuple(self.result.runs)


def propose(state: BaseGame, corporation: str, budget: float) -> Proposal | None:
    """The best runs for `corporation`, or None without an optimizer or any run."""
    if not ROUTER:
        return None
    result = best_runs(state, corporation, time_budget=budget)
    if not result.runs:
        return None
    return Proposal(corporation, result.to_action(corporation), result)


# The optimizer runs in worker processes: a search the budget does not stop (or one that goes
# wrong) costs that process, never the event loop. Two workers, one each for the proposals made
# after moves (a few seconds at most) and for the longer searches players ask for (/game routes):
# a minute's search must not hold up every game's next proposal, and the machine has two cores.
GRACE = 2.0  # seconds past the budget before a worker is given up and replaced
# A new worker imports the engine and the solver before its first search: on a busy machine that
# alone can take longer than a search's budget, so it is waited for apart from the budget.
STARTUP_SECONDS = 30.0


def _load_optimizer(niceness: int = 0) -> None:
    """Import the model search when the worker starts: loading its solver takes about a second,
    which would otherwise come out of the first search's budget."""
    if niceness and hasattr(os, "nice"):  # (a Unix call)
        os.nice(niceness)
    if ROUTER:
        import engine.router.model_search  # noqa: F401


def _started() -> bool:
    return True


class OptimizerWorker:
    """One worker process that runs `propose`, replaced when a search overruns or dies."""

    def __init__(self, niceness: int = 0) -> None:
        self.niceness = niceness  # added to the worker process's nice value (lower CPU priority)
        self._pool: ProcessPoolExecutor | None = None
        self._started: Future[bool] | None = None
        self.searching = 0  # searches handed to the worker and not yet answered
        self.in_worker = 0  # of those, the ones the worker process has been given (it has started)

    def _get_pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                             # The worker ends with this process (bot.parent_watch).
                                             initializer=start_worker,
                                             initargs=(os.getpid(), f"{__name__}:_load_optimizer", self.niceness))
            self._started = self._pool.submit(_started)
        return self._pool

    def _replace_pool(self) -> None:
        pool, self._pool, self._started = self._pool, None, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.kill()  # only the pool's own worker
            pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker process (a search in it is abandoned)."""
        self._replace_pool()

    async def propose(self, state: BaseGame, corporation: str, budget: float) -> Proposal | None:
        """`propose` in the worker process; None if it fails or overruns its budget by GRACE."""
        if not ROUTER:
            return None
        try:
            pickle.dumps(state)
        except Exception:  # a position that cannot travel is proposed in a thread instead
            log.warning("position cannot be sent to the optimizer's worker; using a thread")
            return await asyncio.to_thread(propose, state, corporation, budget)
        pool = self._get_pool()
        self.searching += 1
        try:
            if self._started is not None:
                await asyncio.wait_for(asyncio.wrap_future(self._started), STARTUP_SECONDS)
            if pool is not self._pool:  # closed meanwhile (the bot stopping): the search is not made
                return None
            future = asyncio.get_running_loop().run_in_executor(pool, propose, state, corporation, budget)
            self.in_worker += 1
            try:
                return await asyncio.wait_for(future, budget + GRACE)
            finally:
                self.in_worker -= 1
        except (TimeoutError, BrokenProcessPool):
            log.warning("route optimizer worker overran or died; replacing it")
            self._replace_pool()
            return None
        except asyncio.CancelledError:
            # Nobody waits for the answer any more, but the process would go on searching and
            # the next search would queue behind it, its clock already running.
            self._replace_pool()
            raise
        finally:
            self.searching -= 1


QUICK = OptimizerWorker()  # the proposal after each move
# /game routes and the follow-ups of unproven proposals: one longer search at a time, at a lower
# CPU priority, so that on a busy machine the moves' proposals and pictures come first.
LONGER = OptimizerWorker(niceness=5)


async def propose_in_worker(state: BaseGame, corporation: str, budget: float) -> Proposal | None:
    """The proposal after a move, in the quick worker (see OptimizerWorker.propose)."""
    return await QUICK.propose(state, corporation, budget)


@dataclass(frozen=True)
class Views:
    """The frozen render views of one position; equal views draw equal pictures."""

    map: Any
    market: Any
    table: Any
    # The map around the last tile laid (None before any lay): the whole map's text is too small
    # in Discord's preview, this one's is not.
    close_up: Any = None


def views_of(state: BaseGame, proposal: Proposal | None = None) -> Views | None:
    if not RENDER:
        return None
    shown = state
    if proposal is not None:
        # Draw the proposed runs where the last runs go, on a shallow copy: the real state
        # keeps its own last runs.
        shown = copy.copy(state)
        shown.last_runs = list(proposal.runs)
    whole = map_view(shown)
    near = close_up(whole, sorted(whole.highlight_hexes)) if whole.highlight_hexes else None
    return Views(whole, market_view(state), table_view(state), near)


def close_up_views(state: BaseGame, views: Views, around: str, radius: int) -> tuple[Views, str]:
    """`views` whose close-up is the map cut down to `radius` hexes around `around`: a hex of the
    map, or a company (around each of its stations); and that hex or company as the game writes
    it. The whole map stays as it is (its picture, map.png, is not replaced by a part of it).
    ValueError says what was wrong and what is allowed."""
    named, centers = close_up_centers(state, around)
    return replace(views, close_up=close_up(views.map, centers, radius)), named


def close_up_centers(state: BaseGame, around: str) -> tuple[str, list[str]]:
    """The hex or company `around` names, as the game writes it, and the hexes a close-up of it
    is centred on: the hex, or the company's stations."""
    wanted = around.strip()
    hexes = {coord.upper(): coord for coord in state.board.hexes}
    if wanted.upper() in hexes:
        return hexes[wanted.upper()], [hexes[wanted.upper()]]
    companies = {corp.upper(): corp for corp in state.corporations}
    example = next(iter(sorted(coord for coord, hex_state in state.board.hexes.items() if hex_state.tile.cities)),
                   next(iter(hexes.values()), "?"))
    if wanted.upper() in companies:
        corp = companies[wanted.upper()]
        stations = [coord for coord, _ in state.board.token_hexes(corp)]
        if not stations:
            raise ValueError(f"{corp} has no station on the map yet: give a hex instead, such as {example}.")
        return corp, list(dict.fromkeys(stations))
    placed = [corp for corp in state.corporations if state.board.token_hexes(corp)]
    companies_text = f", or a company with stations ({', '.join(placed)})" if placed else ""
    typed = wanted if len(wanted) <= 24 else wanted[:24] + "\u2026"
    if not typed:
        raise ValueError(f"around: names what to show close up: a hex such as {example}{companies_text}.")
    raise ValueError(f"{typed} is neither a hex of this map nor a company. "
                     f"Give a hex such as {example}{companies_text}.")


def close_up_choices(state: BaseGame, typed: str, most: int = 25) -> list[tuple[str, str]]:
    """(label, value) suggestions for a close-up's centre: companies with stations, then hexes
    with a place name, then the others, those whose id or name starts with what was typed."""
    wanted = typed.strip().upper()
    companies = [(f"{corp} (its stations)", corp) for corp in state.corporations
                 if corp.upper().startswith(wanted) and state.board.token_hexes(corp)]
    named: list[tuple[str, str]] = []
    others: list[tuple[str, str]] = []
    for coord, hex_state in state.board.hexes.items():
        name = hex_state.hexdef.name or ""
        if coord.upper().startswith(wanted) or (wanted and name.upper().startswith(wanted)):
            (named if name else others).append((f"{coord} {name}".strip(), coord))
    return (companies + named + others)[:most]


CHART = "chart-"  # the name of a chart's picture begins so: "chart-values" (bot.coming_back)
PICTURES = ("map", "close_up", "market", "table")  # the views a reply may show, in their order
FILES = {"map": "map.png", "close_up": "map-close-up.png", "market": "market.png", "table": "table.png"}


def draw_one(name: str, view: Any) -> Picture:
    """One picture (one of PICTURES, or a chart) of its view, as a PNG."""
    if name.startswith(CHART):  # a chart of the game's story, its view an engine.story.Chart
        from render.charts import chart_png  # matplotlib: loaded with the first chart

        return Picture(f"{name}.png", chart_png(view))
    from render import png as _png  # CairoSVG: loaded with the first picture, not at start-up

    renderers: dict[str, tuple[Callable[[Any], str], Callable[[str], bytes]]] = {
        "map": (map_svg, _png.map_png), "close_up": (map_svg, _png.map_png),
        "market": (market_svg, _png.market_png), "table": (table_svg, _png.table_png)}
    svg, to_png = renderers[name]
    return Picture(FILES[name], to_png(svg(view)))


def draw(views: Views, which: tuple[str, ...]) -> list[Picture]:
    """PNG pictures for the named views (PICTURES), in that order."""
    return [draw_one(name, getattr(views, name)) for name in PICTURES if name in which]

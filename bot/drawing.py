"""Drawing the pictures of a reply: each picture in a worker process, the three at once, and
the last few drawn kept by their views.

CairoSVG is Python work that holds the GIL, so a picture drawn in a thread of the bot's own
process slows every other command the event loop serves, and three pictures in threads take
as long as one after the other. Two worker processes (the machine has two cores) draw them side
by side instead; a pool that cannot be used (a view that does not pickle, a worker that died)
falls back to drawing in a thread, once, and is replaced; until the workers are up (they start
with the first picture) pictures are drawn in a thread, as before. Equal views draw equal pictures, so a
picture drawn for one position is reused for another that looks the same (an undo, a move that
changed only one of the three).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
from collections import OrderedDict
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from bot import pictures as pics
from bot.model import Picture
from bot.parent_watch import start_worker

if TYPE_CHECKING:
    from bot.sessions import Session
    from engine.core.game import BaseGame

log = logging.getLogger(__name__)

WORKERS = 2
KEPT = 24  # pictures kept by their views (a map PNG is well under 1 MB)
_POOL: ProcessPoolExecutor | None = None
_KEPT: OrderedDict[tuple[str, Any], Picture] = OrderedDict()


def _load_renderer() -> None:
    """Import CairoSVG and the fonts when a worker starts, not in the first picture's time."""
    from render import png  # noqa: F401


def _ready() -> bool:
    return True


_READY: list[Future[bool]] = []


def _workers_ready() -> bool:
    """Whether the workers have started; the first call starts them (a pool starts a worker
    only for work waiting, so each is given a task that does nothing). Until they are up the
    pictures are drawn in a thread, so no reply waits for a worker's start-up."""
    if not _READY:
        pool = _pool()
        _READY.extend(pool.submit(_ready) for _ in range(WORKERS))
    return all(future.done() for future in _READY)


def _pool() -> ProcessPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=WORKERS, mp_context=multiprocessing.get_context("spawn"),
                                    # The worker ends with this process (bot.parent_watch).
                                    initializer=start_worker, initargs=(os.getpid(), f"{__name__}:_load_renderer"))
    return _POOL


def _replace_pool() -> None:
    global _POOL
    pool, _POOL = _POOL, None
    _READY.clear()
    if pool is not None:
        pool.shutdown(wait=False, cancel_futures=True)


def _kept(name: str, view: Any) -> Picture | None:
    try:
        picture = _KEPT.get((name, view))
    except TypeError:  # a view that cannot be a key is drawn every time
        return None
    if picture is not None:
        _KEPT.move_to_end((name, view))
    return picture


def _keep(name: str, view: Any, picture: Picture) -> None:
    try:
        _KEPT[(name, view)] = picture
    except TypeError:
        return
    while len(_KEPT) > KEPT:
        _KEPT.popitem(last=False)


async def _draw_one(name: str, view: Any) -> Picture:
    loop = asyncio.get_running_loop()
    if not _workers_ready():
        return await asyncio.to_thread(pics.draw_one, name, view)
    try:
        return await loop.run_in_executor(_pool(), pics.draw_one, name, view)
    except (BrokenProcessPool, OSError, RuntimeError) as error:
        log.warning("picture worker failed (%s); drawing %s in a thread", error, name)
        _replace_pool()
    except (pickle.PicklingError, TypeError, AttributeError):
        pass  # a view that does not travel to a worker (or a drawing error, which the thread repeats)
    return await asyncio.to_thread(pics.draw_one, name, view)


async def draw_named(items: list[tuple[str, Any]]) -> list[Picture]:
    """The pictures of (name, view) pairs (pics.draw_one's names), in that order."""
    found: dict[str, Picture] = {}
    wanted = []
    for name, view in items:
        picture = _kept(name, view)
        if picture is not None:
            found[name] = picture
        else:
            wanted.append((name, view))
    drawn = await asyncio.gather(*(_draw_one(name, view) for name, view in wanted))
    for (name, view), picture in zip(wanted, drawn, strict=True):
        _keep(name, view, picture)
        found[name] = picture
    return [found[name] for name, _ in items]


async def draw(views: pics.Views, which: tuple[str, ...]) -> list[Picture]:
    """The named pictures (pics.PICTURES) of `views`, in that order."""
    return await draw_named([(name, getattr(views, name)) for name in pics.PICTURES if name in which])


async def changed_pictures(session: Session, state: BaseGame, proposal: pics.Proposal | None) -> list[Picture]:
    """The pictures of a position that changed since the session's last reply (the map with
    the proposed runs on it), drawn in the workers; the session keeps the views now shown."""
    views = await asyncio.to_thread(pics.views_of, state, proposal)
    if views is None:
        return []
    old = session.views
    which = ["map"] if old is None or old.map != views.map else []
    if which and views.close_up is not None and (old is None or old.close_up != views.close_up):
        which.append("close_up")
    # A title names the round it shows: a new round redraws the market and the table too.
    if old is None or (old.market.cells, old.market.title) != (views.market.cells, views.market.title):
        which.append("market")
    if old is None or _table_key(old.table) != _table_key(views.table):
        which.append("table")
    session.views = views
    return await draw(views, tuple(which))


def _table_key(table: Any) -> tuple[Any, ...]:
    return (table.players, table.corporations, table.bank_cash, table.depot, table.phase, table.round_name)

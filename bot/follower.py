"""Following the store's change feed: games held in memory are brought up to date as soon as
another process (or `stationmaster play`/`import`) changes them, off the path of any command.

The feed is a convenience, not the guarantee: before each command ``Sessions`` checks the
stored head of the game anyway, so a change the feed reports late (or never, while its
connection is being re-made) is still seen by the next command. What the feed saves is the
replay: the next command in this process finds the position already rebuilt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.sessions import Sessions
from bot.store_trouble import log_failure
from storage import GameRepository

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0  # after the feed itself failed (the database restarting, say)


class ChangeFollower:
    def __init__(self, repo: GameRepository, sessions: Sessions, *, poll_interval: float = 0.5) -> None:
        self.repo = repo
        self.sessions = sessions
        self.poll_interval = poll_interval  # SQLite's feed polls; PostgreSQL's is told at once
        self._task: asyncio.Task[None] | None = None
        self._pending: dict[int, asyncio.Task[None]] = {}
        self.refreshed = 0  # games brought up to date (for tests and logs)

    def start(self) -> None:
        self._task = asyncio.create_task(self._follow(), name="stationmaster-change-feed")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._pending.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._task = None
        self._pending.clear()

    async def _follow(self) -> None:
        while True:
            feed = self.repo.change_feed(poll_interval=self.poll_interval)
            try:
                # Opening is not cut short by a stop: a connection half made would be left open.
                opening = asyncio.ensure_future(feed.start())
                try:
                    await asyncio.shield(opening)
                except asyncio.CancelledError:
                    with contextlib.suppress(Exception):
                        await opening
                    raise
                async for change in feed:
                    # None: the feed may have missed changes; check every game held.
                    ids = self.sessions.cached() if change.game_id is None else [change.game_id]
                    for game_id in ids:
                        self._refresh_soon(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log_failure(log, f"the change feed failed; following it again in {RETRY_SECONDS:g} s", error)
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await feed.close()

    def _refresh_soon(self, game_id: int) -> None:
        if game_id in self._pending or game_id not in self.sessions.cached():
            return  # already on its way, or not held here
        task = asyncio.create_task(self._refresh(game_id))
        self._pending[game_id] = task

    async def _refresh(self, game_id: int) -> None:
        try:
            if await self.sessions.refresh(game_id):
                self.refreshed += 1
        except Exception as error:  # the next command checks the game again anyway
            log_failure(log, f"bringing game {game_id} up to date failed", error)
        finally:
            self._pending.pop(game_id, None)

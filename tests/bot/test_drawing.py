"""The reply pictures drawn in worker processes are the pictures drawn in the bot's own
process, and a picture of views already drawn is not drawn again."""

from __future__ import annotations

import asyncio

from bot import drawing
from bot import pictures as pics
from engine import new_game

PLAYERS = [{"id": n, "name": name} for n, name in enumerate(("Ann", "Ben", "Cy"), 1)]


async def test_workers_draw_what_the_bot_draws_and_equal_views_are_drawn_once() -> None:
    state = new_game("18USA", PLAYERS, 5, ["site_rules"]).state
    views = pics.views_of(state)
    assert views is not None
    here = pics.draw(views, ("market", "table"))  # the map is the same code, and the slowest to draw
    drawing._KEPT.clear()
    first = await drawing.draw(views, ("market", "table"))
    # The first pictures are drawn while the workers start; then they draw.
    await asyncio.gather(*(asyncio.wrap_future(ready) for ready in drawing._READY))
    assert drawing._workers_ready()
    drawing._KEPT.clear()
    by_workers = await drawing.draw(views, ("table", "market"))
    assert [p.name for p in by_workers] == ["market.png", "table.png"]  # in the order map, market, table
    assert [p.data for p in first] == [p.data for p in here] == [p.data for p in by_workers]
    again = await drawing.draw(pics.views_of(state.snapshot()), ("market",))  # equal views: kept
    assert again[0] is by_workers[0]

"""The stock market view from the engine's market: cells, kinds of space, stacks, thresholds.

Only lookups: a space's kind comes from the market's own cell types (the title's data), the
dividend thresholds from the title's market data, the stacks from the market in order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from render.view import MarketCellView, MarketView, TokenView

if TYPE_CHECKING:
    from engine.core.services.market import Cell, StockMarket

# Kinds of space that have a colour of their own, and the word printed under their price.
ZONE_TYPES = ("liquidation", "acquisition")
LABELS = {"liquidation": "liquidation", "acquisition": "acquisition", "safe_par": "safe par"}


def market_view_of(market: StockMarket, market_data: Mapping[str, Any], tokens: Mapping[str, TokenView],
                   title: str) -> MarketView:
    thresholds = {(raw["row"], raw["col"]): tuple(int(v) for v in raw.get("dividend_thresholds") or ())
                  for row in market_data.get("grid", ()) for raw in row}
    cells = tuple(_cell(cell, market.stacks.get(key, ()), tokens, thresholds.get(key, ()))
                  for key, cell in sorted(market.cells.items()))
    # A grid with a single row is the one-dimensional kind (18USA); it is drawn wrapped.
    kind = "1d" if len({c.row for c in cells}) == 1 else "2d"
    return MarketView(title, cells, kind)


def _cell(cell: Cell, stack: list[str] | tuple[str, ...], tokens: Mapping[str, TokenView],
          thresholds: tuple[int, ...]) -> MarketCellView:
    zone = next((kind for kind in ZONE_TYPES if kind in cell.types), None)
    label = next((LABELS[kind] for kind in cell.types if kind in LABELS), None)
    return MarketCellView(
        row=cell.row, col=cell.col, price=cell.price, is_par=cell.is_par,
        on_ledge=cell.on_ledge, up_arrow=cell.up_arrow, down_arrow=cell.down_arrow,
        tokens=tuple(tokens[cid] for cid in stack if cid in tokens),
        zone=zone, label=label, thresholds=thresholds,
    )

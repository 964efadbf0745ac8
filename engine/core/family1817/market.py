"""The one-row market of the 1817 family (rule 5, 11.8, 12.5): the liquidation and acquisition
areas, the moves of the end of a stock round, price moves by the amount paid, and merger prices.

The areas are cells typed "liquidation" and "acquisition" in the title's market data. A normal
move never enters the liquidation cell (the data's moves stop at the leftmost acquisition cell);
a company is put there on purpose (`liquidate`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation, Player
from engine.core.services.market import Cell

if TYPE_CHECKING:
    from engine.core.game import BaseGame

LIQUIDATION = "liquidation"
ACQUISITION = "acquisition"
# Types a cell may have and still be an ordinary price for merged and started companies.
ORDINARY_TYPES = frozenset({"par", "safe_par"})


def area(game: BaseGame, corporation: Corporation) -> str | None:
    """"liquidation", "acquisition" or None (the white area), from the company's cell."""
    if corporation.id not in game.market.position:
        return None
    types = game.market.cell_of(corporation.id).types
    if LIQUIDATION in types:
        return LIQUIDATION
    if ACQUISITION in types:
        return ACQUISITION
    return None


def in_normal_area(game: BaseGame, corporation: Corporation) -> bool:
    return area(game, corporation) is None


def liquidation_cell(game: BaseGame) -> Cell:
    return next(cell for cell in game.market.cells.values() if LIQUIDATION in cell.types)


def liquidate(game: BaseGame, corporation: Corporation, why: str) -> None:
    """Put the company's token in the liquidation space (below any tokens there)."""
    if area(game, corporation) == LIQUIDATION:
        return
    game.market.remove(corporation.id)
    game.market.place(corporation.id, liquidation_cell(game))
    game.log.append(f"{corporation.id} goes into liquidation ({why})")


def market_price(game: BaseGame, corporation: Corporation) -> int:
    """What one share is worth now (0 in the liquidation and acquisition spaces)."""
    return game.market.cell_of(corporation.id).price


def price_at_most(game: BaseGame, value: int, low: int = 0, high: int | None = None) -> Cell:
    """The highest priced ordinary cell not above `value` (merger prices, starting prices),
    kept within `low` and `high`."""
    # One pass over the market, asked for every pair of companies that might merge (14.1.2).
    best: Cell | None = None  # the highest fitting, the first of equals
    lowest: Cell | None = None  # the first of the cheapest, when none fits
    for cell in game.market.cells.values():
        price = cell.price
        if price < low or (high is not None and price > high):
            continue
        if cell.types and not set(cell.types) <= ORDINARY_TYPES:
            continue
        if lowest is None or price < lowest.price:
            lowest = cell
        if price <= value and (best is None or (price, cell.col) > (best.price, best.col)):
            best = cell
    if lowest is None:
        raise ValueError(f"no ordinary market cell between ${low} and ${high}")
    return best or lowest


def dividend_steps(game: BaseGame, corporation: Corporation, paid: int) -> int:
    """Rule 12.5: 1-4 steps ahead for a payout of at least 50%, 100%, 150% or 200% of the share
    price (the title's price for the acquisition spaces, `dividend_base_price`)."""
    price = game.market.cell_of(corporation.id).price or dividend_base_price(game)
    thresholds = (price // 2, price, price * 3 // 2, price * 2)
    return sum(1 for threshold in thresholds if paid >= threshold)


def dividend_base_price(game: BaseGame) -> int:
    value = getattr(game, "ACQUISITION_DIVIDEND_PRICE", 40)
    return int(value)


def move_for_dividend(game: BaseGame, corporation: Corporation, paid: int) -> None:
    if paid <= 0:
        game.market.move(corporation.id, "left")
        return
    steps = dividend_steps(game, corporation, paid)
    if steps:
        game.market.move(corporation.id, "right", steps)


def players_hold_all(corporation: Corporation) -> bool:
    """Whether players hold 100% or more counting only their ordinary holdings (not shorts), as
    the site counts them after a dumped president's certificate was bought back (11.8)."""
    held = sum(share.percent for share in corporation.shares
               if isinstance(share.owner, Player) and share.percent > 0)
    return held + corporation.players_percent_offset >= 100


def end_of_stock_round_moves(game: BaseGame) -> None:
    """Rule 11.8, in operating order: a 5- or 10-share company wholly held by players moves one
    step ahead; then two steps back for each certificate in the open market."""
    for corporation in game.operating_order():
        if corporation.closed or corporation.id not in game.market.position:
            continue
        if corporation.units(100) > 2 and players_hold_all(corporation):
            game.market.move(corporation.id, "right")
        # A president's certificate sold there (the site's dealing dumps) counts for the shares
        # its sale named.
        # A short share lying there (a bankrupt's) counts against them, as the site nets them.
        in_market = sum(min(corporation.units(corporation.president_certificate_sold), corporation.units(share.percent))
                        if share.president else corporation.units(share.percent)
                        for share in corporation.shares if share.owner is game.pool)
        in_market = max(0, in_market + corporation.units(corporation.market_percent_offset))
        if in_market:
            game.market.move(corporation.id, "left", 2 * in_market)

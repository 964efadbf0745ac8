"""18USA money troubles: a company that cannot pay its interest (12.8) or ends its turn without a
train (12.6) goes into liquidation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation
from engine.core.steps.cash_crisis import demand_payment

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

LIQUIDATION_CELL = (0, 0)


def liquidate(game: G18USA, corporation: Corporation, why: str) -> None:
    """The company's price token goes to the liquidation space (5, 14.2.1)."""
    if game.market_area(corporation) == "liquidation":
        return
    game.market.remove(corporation.id)
    game.market.place(corporation.id, game.market.cells[LIQUIDATION_CELL])
    game.log.append(f"{corporation.id} goes into liquidation: {why}")


def interest_default(game: G18USA, corporation: Corporation, owed: int) -> None:
    """Rule 12.8: at the most loans and still short, the company goes into liquidation; the
    president takes its cash and pays the interest, in a cash crisis if need be."""
    liquidate(game, corporation, f"it cannot pay ${owed} interest")
    president = corporation.president()
    if president is None:
        game.transfer(corporation, game.bank, corporation.cash)
        return
    game.transfer(corporation, president, corporation.cash)
    demand_payment(game, president, owed, game.bank, f"{corporation.id}'s interest")

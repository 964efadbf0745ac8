"""18USA loans (rules 9, 12.8, 12.9) on the core's loan book: the Bank of New York's tiers, taking
and repaying a loan with its two-step price moves, and interest.

Kept small and in the 1817 family's terms (`take_loan`, `payoff_loan`, `pay_interest`), so that it
can give way to the family modules (`engine/core/family1817`) once they are merged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

LOAN_PRICE_STEPS = 2
WESTERN_LAND_GRANT = "P15"


def max_loans(game: G18USA, corporation: Corporation) -> int:
    """One loan per share (2, 5 or 10); P15 allows one more."""
    most = game.share_count(corporation)
    if game.owns(corporation, WESTERN_LAND_GRANT):
        most += 1
    return most


def loan_refusal(game: G18USA, corporation: Corporation) -> str | None:
    most = max_loans(game, corporation)
    if game.loans.count(corporation.id) >= most:
        return f"{corporation.id} already holds {most} loans, the most it may (9)"
    left = game.loans.available()
    if left is not None and left <= 0:
        return "the Bank of New York has no loans left (9)"
    if game.market_area(corporation) == "liquidation":
        return f"{corporation.id} is in liquidation and may not take loans"
    return None


def take_loan(game: G18USA, corporation: Corporation) -> None:
    reason = loan_refusal(game, corporation)
    if reason:
        raise GameError(reason)
    game.loans.take(corporation.id)
    game.transfer(game.bank, corporation, game.loans.value)
    game.log.append(f"{corporation.id} takes a loan of ${game.loans.value}")
    game.move_price_left(corporation, LOAN_PRICE_STEPS)


def payoff_refusal(game: G18USA, corporation: Corporation) -> str | None:
    if not game.loans.count(corporation.id):
        return f"{corporation.id} has no loan to repay"
    if corporation.cash < game.loans.value:
        return f"a loan costs ${game.loans.value} to repay; {corporation.id} has ${corporation.cash}"
    return None


def payoff_loan(game: G18USA, corporation: Corporation) -> None:
    reason = payoff_refusal(game, corporation)
    if reason:
        raise GameError(reason)
    game.transfer(corporation, game.bank, game.loans.value)
    game.loans.repay(corporation.id)
    game.log.append(f"{corporation.id} repays a loan of ${game.loans.value}")
    game.market.move(corporation.id, "right", LOAN_PRICE_STEPS)


def interest_rate(game: G18USA) -> int:
    """The rate of the highest Bank of New York row a loan has been taken from; $5 with none."""
    return game.usa.bank_of_new_york.rate_for(game.loans.outstanding())


def interest_owed(game: G18USA, corporation: Corporation) -> int:
    loans = game.loans.count(corporation.id)
    if not loans:
        return 0
    owed = loans * game.loans.interest_rate
    if game.owns(corporation, WESTERN_LAND_GRANT):
        # P15: one loan always costs $5 (the site charges the rate less the difference).
        owed -= game.loans.interest_rate - 5
    return owed


def pay_interest(game: G18USA, corporation: Corporation) -> None:
    """Rule 12.8: interest on every loan, with further loans while the money is short; at the
    most loans the company goes into liquidation and its president pays what is left."""
    owed = interest_owed(game, corporation)
    if not owed:
        return
    while corporation.cash < owed and loan_refusal(game, corporation) is None:
        take_loan(game, corporation)
        owed = interest_owed(game, corporation)
    if corporation.cash >= owed:
        game.transfer(corporation, game.bank, owed)
        game.log.append(f"{corporation.id} pays ${owed} interest")
        return
    game.interest_default(corporation, owed)

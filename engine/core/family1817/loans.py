"""Loans (rules 9, 12.8, 12.9): taking and repaying them, their share price moves, and paying
interest, with more loans, the president's money and liquidation when the company cannot.

A company may hold as many loans as it has shares (`max_loans`, a hook). Taking a loan moves its
price two steps back, repaying one two steps ahead (the market's moves stop at its ends).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation
from engine.core.family1817.market import ACQUISITION, LIQUIDATION, area, liquidate
from engine.core.steps.cash_crisis import Debt
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game

LOAN_PRICE_STEPS = 2


def loan_refusal(game: Family1817Game, corporation: Corporation) -> str | None:
    """Why the company cannot take a loan now, or None."""
    most = game.max_loans(corporation)
    if game.loans.count(corporation.id) >= most:
        return f"{corporation.id} already holds {most} loans, the most it may (one per share)"
    left = game.loans.available()
    if left is not None and left <= 0:
        return "the bank has no loans left"
    if area(game, corporation) == LIQUIDATION:
        return f"{corporation.id} is in liquidation and may not take loans"
    return None


def take_loan(game: Family1817Game, corporation: Corporation, move_price: bool = True) -> None:
    reason = loan_refusal(game, corporation)
    if reason:
        raise GameError(reason)
    game.loans.take(corporation.id)
    game.transfer(game.bank, corporation, game.loans.value)
    game.log.append(f"{corporation.id} takes a loan of ${game.loans.value}")
    if move_price:
        was = area(game, corporation)
        game.market.move(corporation.id, "left", LOAN_PRICE_STEPS)
        if was is None and area(game, corporation) == ACQUISITION:
            game.entered_acquisition.add(corporation.id)
    game.after_loan(corporation)


def payoff_refusal(game: Family1817Game, corporation: Corporation) -> str | None:
    if not game.loans.count(corporation.id):
        return f"{corporation.id} has no loan to repay"
    if corporation.cash < game.loans.value:
        return f"a loan costs ${game.loans.value} to repay; {corporation.id} has ${corporation.cash}"
    return None


def payoff_loan(game: Family1817Game, corporation: Corporation, move_price: bool = True) -> None:
    reason = payoff_refusal(game, corporation)
    if reason:
        raise GameError(reason)
    game.transfer(corporation, game.bank, game.loans.value)
    game.loans.repay(corporation.id)
    game.log.append(f"{corporation.id} repays a loan of ${game.loans.value}")
    if move_price:
        game.market.move(corporation.id, "right", LOAN_PRICE_STEPS)


def pay_interest(game: Family1817Game, corporation: Corporation) -> None:
    """Rule 12.8: the company pays interest on all its loans, taking more loans (which owe
    interest too) while it lacks the money; at the most loans it goes into liquidation, its
    cash goes to the president and the president pays the interest, in a cash crisis if need be."""
    owed = game.interest_due(corporation)
    if not owed:
        return
    while corporation.cash < owed and loan_refusal(game, corporation) is None:
        take_loan(game, corporation)
        owed = game.interest_due(corporation)
    if corporation.cash >= owed:
        game.transfer(corporation, game.bank, owed)
        loans = game.loans.count(corporation.id)
        game.log.append(f"{corporation.id} pays ${owed} interest on {loans} loan{'' if loans == 1 else 's'}")
        return
    president = corporation.president()
    liquidate(game, corporation, f"it cannot pay ${owed} interest")
    if president is None:
        game.transfer(corporation, game.bank, corporation.cash)
        return
    if corporation.cash:
        game.log.append(f"{president.name} takes {corporation.id}'s ${corporation.cash}")
        game.transfer(corporation, president, corporation.cash)
    game.demand(president, owed, game.bank, f"{corporation.id}'s interest", company=corporation.id,
                kind=Debt.INTEREST)

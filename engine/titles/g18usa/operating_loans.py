"""18USA loans in the operating round (rules 9, 12.8, 12.9): a loan at any time of the turn until
interest is paid; interest when the trains are bought; then the loans the company repays."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Pass
from engine.core.entities import Holder
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep
from engine.titles.g18usa import loans
from engine.titles.g18usa.actions import PayoffLoan, TakeLoan
from engine.titles.g18usa.operating import _round, _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame

REPAY = "repay"


class LoanStep(OperatingStep):
    """A loan at any moment of the company's turn before its interest is paid (9)."""

    key = "loan"
    label = "take a loan"
    blocking = False

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return getattr(rnd, "turn", None) is not None and not _round(rnd).paid_interest

    def handlers(self) -> Mapping[str, Handler]:
        return {"take_loan": self.process_take}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        return ["take_loan"] if loans.loan_refusal(usa, _round(rnd).corporation) is None else []

    def process_take(self, game: BaseGame, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        corporation = self.operator(rnd, entity)
        loans.take_loan(_usa(game), corporation)
        _round(rnd).took_loan.add(corporation.id)


class RepayStep(OperatingStep):
    """Rule 12.9: after interest, the company may repay loans at $100 each, unless it borrowed
    in this operating round. The site also waits here while the company could still borrow."""

    key = REPAY
    label = "repay loans"

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return super().active(game, rnd) and _round(rnd).paid_interest

    def handlers(self) -> Mapping[str, Handler]:
        return {"payoff_loan": self.process_payoff, "take_loan": self.process_take, "pass": self.process_pass}

    def can_repay(self, game: BaseGame, rnd: Round) -> bool:
        orr = _round(rnd)
        corporation = orr.corporation
        if corporation.id in orr.took_loan:
            return False
        return loans.payoff_refusal(_usa(game), corporation) is None

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        corporation = _round(rnd).corporation
        kinds = []
        if self.can_repay(game, rnd):
            kinds.append("payoff_loan")
        if loans.loan_refusal(usa, corporation) is None:
            kinds.append("take_loan")
        return kinds + ["pass"] if kinds else []

    def process_payoff(self, game: BaseGame, rnd: Round, entity: Holder, action: PayoffLoan) -> None:
        corporation = self.operator(rnd, entity)
        if not self.can_repay(game, rnd):
            from engine.errors import GameError

            raise GameError(f"{corporation.id} took a loan this operating round and may not repay (12.9)")
        loans.payoff_loan(_usa(game), corporation)

    def process_take(self, game: BaseGame, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        corporation = self.operator(rnd, entity)
        loans.take_loan(_usa(game), corporation)
        _round(rnd).took_loan.add(corporation.id)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        corporation = _round(rnd).corporation
        return [{"type": kind, "entity": corporation.id} for kind in self.own_actions(game, rnd)]

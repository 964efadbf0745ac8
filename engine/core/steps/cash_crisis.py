"""An interrupting step: a player who owes money they do not have raises it by selling shares,
in any round, or goes bankrupt (the 1817 family's cash crisis).

A rule that makes a player pay calls `demand_payment`: it pays at once when the player can,
and otherwise opens the crisis, which holds the round until the debt is paid.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action, Bankrupt, SellShares
from engine.core.entities import Holder, Player
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares, execute_sale, plan_sale, sale_choices
from engine.core.step import Handler, Move, Step, command_word
from engine.core.steps.shares import share_choice_matches
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass(frozen=True)
class Debt:
    """`amount` a player must pay to `payee` ("bank" or an entity key), and why; `company` is
    the company whose affairs caused it and `kind` what a title's bankruptcy rules need to know
    of it (the 1817 family: interest, loans of a liquidated company)."""

    player: str
    amount: int
    payee: str
    reason: str
    company: str | None = None
    kind: str = ""

    INTEREST: ClassVar[str] = "interest"
    LIQUIDATION_LOANS: ClassVar[str] = "liquidation_loans"


def demand_payment(game: BaseGame, player: Player, amount: int, payee: Holder, reason: str,
                   company: str | None = None, kind: str = "") -> bool:
    """Pay now if the player can (True); otherwise the debt waits in a cash crisis (False)."""
    if player.cash >= amount:
        game.transfer(player, payee, amount)
        return True
    payee_key = "bank" if payee is game.bank else payee.key
    game.cash_crisis.append(Debt(player.key, amount, payee_key, reason, company, kind))
    game.log.append(f"{player.name} owes ${amount} for {reason} and must raise cash")
    return False


def _payee(game: BaseGame, key: str) -> Holder:
    if key == "bank":
        return game.bank
    if key in game.corporations:
        return game.corporations[key]
    return game.player(key)


class CashCrisisStep(Step):
    key = "cash_crisis"
    label = "raise cash"

    def handlers(self) -> Mapping[str, Handler]:
        return {"sell_shares": self.process_sell, "bankrupt": self.process_bankrupt}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return bool(game.cash_crisis)

    def debt(self, game: BaseGame) -> Debt:
        return game.cash_crisis[0]

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        return game.player(self.debt(game).player) if game.cash_crisis else None

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["sell_shares", "bankrupt"] if entity is self.acting_entity(game, rnd) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        if not game.cash_crisis:
            return None
        debt = self.debt(game)
        player = game.player(debt.player)
        return (f"{player.name} owes ${debt.amount} for {debt.reason} and must first sell shares to pay it "
                f"with {command_word(game, 'sell_shares', player)} (or declare bankruptcy with "
                f"{command_word(game, 'bankrupt', player)})")

    def sales(self, game: BaseGame, player: Player) -> list[Move]:
        return sale_choices(game, player, stop_at=self.debt(game).amount - player.cash)

    def process_sell(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        assert isinstance(entity, Player)
        corporation = corporation_of_shares(game, action.shares)
        plan = plan_sale(game, entity, corporation, action.shares, action.percent)
        execute_sale(game, entity, plan, action.shares)
        debt = self.debt(game)
        if entity.cash >= debt.amount:
            game.cash_crisis.pop(0)
            game.transfer(entity, _payee(game, debt.payee), debt.amount)
            game.log.append(f"{entity.name} pays ${debt.amount} for {debt.reason}")

    def process_bankrupt(self, game: BaseGame, rnd: Round, entity: Holder, action: Bankrupt) -> None:
        assert isinstance(entity, Player)
        if self.sales(game, entity):
            raise GameError(f"{entity.name} must first sell shares to raise the money")
        game.cash_crisis.pop(0)
        game.bankrupt(entity)

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, SellShares):
            return share_choice_matches(game, choice, action.shares, action.percent)
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        player = self.acting_entity(game, rnd)
        if not isinstance(player, Player):
            return []
        sales = self.sales(game, player)
        if sales:
            return [{"type": "sell_shares", "entity": player.id, "choices": sales}]
        return [{"type": "bankrupt", "entity": player.id}]

"""The buy-trains step, with the president's forced sales and bankruptcy when the company must
buy a train it cannot pay for (12.6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, Bankrupt, BuyTrain, Pass, SellShares
from engine.core.entities import Holder, Player
from engine.core.round import Round
from engine.core.share_sales import corporation_of_shares, execute_sale, more_than_needed, plan_sale
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep, operating
from engine.core.steps.shares import share_choice_matches
from engine.core.steps.trains import (
    buy_train,
    buyable_trains,
    emergency_sales,
    emergency_shortfall,
    min_train_price,
)
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


class BuyTrainStep(OperatingStep):
    label = "buy trains"
    key = "buy_train"

    def handlers(self) -> Mapping[str, Handler]:
        return {"buy_train": self.process_buy_train, "pass": self.process_pass,
                "sell_shares": self.process_sell_shares, "bankrupt": self.process_bankrupt}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        if len(corp.trains) >= game.train_limit(corp):
            return []
        if game.must_buy_train(corp):
            return ["buy_train", "sell_shares", "bankrupt"]
        if corp.cash >= min_train_price(game, corp):
            return ["buy_train", "pass"]
        return []

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        corp = operating(rnd).corporation
        own = self.own_actions(game, rnd)
        if entity is corp:
            return own
        # The president sells shares for the company's compulsory train.
        if isinstance(entity, Player) and "sell_shares" in own:
            return ["sell_shares"]
        return []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        corp = operating(rnd).corporation
        if action.type == "pass" and entity is corp and game.must_buy_train(corp):
            return f"{corp.id} has a route but no train, so it must buy a train (12.6)"
        if action.type == "bankrupt":
            return "bankruptcy is only declared when a compulsory train cannot be paid for"
        return super().refusal(game, rnd, entity, action)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        corp = self.operator(rnd, entity)
        if game.must_buy_train(corp):
            raise GameError(f"{corp.id} has a route but no train, so it must buy a train")
        self.done(rnd)

    def process_buy_train(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyTrain) -> None:
        buy_train(game, self.operator(rnd, entity), action, sold=self.turn(rnd).emergency_sales > 0)

    def process_sell_shares(self, game: BaseGame, rnd: Round, entity: Holder, action: SellShares) -> None:
        corp = operating(rnd).corporation
        president = corp.president()
        if not isinstance(entity, Player) or entity is not president:
            raise GameError(f"only {corp.id}'s president may sell shares to pay for its train")
        need = emergency_shortfall(game, corp)
        if need <= 0:
            raise GameError(f"{entity.name} has enough cash for the train; no shares may be sold")
        target = corporation_of_shares(game, action.shares)
        plan = plan_sale(game, entity, target, action.shares, action.percent,
                         keep_presidency=target is corp)
        turn = self.turn(rnd)
        if game.emergency_sales_at_start_price():
            # The price before this train purchase's first sale of the company, not the dropped one.
            plan = replace(plan, price=turn.emergency_prices.get(target.id, plan.price))
        if more_than_needed(target, action.shares, plan.percent, plan.price, need):
            raise GameError(f"sell only as many certificates as needed: ${need} is missing, and this sale "
                            f"raises it without one of its certificates (12.6)")
        execute_sale(game, entity, plan, action.shares)
        turn.emergency_prices.setdefault(target.id, plan.price)
        turn.emergency_sales += 1

    def process_bankrupt(self, game: BaseGame, rnd: Round, entity: Holder, action: Bankrupt) -> None:
        """A president who cannot pay for the compulsory train goes bankrupt."""
        corp = operating(rnd).corporation
        if entity is not corp:
            raise GameError(f"only {corp.id} can declare its president bankrupt now")
        president = corp.president()
        if president is None:
            raise GameError(f"{corp.id} has no president")
        if emergency_shortfall(game, corp) <= 0:
            raise GameError(f"{president.name} can pay for the train and is not bankrupt")
        if emergency_sales(game, corp, president):
            raise GameError(f"{president.name} must first sell shares to raise the money")
        game.bankrupt(president)

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, BuyTrain):
            if choice["train"] != action.train:
                return False
            if "price" in choice:
                return bool(choice["price"] == action.price)
            return action.price is not None and choice["min_price"] <= action.price <= choice["max_price"]
        if isinstance(action, SellShares):
            return share_choice_matches(game, choice, action.shares, action.percent)
        return super().matches(game, choice, action)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        kinds = self.own_actions(game, rnd)
        if not kinds:
            return []
        corp = operating(rnd).corporation
        moves: list[Move] = []
        trains = buyable_trains(game, corp, sold=self.turn(rnd).emergency_sales > 0)
        if trains:
            moves.append({"type": "buy_train", "entity": corp.id, "choices": trains})
        if "pass" in kinds:
            moves.append({"type": "pass", "entity": corp.id})
        president = corp.president()
        if "sell_shares" in kinds and president is not None and emergency_shortfall(game, corp) > 0:
            prices = self.turn(rnd).emergency_prices if game.emergency_sales_at_start_price() else None
            sells = emergency_sales(game, corp, president, prices)
            if sells:
                moves.append({"type": "sell_shares", "entity": president.id, "entity_type": "player",
                              "choices": sells})
            elif not trains:
                moves.append({"type": "bankrupt", "entity": corp.id})
        return moves

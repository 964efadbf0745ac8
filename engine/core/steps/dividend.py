"""Paying dividends or withholding (12.5)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.core.actions import Dividend
from engine.core.entities import Corporation, Holder
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.operating import OperatingStep, operating
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def pay_dividend(game: BaseGame, corporation: Corporation, revenue: int, kind: str) -> None:
    """Share the revenue as `kind` says (payout, withhold, or half as the title rounds it)."""
    if kind == "withhold":
        kept, paid = revenue, 0
    elif kind == "payout":
        kept, paid = 0, revenue
    else:
        kept = game.half_withheld(revenue)
        paid = revenue - kept
    if kept:
        game.transfer(game.bank, corporation, kept)
    if paid:
        distribute(game, corporation, paid)
    corporation.has_paid = True
    game.log.append(f"{corporation.id} pays ${paid} and keeps ${kept}")
    game.dividend_price_move(corporation, paid)


def distribute(game: BaseGame, corporation: Corporation, paid: int) -> None:
    """Each holder but the pool gets its part, rounded up; treasury shares pay the company."""
    per_share = paid / game.total_shares(corporation)
    holders: dict[int, tuple[Holder, int]] = {}
    for share in corporation.shares:
        if share.owner is game.pool:
            continue
        entry = holders.setdefault(id(share.owner), (share.owner, 0))
        holders[id(share.owner)] = (entry[0], entry[1] + share.percent)
    for owner, percent in holders.values():
        amount = math.ceil(per_share * percent / corporation.share_percent - 1e-9)
        if amount:
            game.transfer(game.bank, owner, amount)


class DividendStep(OperatingStep):
    label = "pay dividends"
    key = "dividend"

    def handlers(self) -> Mapping[str, Handler]:
        return {"dividend": self.process_dividend}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        return ["dividend"] if self.turn(rnd).revenue else []

    def pay(self, game: BaseGame, corp: Corporation, revenue: int, kind: str) -> None:
        """Pay or withhold the earnings (a family of titles pays its own way)."""
        pay_dividend(game, corp, revenue, kind)

    def skip(self, game: BaseGame, rnd: Round) -> None:
        self.pay(game, operating(rnd).corporation, 0, "withhold")
        self.done(rnd)

    def process_dividend(self, game: BaseGame, rnd: Round, entity: Holder, action: Dividend) -> None:
        corp = self.operator(rnd, entity)
        revenue = self.turn(rnd).revenue
        assert revenue is not None
        kinds = game.dividend_kinds()
        if action.kind not in kinds:
            raise GameError(f"dividend kind must be one of {', '.join(kinds)}")
        self.pay(game, corp, revenue, action.kind)
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        if not self.own_actions(game, rnd):
            return []
        return [{"type": "dividend", "entity": operating(rnd).corporation.id, "revenue": self.turn(rnd).revenue,
                 "choices": [{"kind": kind} for kind in game.dividend_kinds()]}]

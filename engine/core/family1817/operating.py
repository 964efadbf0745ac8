"""The operating round of the 1817 family: the interest rate fixed at its start, loans at any
time of a company's turn until interest is paid, interest after buying trains (12.8), then the
repay step (12.9); dividends with the family's half-pay rounding, price moves by the amount paid
and shorts paying the dividend (12.5); a company that ends its turn without a train goes into
liquidation (12.6).

A title's operating round is `FamilyOperatingRound` with, in order:
`LoanStep()` first (non-blocking), its track, station and run steps, `FamilyDividendStep()`,
its buy-train step, `InterestStep()` and `RepayStep()`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from engine.core.actions import Pass
from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.actions import PayoffLoan, ScrapTrain, TakeLoan
from engine.core.family1817.loans import (
    loan_refusal,
    pay_interest,
    payoff_loan,
    payoff_refusal,
    take_loan,
)
from engine.core.family1817.market import LIQUIDATION, area, liquidate
from engine.core.operating_round import CorporateTurn, OperatingRound
from engine.core.round import Round
from engine.core.step import Handler, Move
from engine.core.steps.dividend import DividendStep
from engine.core.steps.operating import OperatingStep, operating
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.family1817.game import Family1817Game


@cache
def _family_game_class() -> type[Family1817Game]:
    # Imported once, at the first use: an import statement run at every call costs more than the
    # check (the steps ask for the game thousands of times in a replay).
    from engine.core.family1817.game import Family1817Game

    return Family1817Game


def family(game: Any) -> Family1817Game:
    assert isinstance(game, _family_game_class()), f"{type(game).__name__} is not an 1817-family game"
    return game


@dataclass
class FamilyOperatingRound(OperatingRound):
    """Companies that took a loan or paid interest this round, by id."""

    took_loan: set[str] = field(default_factory=set)
    paid_interest: set[str] = field(default_factory=set)

    def start(self, game: Any) -> None:
        game.loans.fix_rate()  # rule 9: the rate is set at the start of each operating round
        super().start(game)

    def turn_over(self, game: Any) -> None:
        corporation = self.corporation
        if not family(game).has_a_train(corporation) and area(game, corporation) != LIQUIDATION:
            liquidate(game, corporation, "it ended its turn without a train")
        super().turn_over(game)


def _round(rnd: Round) -> FamilyOperatingRound:
    assert isinstance(rnd, FamilyOperatingRound), f"{type(rnd).__name__} is not a family operating round"
    return rnd


def loan_moves(game: Family1817Game, corporation: Corporation) -> list[Move]:
    if loan_refusal(game, corporation) is not None:
        return []
    return [{"type": "take_loan", "entity": corporation.id, "entity_type": "corporation"}]


def scrap_moves(game: Family1817Game, corporation: Corporation) -> list[Move]:
    trains = game.scrappable_trains(corporation)
    if not trains:
        return []
    return [{"type": "scrap_train", "entity": corporation.id, "entity_type": "corporation",
             "choices": [{"train": train, "price": value} for train, value in trains.items()]}]


def scrap_train(game: Family1817Game, corporation: Corporation, action: ScrapTrain) -> None:
    value = game.scrappable_trains(corporation).get(action.train)
    if value is None:
        raise GameError(f"{corporation.id} has no train {action.train!r} it may scrap")
    train = next(t for t in corporation.trains if t.id == action.train)
    corporation.trains.remove(train)
    game.depot.discard(train, to_market=game.DISCARDS_TO_MARKET)
    game.transfer(game.bank, corporation, value)
    game.log.append(f"{corporation.id} scraps a {train.name} for ${value}")
    game.train_scrapped(corporation, train)


class LoanStep(OperatingStep):
    """Non-blocking: the operating company takes loans at any time of its turn until it has
    paid interest (rule 9); the title's scrappable trains may be scrapped too."""

    key = "loans"
    label = "take loans"
    blocking = False

    def handlers(self) -> Mapping[str, Handler]:
        return {"take_loan": self.process_take_loan, "scrap_train": self.process_scrap}

    def active(self, game: Any, rnd: Round) -> bool:
        turn = getattr(rnd, "turn", None)
        return turn is not None and turn.corporation.id not in _round(rnd).paid_interest

    def own_actions(self, game: Any, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        kinds = []
        if loan_refusal(family(game), corp) is None:
            kinds.append("take_loan")
        if family(game).scrappable_trains(corp):
            kinds.append("scrap_train")
        return kinds

    def process_take_loan(self, game: Any, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        corp = self.operator(rnd, entity)
        take_loan(family(game), corp)
        _round(rnd).took_loan.add(corp.id)

    def process_scrap(self, game: Any, rnd: Round, entity: Holder, action: ScrapTrain) -> None:
        scrap_train(family(game), self.operator(rnd, entity), action)

    def refusal(self, game: Any, rnd: Round, entity: Holder, action: Any) -> str | None:
        turn: CorporateTurn | None = getattr(rnd, "turn", None)
        if (action.type == "take_loan" and turn is not None and entity is turn.corporation
                and turn.corporation.id not in _round(rnd).paid_interest):
            return loan_refusal(family(game), turn.corporation)
        return super().refusal(game, rnd, entity, action)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        corp = operating(rnd).corporation
        return loan_moves(family(game), corp) + scrap_moves(family(game), corp)


class InterestStep(OperatingStep):
    """Rule 12.8, after buying trains: the company pays interest on its loans (no decision)."""

    key = "interest"
    label = "pay interest"

    def waiting(self, game: Any, rnd: Round) -> bool:
        return False

    def skip(self, game: Any, rnd: Round) -> None:
        corp = operating(rnd).corporation
        _round(rnd).paid_interest.add(corp.id)
        self.done(rnd)
        pay_interest(family(game), corp)


class RepayStep(OperatingStep):
    """Rule 12.9: repay loans at $100 each, two steps ahead, unless the company took a loan this
    round; a pass ends the step. With the site's reading loans may be taken here too."""

    key = "repay"
    label = "repay loans"

    def handlers(self) -> Mapping[str, Handler]:
        return {"payoff_loan": self.process_payoff, "take_loan": self.process_take_loan,
                "scrap_train": self.process_scrap, "pass": self.process_pass}

    def payoff_refusal(self, game: Family1817Game, rnd: Round, corp: Corporation) -> str | None:
        if corp.id in _round(rnd).took_loan:
            return f"{corp.id} took a loan this operating round and may not repay one (12.9)"
        return payoff_refusal(game, corp)

    def own_actions(self, game: Any, rnd: Round) -> list[str]:
        corp = operating(rnd).corporation
        game = family(game)
        kinds = []
        if self.payoff_refusal(game, rnd, corp) is None:
            kinds.append("payoff_loan")
        if game.loans_after_interest() and loan_refusal(game, corp) is None:
            kinds.append("take_loan")
        if not kinds:  # a train to scrap alone does not hold the turn open (109372 1350, as on the site)
            return []
        if game.scrappable_trains(corp):
            kinds.append("scrap_train")
        return kinds + ["pass"]

    def refusal(self, game: Any, rnd: Round, entity: Holder, action: Any) -> str | None:
        corp = operating(rnd).corporation
        if entity is corp and action.type == "payoff_loan":
            if corp.id not in _round(rnd).paid_interest:
                return f"{corp.id} repays loans after paying interest, at the end of its turn (12.9)"
            return self.payoff_refusal(family(game), rnd, corp)
        if entity is corp and action.type == "take_loan" and corp.id in _round(rnd).paid_interest:
            reason = loan_refusal(family(game), corp)
            return reason or f"{corp.id} has paid interest and may take no further loans this turn (12.8)"
        return super().refusal(game, rnd, entity, action)

    def process_payoff(self, game: Any, rnd: Round, entity: Holder, action: PayoffLoan) -> None:
        corp = self.operator(rnd, entity)
        reason = self.payoff_refusal(family(game), rnd, corp)
        if reason:
            raise GameError(reason)
        payoff_loan(family(game), corp)

    def process_take_loan(self, game: Any, rnd: Round, entity: Holder, action: TakeLoan) -> None:
        corp = self.operator(rnd, entity)
        take_loan(family(game), corp)
        _round(rnd).took_loan.add(corp.id)

    def process_scrap(self, game: Any, rnd: Round, entity: Holder, action: ScrapTrain) -> None:
        scrap_train(family(game), self.operator(rnd, entity), action)

    def process_pass(self, game: Any, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        kinds = self.own_actions(game, rnd)
        corp = operating(rnd).corporation
        moves: list[Move] = []
        if "payoff_loan" in kinds:
            moves.append({"type": "payoff_loan", "entity": corp.id, "entity_type": "corporation"})
        if "take_loan" in kinds:
            moves += loan_moves(family(game), corp)
        if "scrap_train" in kinds:
            moves += scrap_moves(family(game), corp)
        if kinds:
            moves.append({"type": "pass", "entity": corp.id, "entity_type": "corporation"})
        return moves


# --- dividends -------------------------------------------------------------------------------
def pay_family_dividend(game: Family1817Game, corporation: Corporation, revenue: int, kind: str) -> None:
    """Rule 12.5: withhold, pay out or pay half; shareholders get their part rounded up, the open
    market's part stays with the bank, and short sellers pay theirs to the bank."""
    if kind == "withhold":
        kept = revenue
    elif kind == "payout":
        kept = 0
    else:
        kept = game.half_withheld_of(corporation, revenue)
    paid = revenue - kept
    if kept:
        game.transfer(game.bank, corporation, kept)
    if paid:
        distribute_with_shorts(game, corporation, paid)
    corporation.has_paid = True
    game.log.append(f"{corporation.id} pays ${paid} and keeps ${kept}")
    game.dividend_price_move(corporation, paid)
    game.after_dividend(corporation)


def holdings(corporation: Corporation, skip: Holder) -> list[tuple[Holder, int]]:
    """Each holder's net percent (negative for short sellers), in the order first met."""
    found: dict[int, tuple[Holder, int]] = {}
    for share in corporation.shares:
        if share.owner is skip:
            continue
        owner, percent = found.get(id(share.owner), (share.owner, 0))
        found[id(share.owner)] = (owner, percent + share.percent)
    return list(found.values())


def distribute_with_shorts(game: Family1817Game, corporation: Corporation, paid: int) -> None:
    per_share = paid / game.total_shares(corporation)
    short_sellers: list[tuple[Player, int]] = []
    for owner, percent in holdings(corporation, game.pool):
        amount = math.ceil(per_share * corporation.units(percent) - 1e-9) if percent > 0 else \
            -math.ceil(per_share * corporation.units(percent) - 1e-9)
        if percent > 0 and amount:
            game.transfer(game.bank, owner, amount)
        elif percent < 0 and amount and isinstance(owner, Player):
            short_sellers.append((owner, amount))
    president = corporation.president()
    order = game.players_from(president) if president is not None else list(game.players)
    # Rule 15: several players who cannot pay raise cash in turn from the president.
    for player in order:
        for seller, amount in short_sellers:
            if seller is player:
                game.demand(player, amount, game.bank, f"{corporation.id}'s dividend on short shares")


class FamilyDividendStep(DividendStep):
    def pay(self, game: Any, corp: Corporation, revenue: int, kind: str) -> None:
        pay_family_dividend(family(game), corp, revenue, kind)

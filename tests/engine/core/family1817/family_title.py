"""A small synthetic 1817-family title for the family modules' tests (not a test module).

Two cities joined by printed track (and a hex of two cities off the track), a one-row market with a liquidation space and three
acquisition spaces, companies of 2, 5 and 10 shares started with `par` at a fixed size, trains
of 2 and 3, 20 loans of $100. Its rules are made up where the family leaves them to a title.
"""

from __future__ import annotations

from typing import Any

from engine.core.actions import Par
from engine.core.commands import standard
from engine.core.entities import Corporation, Holder
from engine.core.family1817.acquisition_round import AcquisitionRound, AcquisitionStep
from engine.core.family1817.game import FAMILY_OPTIONS, Family1817Game
from engine.core.family1817.merger_round import (
    ConversionStep,
    MergerRound,
    PostConversionLoansStep,
    PostConversionStep,
)
from engine.core.family1817.operating import (
    FamilyDividendStep,
    FamilyOperatingRound,
    InterestStep,
    LoanStep,
    RepayStep,
)
from engine.core.family1817.stock import FamilyStockRound, FamilyStockStep
from engine.core.round import OperatingSet, Round, RoundSequence, RoundSpec
from engine.core.step import Handler, Move
from engine.core.steps.buy_train import BuyTrainStep
from engine.core.steps.route import RouteStep
from engine.core.track import place_token
from engine.errors import GameError


def _city_hex(coord: str, x: int, edge: int, neighbour: str, revenue: int) -> dict[str, Any]:
    return {"coord": coord, "x": x, "y": 0, "color": "gray", "location_name": coord,
            "engine_tile_id": f"{coord}-0",
            "cities": [{"index": 0, "part_index": 0, "revenue": revenue, "slots": 4}],
            "paths": [{"a": {"edge": edge}, "b": {"city": 0}}], "accepts_tiles": False,
            "neighbors": {str(edge): neighbour}, "connectable_neighbors": {str(edge): neighbour}}


def _twin_city_hex(coord: str, x: int) -> dict[str, Any]:
    """A hex of two separate cities, one slot each, off the track (for rule 14.3's tests)."""
    return {"coord": coord, "x": x, "y": 0, "color": "gray", "location_name": coord,
            "engine_tile_id": f"{coord}-0",
            "cities": [{"index": 0, "part_index": 0, "revenue": 30, "slots": 1},
                       {"index": 1, "part_index": 1, "revenue": 30, "slots": 1}],
            "paths": [], "accepts_tiles": False, "neighbors": {}, "connectable_neighbors": {}}


PRICES = [0, 0, 0, 0, 40, 45, 50, 55, 60, 65, 70, 75, 80, 90, 100, 110, 120, 130, 140, 150]


def _market() -> dict[str, Any]:
    last = len(PRICES) - 1
    row = []
    for col, price in enumerate(PRICES):
        left = 0 if col == 0 else max(1, col - 1)  # the liquidation space is entered only on purpose
        right = min(last, col + 1)
        types = ["liquidation"] if col == 0 else ["acquisition"] if col <= 3 else []
        row.append({"row": 0, "col": col, "price": price, "engine_id": f"{price},0,{col}", "types": types,
                    "moves": {"left": [0, left], "down": [0, left], "right": [0, right], "up": [0, right]}})
    return {"grid": [row], "par_cells": [f"{p},0,{PRICES.index(p)}" for p in (50, 60, 70, 80, 100)]}


DATA: dict[str, Any] = {
    "map": {"hexes": [_city_hex("A1", 0, 2, "B2", 50), _city_hex("B2", 1, 5, "A1", 50), _twin_city_hex("C3", 2)]},
    "tiles": {"tiles": []},
    "market": _market(),
    "entities": {
        "player_range": [2, 4],
        "constants": {"bank_cash": "unlimited", "starting_cash": {"2": 1000, "3": 800, "4": 600},
                      "certificate_limit": {"2": 20, "3": 16, "4": 12},
                      "loans": {"value": 100, "total_loans": 20}},
        "trains": [{"name": "2", "distance": 2, "price": 100, "count": 12},
                   {"name": "3", "distance": 3, "price": 200, "count": "unlimited"}],
        "phases": [{"name": "2", "on_train": None, "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 2},
                   {"name": "3", "on_train": "3", "train_limit": 3, "tiles": ["yellow"], "operating_rounds": 2}],
    },
}

# company id -> (home hex, shares)
COMPANIES = {"A": ("A1", 2), "B": ("B2", 2), "C": ("A1", 5), "D": ("B2", 5), "E": ("A1", 10)}


class StartStep(FamilyStockStep):
    """The test title starts a company with `par`: the president's certificate at twice the
    par price, paid to the company, which floats at once with its home station."""

    PLAYER_ACTIONS = ["sell_shares", "short", "buy_shares", "par", "pass"]

    def handlers(self) -> dict[str, Handler]:
        return {**super().handlers(), "par": self.process_start}

    def process_start(self, game: Any, rnd: Round, entity: Holder, action: Par) -> None:
        self.process_par(game, rnd, entity, action)
        assert isinstance(rnd, FamilyStockRound)
        rnd.started.add(action.corporation)

    def legal_moves(self, game: Any, rnd: Round) -> list[Move]:
        moves = super().legal_moves(game, rnd)
        assert isinstance(rnd, FamilyStockRound)
        if rnd.acting_for is None and not rnd.turn_state.bought:
            # a company whose home city is full of others' stations cannot be started
            pars = [choice for choice in self.par_choices(game, rnd.current(game))
                    if None in game.board.hexes[COMPANIES[choice["corporation"]][0]].tokens[0]]
            if pars:
                moves.insert(len(moves) - 1, {"type": "par", "entity": rnd.current(game).id, "choices": pars})
        return moves


class FamilyTitle(Family1817Game):
    TITLE = "Family1817Test"
    RULE_OPTIONS = dict(FAMILY_OPTIONS)
    ROUNDS = RoundSequence(opening=(), cycle=("stock", OperatingSet(("operating", "merger", "acquisition"))))
    COMMANDS = standard("par", "buy", "sell", "pass", "run", "dividend", "train", "discard", "bankrupt")

    def title_data(self) -> dict[str, Any]:
        return DATA

    def setup(self) -> None:
        for corp_id, (home, shares) in COMPANIES.items():
            corp = Corporation(id=corp_id, name=corp_id, token_count=1, home_hex=home, float_percent=1)
            self.ledger.create(corp, shares, 2)
            self.corporations[corp_id] = corp

    def round_specs(self) -> dict[str, RoundSpec]:
        return {
            "stock": RoundSpec(FamilyStockRound, (StartStep(),)),
            "operating": RoundSpec(FamilyOperatingRound, (
                LoanStep(), RouteStep(), FamilyDividendStep(), BuyTrainStep(), InterestStep(), RepayStep())),
            "merger": RoundSpec(MergerRound, (PostConversionStep(), PostConversionLoansStep(), ConversionStep())),
            "acquisition": RoundSpec(AcquisitionRound, (AcquisitionStep(),)),
        }

    def end_after_operating_set(self) -> str | None:
        """The test title ends when no company is in play after a set of operating rounds
        (its players could otherwise pass round after round for ever)."""
        return None if any(corp.ipoed for corp in self.corporations.values()) else "no_companies"

    def must_buy_train(self, corporation: Corporation) -> bool:
        return False  # the family's companies are never obliged to buy a train (12.6)

    def on_float(self, corporation: Corporation) -> None:
        if corporation.home_hex is None:
            raise GameError(f"{corporation.id} has no home")
        slots = self.board.hexes[corporation.home_hex].tokens[0]
        place_token(self, corporation, corporation.home_hex, 0, slots.index(None))

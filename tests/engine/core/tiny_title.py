"""A tiny synthetic title that exercises the core alone (not a test module).

Two cities joined by printed track, a one-row market, an unlimited bank, companies of 5 and 2
shares, short sales, trains of unlimited supply, and a round sequence of its own:
stock, then per operating round an operating round and a "short round". Its rules are made up;
they use the core's services, steps and interrupting steps without any 18Texas code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.core.actions import Action, Pass
from engine.core.commands import CommandOption, CommandSpec, standard
from engine.core.entities import Corporation, Holder, Player
from engine.core.family1817.actions import Short  # the family's short sale action
from engine.core.game import BaseGame
from engine.core.operating_round import OperatingRound
from engine.core.round import OperatingSet, Round, RoundSequence, RoundSpec
from engine.core.step import Handler, Move, Step
from engine.core.steps.buy_train import BuyTrainStep
from engine.core.steps.cash_crisis import demand_payment
from engine.core.steps.dividend import DividendStep
from engine.core.steps.operating import OperatingStep, operating
from engine.core.steps.pending_token import PendingToken
from engine.core.steps.route import RouteStep
from engine.core.steps.shares import BuySellParShares
from engine.core.stock_round import StockRound
from engine.errors import GameError

LICENCE = 100


def _city_hex(coord: str, x: int, edge: int, neighbour: str) -> dict[str, Any]:
    return {"coord": coord, "x": x, "y": 0, "color": "gray", "location_name": coord,
            "engine_tile_id": f"{coord}-0", "cities": [{"index": 0, "part_index": 0, "revenue": 30, "slots": 2}],
            "paths": [{"a": {"edge": edge}, "b": {"city": 0}}], "accepts_tiles": False,
            "neighbors": {str(edge): neighbour}, "connectable_neighbors": {str(edge): neighbour}}


PRICES = [0, 40, 50, 60, 70, 80, 90, 100, 110]


def _market() -> dict[str, Any]:
    last = len(PRICES) - 1
    row = []
    for col, price in enumerate(PRICES):
        left = 0 if col == 0 else max(1, col - 1)  # the liquidation cell is entered only on purpose
        right = min(last, col + 1)
        row.append({"row": 0, "col": col, "price": price, "engine_id": f"{price},0,{col}",
                    "types": ["liquidation"] if col == 0 else [],
                    "moves": {"left": [0, left], "down": [0, left], "right": [0, right], "up": [0, right]}})
    return {"grid": [row], "par_cells": ["50,0,2", "60,0,3"]}


DATA: dict[str, Any] = {
    "map": {"hexes": [_city_hex("A1", 0, 2, "B2"), _city_hex("B2", 1, 5, "A1")]},
    "tiles": {"tiles": []},
    "market": _market(),
    "entities": {
        "player_range": [2, 3],
        "constants": {"bank_cash": "unlimited", "starting_cash": {"2": 300, "3": 250},
                      "certificate_limit": {"2": 20, "3": 15}, "max_player_percent": 100,
                      "bank_pool_limit_percent": 100},
        "trains": [{"name": "2", "distance": 2, "price": 80, "count": {"2-3": 2}},
                   {"name": "3", "distance": 3, "price": 150, "count": "unlimited"}],
        "phases": [{"name": "2", "on_train": None, "train_limit": 2, "tiles": ["yellow"], "operating_rounds": 1},
                   {"name": "3", "on_train": "3", "train_limit": 1, "tiles": ["yellow"], "operating_rounds": 2}],
    },
}


class LicenceStep(OperatingStep):
    """At the start of its turn a company's president pays the bank a licence fee: at once when
    they can, otherwise in a cash crisis that holds the round."""

    key = "licence"
    label = "pay the licence"

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        return False

    def skip(self, game: BaseGame, rnd: Round) -> None:
        self.done(rnd)
        president = operating(rnd).corporation.president()
        assert president is not None
        demand_payment(game, president, LICENCE, game.bank, f"{operating(rnd).corporation.id}'s licence")


@dataclass
class ShortRound(Round):
    """Each player once, in seat order: sell one share short or pass."""

    name: ClassVar[str] = "Short Round"
    index: int = 0

    def current_entity(self, game: BaseGame) -> Holder | None:
        return game.players[self.index] if self.index < len(game.players) else None

    def next_player(self) -> None:
        self.index += 1


class ShortStep(Step):
    key = "short"
    label = "sell short"

    def handlers(self) -> Mapping[str, Handler]:
        return {"short": self.process_short, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return rnd.current_entity(game) is not None

    def targets(self, game: BaseGame, player: Player) -> list[Corporation]:
        """Floated companies the player holds nothing of."""
        return [corp for corp in game.corporations.values()
                if corp.floated and corp.percent_owned_by(player) == 0]

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        if entity is not rnd.current_entity(game) or not isinstance(entity, Player):
            return []
        return ["short", "pass"] if self.targets(game, entity) else []

    def skip(self, game: BaseGame, rnd: Round) -> None:
        assert isinstance(rnd, ShortRound)
        player = rnd.current_entity(game)
        game.log.append(f"{game.describe(player)} has nothing to sell short")
        rnd.next_player()

    def process_short(self, game: BaseGame, rnd: Round, entity: Holder, action: Short) -> None:
        assert isinstance(rnd, ShortRound) and isinstance(entity, Player)
        corporation = game.corporation(action.corporation)
        if corporation not in self.targets(game, entity):
            raise GameError(f"{entity.name} may not sell {corporation.id} short")
        game.ledger.short(corporation, entity, game.pool)
        game.transfer(game.bank, entity, game.share_price(corporation))
        rnd.next_player()

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        assert isinstance(rnd, ShortRound)
        rnd.next_player()

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        player = rnd.current_entity(game)
        if not isinstance(player, Player) or not self.targets(game, player):
            return []
        return [{"type": "short", "entity": player.id,
                 "choices": [{"corporation": corp.id} for corp in self.targets(game, player)]},
                {"type": "pass", "entity": player.id}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        return isinstance(action, Short) and choice["corporation"] == action.corporation


class Tiny(BaseGame):
    TITLE = "Tiny"
    NEGATIVE_HOLDINGS = True
    DISCARDS_TO_MARKET = True
    ROUNDS = RoundSequence(opening=(), cycle=("stock", OperatingSet(("operating", "short"))))
    COMMANDS = (*standard("par", "buy", "sell", "pass", "token", "run", "dividend", "train", "discard",
                          "bankrupt"),
                CommandSpec("short", "short", "Sell a share short", "sell short", ("player",),
                            (CommandOption("corporation", str, "The company", True, "corporation"),)))

    def title_data(self) -> dict[str, Any]:
        return DATA

    def setup(self) -> None:
        for corp_id, home, shares, president in (("X", "A1", 5, 2), ("Y", "B2", 2, 1)):
            corp = Corporation(id=corp_id, name=corp_id, token_count=2, home_hex=home, float_percent=40)
            self.ledger.create(corp, shares, president)
            self.corporations[corp_id] = corp

    def round_specs(self) -> dict[str, RoundSpec]:
        return {
            "stock": RoundSpec(StockRound, (BuySellParShares(),)),
            "operating": RoundSpec(OperatingRound, (LicenceStep(), RouteStep(), DividendStep(), BuyTrainStep())),
            "short": RoundSpec(ShortRound, (ShortStep(),)),
        }

    def sell_blocked_reason(self, player: Player, corporation: Corporation) -> str | None:
        return None

    def on_float(self, corporation: Corporation) -> None:
        """The president places the home station (an interrupting step, here in a stock round)."""
        president = corporation.president()
        assert president is not None and corporation.home_hex is not None
        self.pending_tokens.append(PendingToken(str(president.id), "player", corporation.id,
                                                (corporation.home_hex,)))


"""The operating round: each floated company in turn goes through its steps."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.core.entities import Company, Corporation, Holder, Player
from engine.core.rounds import Round
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.core.or_steps import Step


@dataclass
class CorporateTurn:
    """What the operating company has done so far this turn."""

    corporation: Corporation
    step_index: int = 0
    lays: list[bool] = field(default_factory=list)  # one entry per tile lay: was it an upgrade?
    revenue: int | None = None
    runs: list[Any] = field(default_factory=list)
    redeemed: bool = False
    emergency_sales: int = 0
    emergency_prices: dict[str, int] = field(default_factory=dict)  # price when first sold in it
    ability_token_hex: str | None = None
    done_steps: set[str] = field(default_factory=set)


@dataclass
class OperatingRound(Round):
    """Private companies pay, then companies operate from the highest share price down."""

    name = "Operating Round"
    done: list[str] = field(default_factory=list)
    turn: CorporateTurn | None = None
    pending_discards: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        Round.__init__(self)

    def steps(self, game: BaseGame) -> list[Step]:
        return game.operating_steps()

    def start(self, game: BaseGame) -> None:
        game.log.append(f"Operating Round {game.turn}.{game.round_num}")
        game.pay_private_revenue()
        self._next_corporation(game)

    def _next_corporation(self, game: BaseGame) -> None:
        waiting = [corp for corp in game.operating_order() if corp.id not in self.done]
        if not waiting:
            self.turn = None
            self.finished = True
            return
        corporation = waiting[0]
        self.turn = CorporateTurn(corporation)
        game.log.append(f"{corporation.id} operates")
        self._check_route(game)

    def _check_route(self, game: BaseGame) -> None:
        """A company without trains has its route checked at every move of its turn."""
        if self.turn is not None and not self.turn.corporation.trains:
            game.route_available(self.turn.corporation)

    @property
    def turn_done(self) -> set[str]:
        if self.turn is None:
            raise GameError("no company is operating")
        return self.turn.done_steps

    @property
    def corporation(self) -> Corporation:
        if self.turn is None:
            raise GameError("no company is operating")
        return self.turn.corporation

    def current_step(self, game: BaseGame) -> Step | None:
        if self.turn is None:
            return None
        steps = self.steps(game)
        if self.turn.step_index >= len(steps):
            return None
        return steps[self.turn.step_index]

    def label(self, game: BaseGame) -> str:
        label = f"{self.name} {game.turn}.{game.round_num}"
        corporation = self.acting_entity(game)
        return f"{label} — {corporation.id} operating" if corporation is not None else label

    # --- who acts --------------------------------------------------------------------------
    def acting_entity(self, game: BaseGame) -> Corporation | None:
        if self.pending_discards:
            return game.corporation(self.pending_discards[0])
        return self.turn.corporation if self.turn else None

    def acting_players(self, game: BaseGame) -> list[Player]:
        entity = self.acting_entity(game)
        if entity is None:
            return []
        president = entity.president()
        return [president] if president else []

    # --- flow ------------------------------------------------------------------------------
    def advance(self, game: BaseGame) -> bool:
        if self.finished or self.pending_discards:
            return False
        if self.turn is None:
            return False
        step = self.current_step(game)
        if step is None:
            self._end_turn(game)
            return True
        if step.finished(game, self):
            self.turn.step_index += 1
            return True
        if step.actions(game, self):
            return False
        step.skip(game, self)
        self.turn.step_index += 1
        return True

    def _end_turn(self, game: BaseGame) -> None:
        assert self.turn is not None
        corporation = self.turn.corporation
        corporation.times_operated += 1
        self.done.append(corporation.id)
        self._next_corporation(game)

    def process(self, game: BaseGame, entity: Holder, action: dict[str, Any]) -> None:
        kind = action["type"]
        if self.pending_discards:
            self._discard(game, entity, action)
            return
        if self.turn is None:
            raise GameError("no company is operating")
        if isinstance(entity, Company):
            game.process_company_ability(self, entity, action)
            return
        if kind == "bankrupt":
            game.process_bankrupt(self, entity, action)
            return
        step = self.current_step(game)
        if step is None:
            raise GameError("the operating company has finished its turn")
        allowed = step.actions(game, self)
        if kind not in allowed:
            raise GameError(step.refusal(game, self, kind) or
                            f"{self.corporation.id} is at the {step.label} step; "
                            f"allowed now: {', '.join(allowed) or 'nothing'}")
        step.process(game, self, entity, action)
        self.queue_discards(game)
        self._check_route(game)

    def queue_discards(self, game: BaseGame) -> None:
        for corporation in game.crowded_corporations():
            if corporation.id not in self.pending_discards:
                self.pending_discards.append(corporation.id)

    def _discard(self, game: BaseGame, entity: Holder, action: dict[str, Any]) -> None:
        corporation = game.corporation(self.pending_discards[0])
        if action["type"] != "discard_train" or entity is not corporation:
            raise GameError(f"{corporation.id} is over its train limit and must first discard a train")
        train = next((t for t in corporation.trains if t.id == action.get("train")), None)
        if train is None:
            names = ", ".join(t.id for t in corporation.trains)
            raise GameError(f"{corporation.id} has no train {action.get('train')!r}; it has {names}")
        corporation.trains.remove(train)
        game.discard_train(train)
        game.log.append(f"{corporation.id} discards a {train.name}-train")
        if len(corporation.trains) <= game.train_limit(corporation):
            self.pending_discards.pop(0)

    def finish(self, game: BaseGame) -> None:
        game.end_of_operating_round()

    def legal_moves(self, game: BaseGame) -> list[dict[str, Any]]:
        if self.pending_discards:
            corporation = game.corporation(self.pending_discards[0])
            return [{"type": "discard_train", "entity": corporation.id,
                     "choices": [{"train": t.id} for t in corporation.trains]}]
        step = self.current_step(game)
        if step is None:
            return []
        moves = step.legal_moves(game, self)
        moves += game.company_ability_moves(self)
        return moves

"""The operating round: private companies pay, then each floated company in turn goes through
the round's steps, from the highest share price down."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.entities import Corporation, Holder
from engine.core.round import Round
from engine.errors import GameError

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class CorporateTurn:
    """What the operating company has done so far this turn."""

    corporation: Corporation
    lays: list[bool] = field(default_factory=list)  # one entry per tile lay: was it an upgrade?
    revenue: int | None = None
    runs: list[Any] = field(default_factory=list)
    redeemed: bool = False
    emergency_sales: int = 0
    emergency_prices: dict[str, int] = field(default_factory=dict)  # price when first sold in it
    ability_token_hex: str | None = None
    done_steps: set[str] = field(default_factory=set)  # steps done or passed over this turn


@dataclass
class OperatingRound(Round):
    """The companies operate one after another, each through the round's steps."""

    name: ClassVar[str] = "Operating Round"
    done: list[str] = field(default_factory=list)
    turn: CorporateTurn | None = None

    def start(self, game: BaseGame) -> None:
        game.log.append(f"Operating Round {game.turn}.{game.round_num}")
        game.pay_private_revenue()
        self._next_corporation(game)

    def waiting(self, game: BaseGame) -> list[Corporation]:
        """The companies still to operate this round, in the order they will, the operating one
        (if any) first: the operating order as it stands now, less those done."""
        return [corp for corp in game.operating_order() if corp.id not in self.done]

    def turns(self, game: BaseGame) -> list[tuple[str, str]]:
        """Each company of the round in its order, with "done", "now" or "" (still to operate):
        those done in the order they went, then the operating one, then the others."""
        now = self.turn.corporation.id if self.turn is not None else None
        later = [corp.id for corp in self.waiting(game) if corp.id != now]
        return ([(cid, "done") for cid in self.done] + ([(now, "now")] if now is not None else [])
                + [(cid, "") for cid in later])

    def _next_corporation(self, game: BaseGame) -> None:
        waiting = self.waiting(game)
        if not waiting:
            self.turn = None
            self.finished = True
            return
        corporation = waiting[0]
        self.turn = CorporateTurn(corporation)
        game.log.append(f"{corporation.id} operates")
        self.after_action(game)

    def after_action(self, game: BaseGame) -> None:
        """A company without trains has its route checked at every move of its turn (a route
        seen once counts for titles with sticky routes)."""
        if self.turn is not None and not self.turn.corporation.trains:
            game.route_available(self.turn.corporation)

    def current_entity(self, game: BaseGame) -> Holder | None:
        return self.turn.corporation if self.turn else None

    @property
    def corporation(self) -> Corporation:
        if self.turn is None:
            raise GameError("no company is operating")
        return self.turn.corporation

    @property
    def operating_turn(self) -> CorporateTurn:
        if self.turn is None:
            raise GameError("no company is operating")
        return self.turn

    def turn_over(self, game: BaseGame) -> None:
        corporation = self.corporation
        corporation.times_operated += 1
        self.done.append(corporation.id)
        self._next_corporation(game)

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}.{game.round_num}"

    def label(self, game: BaseGame) -> str:
        entity = self.acting_entity(game)
        return f"{self.title(game)} — {entity.key} operating" if entity is not None else self.title(game)

    def finish(self, game: BaseGame) -> None:
        game.end_of_operating_round()

"""The stock round: players in turn, from the priority holder, until all pass in succession."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from engine.core.entities import Holder, Player
from engine.core.round import Round

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class StockTurn:
    """What the player whose turn it is has done so far this turn."""

    sold: bool = False
    bought: bool = False
    first_sale_prices: dict[str, int] = field(default_factory=dict)  # by company: price before its first sale


@dataclass
class StockRound(Round):
    """Its steps decide what a turn may hold; the round keeps the order and who passed."""

    name: ClassVar[str] = "Stock Round"
    current_index: int = 0
    consecutive_passes: int = 0
    turn_state: StockTurn = field(default_factory=StockTurn)
    sold_this_round: dict[str, set[str]] = field(default_factory=dict)
    last_to_act: Player | None = None

    def start(self, game: BaseGame) -> None:
        # A bankrupt player has left the game: the priority deal passes on to their left (the
        # site's 18USA logs, s8400 at 487 and s8502 at 886).
        game.priority_index = game.players.index(game.next_player_in(game.priority_player))
        self.current_index = game.priority_index
        game.programs.turn_started(self.current(game).key)
        game.log.append(f"Stock Round {game.turn}")

    def current(self, game: BaseGame) -> Player:
        return game.players[self.current_index]

    def current_entity(self, game: BaseGame) -> Holder | None:
        return self.current(game)

    def title(self, game: BaseGame) -> str:
        return f"{self.name} {game.turn}"

    def end_turn(self, game: BaseGame) -> None:
        """The current player's turn ends; an empty turn is a pass, and when every player still
        in the game has passed in succession the round ends."""
        acted = self.turn_state.sold or self.turn_state.bought
        self.consecutive_passes = 0 if acted else self.consecutive_passes + 1
        self.turn_state = StockTurn()
        active = [p for p in game.players if not p.bankrupt]
        if self.consecutive_passes >= len(active):
            self.finished = True
            return
        following = game.player_left_of(game.players[self.current_index])
        self.current_index = game.players.index(game.next_player_in(following))
        game.programs.turn_started(self.current(game).key)

    def finish(self, game: BaseGame) -> None:
        if self.last_to_act is not None:
            left = game.next_player_in(game.player_left_of(self.last_to_act))
            game.priority_index = game.players.index(left)
        game.end_of_stock_round()

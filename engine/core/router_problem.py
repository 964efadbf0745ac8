"""What the route optimizer needs to know, and nothing more: its interface to a game.

A `RouteProblem` is a board, a company, the phase's colours, the company's trains and the title's
route rules (`RouteRules`, the route hooks bound to one company). `problem_from_game` builds one
from a game; benchmarks and tests build them directly. The optimizer never looks at a game's
rounds, steps or players, so changes there do not reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.core.board import Board
from engine.core.graph import Node
from engine.core.route_hooks import Attachment, EndLimit, StopRole, overridden_hooks

if TYPE_CHECKING:
    from engine.core.entities import Corporation, Train
    from engine.core.game import BaseGame


class RouteRules(Protocol):
    """The title's route hooks for one company (see engine.core.route_hooks)."""

    hooks: frozenset[str]  # names of the hooks that differ from the core rules

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int: ...
    def track_bonuses(self, train: Train) -> dict[str, int]: ...
    def stop_roles(self) -> Mapping[Node, StopRole]: ...
    def end_limits(self) -> tuple[EndLimit, ...]: ...
    def attachments(self) -> tuple[Attachment, ...]: ...


class CoreRules:
    """No title hooks: the rules of the core alone."""

    hooks: frozenset[str] = frozenset()

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int:
        return printed

    def track_bonuses(self, train: Train) -> dict[str, int]:
        return {}

    def stop_roles(self) -> Mapping[Node, StopRole]:
        return {}

    def end_limits(self) -> tuple[EndLimit, ...]:
        return ()

    def attachments(self) -> tuple[Attachment, ...]:
        return ()


class GameRules:
    """A game's route hooks, bound to one of its companies."""

    def __init__(self, game: BaseGame, corporation: Corporation) -> None:
        self.game = game
        self.corporation = corporation
        self.hooks = overridden_hooks(game)

    def stop_revenue(self, train: Train, stop: Node, printed: int) -> int:
        return self.game.route_stop_revenue(self.corporation, train, stop, printed)

    def track_bonuses(self, train: Train) -> dict[str, int]:
        return self.game.route_track_bonuses(self.corporation, train)

    def stop_roles(self) -> Mapping[Node, StopRole]:
        return self.game.route_stop_roles(self.corporation)

    def end_limits(self) -> tuple[EndLimit, ...]:
        return self.game.route_end_limits(self.corporation)

    def attachments(self) -> tuple[Attachment, ...]:
        return self.game.route_attachments(self.corporation)


@dataclass(frozen=True)
class RouteProblem:
    """One company's trains to run on one board."""

    board: Board
    corporation: str
    colors: tuple[str, ...]  # track colours of the phase: red areas' values follow them
    trains: tuple[Train, ...]
    rules: RouteRules


def problem_from_game(game: BaseGame, corporation: Corporation) -> RouteProblem:
    return RouteProblem(game.board, corporation.id, game.colors_available(), tuple(corporation.trains),
                        GameRules(game, corporation))

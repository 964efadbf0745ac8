"""A round: whose turn it is and an ordered list of steps.

An action goes to the first active step that takes its type from the acting entity; only the
steps up to the first active blocking step are in play. Interrupting steps (a forced discard,
raising cash, a pending station) sit at the front of every round's list, so they hold any
round while they are active without the round knowing about them. A round whose blocking step
has nothing to decide skips it, so an entity with no legal action is passed over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action
from engine.core.commands import words_for, words_for_move
from engine.core.entities import Holder, Player
from engine.core.step import Move, Step, command_word, controller, entity_id, entity_type
from engine.errors import GameError, NotNow

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class Round:
    """A round of play: its steps, in order, and whether it is over."""

    name: ClassVar[str] = "Round"
    steps: list[Step] = field(default_factory=list)
    finished: bool = False
    wound_up: bool = False  # `finish` has run (its effects may still ask for a decision)

    # --- the round's own flow (subclasses) -------------------------------------------------
    def start(self, game: BaseGame) -> None:
        """Called once when the round begins."""

    def current_entity(self, game: BaseGame) -> Holder | None:
        """Whose turn it is in the round's own order."""
        return None

    def turn_over(self, game: BaseGame) -> None:
        """No step is left for the current entity: the next one's turn, or the round ends."""
        self.finished = True

    def after_action(self, game: BaseGame) -> None:
        """Called after every processed action."""

    def finish(self, game: BaseGame) -> None:
        """Effects at the end of the round."""

    def title(self, game: BaseGame) -> str:
        """The round as players name it: 'Stock Round 3'."""
        return self.name

    def label(self, game: BaseGame) -> str:
        """The title, with who is acting where that helps: 'Operating Round 3.2 — SP operating'."""
        return self.title(game)

    # --- steps -----------------------------------------------------------------------------
    def active_steps(self, game: BaseGame) -> list[Step]:
        """The steps in play: active ones up to and including the first active blocking one."""
        found = []
        for step in self.steps:
            if step.active(game, self):
                found.append(step)
                if step.blocking:
                    break
        return found

    def blocking_step(self, game: BaseGame) -> Step | None:
        """The first active blocking step: what the round waits for."""
        for step in self.steps:
            if step.blocking and step.active(game, self):
                return step
        return None

    def step(self, key: str) -> Step | None:
        return next((step for step in self.steps if step.key == key), None)

    def acting_entity(self, game: BaseGame) -> Holder | None:
        step = self.blocking_step(game)
        return step.acting_entity(game, self) if step is not None else self.current_entity(game)

    def acting_players(self, game: BaseGame) -> list[Player]:
        player = controller(self.acting_entity(game))
        return [player] if player is not None else []

    # --- actions ---------------------------------------------------------------------------
    def process(self, game: BaseGame, entity: Holder, action: Action) -> None:
        steps = self.active_steps(game)
        for step in steps:
            # The handler first: what a step offers can take a search of the map (where a station
            # may go), and most steps in play have no handler for the action's type at all.
            handler = step.handlers().get(action.type)
            if handler is not None and action.type in step.actions(game, self, entity):
                handler(game, self, entity, action)
                self.after_action(game)
                return
        for step in steps:
            if action.type in step.actions(game, self, entity) and action.type not in step.handlers():
                raise RuntimeError(f"{type(step).__name__} offers {action.type} but has no handler")
        # Why not: the steps in play first, then the others (a later step may know its rule).
        for step in steps + [step for step in self.steps if step not in steps]:
            reason = step.refusal(game, self, entity, action)
            if reason:
                raise GameError(reason)
        raise self.not_allowed(game, entity, action)

    def not_allowed(self, game: BaseGame, entity: Holder, action: Action) -> GameError:
        """Why `entity` may not take `action` now, in the command words of the game's title: whose
        turn it is, or what the round waits for and which words `entity` may use now."""
        return self.not_now(game, entity, action.type, action.to_dict())

    def not_now(self, game: BaseGame, entity: Holder, kind: str,
                fields: Mapping[str, Any] | None = None) -> GameError:
        """`not_allowed` for an action type (and the fields known of it, which pick its word where
        several share the type), for a front end that could not make the whole action."""
        acting = self.acting_entity(game)
        step = self.blocking_step(game)
        listed = entity  # whose words are listed: the entity's own, or its player's turn's
        if acting is not None and entity is not acting and not any(
                other.actions(game, self, entity) for other in self.active_steps(game)):
            player = controller(acting)
            if player is None or player is not controller(entity):
                return GameError(f"it is {game.describe(acting)}'s turn ({self.title(game)})")
            listed = acting  # the player's own turn, for themselves or another of their companies
        word = command_word(game, kind, entity, fields)
        allowed: list[str] = []
        for active in self.active_steps(game):
            for offered in active.actions(game, self, listed):
                allowed += self._words_now(game, active, listed, offered)
        waiting = game.describe(acting if acting is not None else entity)
        where = f"{waiting} is to {step.label}" if step is not None else f"it is {self.title(game)}"
        can = (f"what you can do now: {', '.join(sorted(set(allowed)))}" if allowed
               else f"{game.describe(listed)} has nothing to do now")
        return NotNow(word, kind, f"{where}; {can}")

    def _words_now(self, game: BaseGame, step: Step, entity: Holder, kind: str) -> list[str]:
        """The words for an action type a step allows `entity` now; where the type has several
        (18USA's assign: /contribute, /offer), those making one of the step's legal moves."""
        table = type(game).COMMANDS
        words = words_for(table, kind, entity_type(entity))
        if len(words) < 2:
            return words
        wanted = str(entity_id(entity))
        made = [word for move in step.legal_moves(game, self)
                if move["type"] == kind and str(move["entity"]) == wanted
                for word in words_for_move(table, {"entity_type": entity_type(entity), **move})]
        return [word for word in words if word in made] or words

    def legal_moves(self, game: BaseGame) -> list[Move]:
        """The blocking step's moves (the decision the round waits for) first, then those of the
        non-blocking steps before it."""
        steps = self.active_steps(game)
        if steps and steps[-1].blocking:
            steps = [steps[-1], *steps[:-1]]
        moves: list[Move] = []
        for step in steps:
            moves += step.legal_moves(game, self)
        return moves

    def offered(self, game: BaseGame, entity: Holder, action: Action) -> bool:
        """Whether `action` is one of the legal moves (free amounts within their limits)."""
        return any(action.type in step.actions(game, self, entity) and step.offers(game, self, entity, action)
                   for step in self.active_steps(game))

    # --- settling --------------------------------------------------------------------------
    def advance(self, game: BaseGame) -> bool:
        """Do one thing that needs no decision; True if something changed."""
        if self.finished:
            return False
        step = self.blocking_step(game)
        if step is None:
            self.turn_over(game)
            return True
        if step.waiting(game, self):
            return False
        step.skip(game, self)
        return True


@dataclass(frozen=True)
class RoundSpec:
    """One kind of round a title plays: its class and its steps, in order."""

    kind: type[Round]
    steps: tuple[Step, ...]

    def make(self, interrupts: tuple[Step, ...]) -> Round:
        return self.kind(steps=[*interrupts, *self.steps])


@dataclass(frozen=True)
class OperatingSet:
    """Rounds played as one operating round, as many times as the phase gives at its start."""

    rounds: tuple[str, ...]


@dataclass(frozen=True)
class RoundSequence:
    """The order of rounds: the opening ones once, then the cycle again and again."""

    opening: tuple[str, ...]
    cycle: tuple[str | OperatingSet, ...]

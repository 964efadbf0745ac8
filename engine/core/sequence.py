"""Where a game is in its title's round sequence, and which round comes next."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.core.round import OperatingSet, RoundSequence

if TYPE_CHECKING:
    from engine.core.game import BaseGame


@dataclass
class RoundCursor:
    """A position in `RoundSequence.opening + cycle`, and inside an operating set."""

    index: int = 0
    set_index: int = 0

    def kind(self, sequence: RoundSequence) -> str:
        entry = (sequence.opening + sequence.cycle)[self.index]
        return entry.rounds[self.set_index] if isinstance(entry, OperatingSet) else entry

    def enter(self, game: BaseGame) -> None:
        """Entering an operating set fixes how many operating rounds it has (the phase's now)."""
        self.set_index = 0
        if isinstance((game.ROUNDS.opening + game.ROUNDS.cycle)[self.index], OperatingSet):
            game.round_num = 1
            game.operating_rounds = game.phase.operating_rounds

    def advance(self, game: BaseGame) -> str | None:
        """Move to the next round and return its kind, or None when the game ends after the
        round that finished (`end_after_operating_set`)."""
        sequence = game.ROUNDS
        entries = sequence.opening + sequence.cycle
        entry = entries[self.index]
        if isinstance(entry, OperatingSet):
            if self.set_index + 1 < len(entry.rounds):
                self.set_index += 1
                return self.kind(sequence)
            if game.round_num < game.operating_rounds:
                game.round_num += 1
                self.set_index = 0
                return self.kind(sequence)
            reason = game.end_after_operating_set()
            if reason:
                game.end_game(reason)
                return None
        self.index += 1
        if self.index >= len(entries):
            self.index = len(sequence.opening)
            game.turn += 1
        self.enter(game)
        return self.kind(sequence)

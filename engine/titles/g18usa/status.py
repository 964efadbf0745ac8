"""18USA's own lines for players to keep in view (the shared ones are in engine/status.py):
which round of the set is being played, a company that goes into liquidation if it ends its turn
without a train (12.6), and how long the game lasts after the first 8-train (16)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.entities import Corporation

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA


def status_notes(game: G18USA) -> list[tuple[str, set[str]]]:
    notes: list[tuple[str, set[str]]] = []
    if game.cursor.kind(game.ROUNDS) != "auction":
        notes.append((f"Set {game.turn} of rounds: stock, operating ×{game.operating_rounds}, merger and "
                      "conversion, acquisition.", set()))
    operating = game.round.acting_entity(game)
    if (game.round.name == "Operating Round" and isinstance(operating, Corporation)
            and not [train for train in operating.trains if train.name != "P"]):
        notes.append((f"{operating.id} has no train: it goes into liquidation if it ends its turn "
                      "without one (12.6)", {operating.id}))
    if game.final_turn is not None:
        notes.append((f"The first 8-train has been bought: the game ends after Operating Round "
                      f"{game.final_turn}.{game.final_operating_rounds or game.operating_rounds}.", set()))
    return notes

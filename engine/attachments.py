"""The attachments the route optimizer counted in its proposal (a Pullman, a switcher, an
extender), as the `choose` moves that put each on its train before the run.

The engine offers each attachment it wants chosen as a `choose` move whose choices name the
attachment, the train it goes on and words for both (`attachment`, `attaches_to`, `label`);
the code the action sends may change after each choice, so each is found afresh on a copy of
the position. Whether a run earns what the optimizer said stays the engine's call when the run
is processed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.legal import legal_moves

if TYPE_CHECKING:
    from engine.core.game import BaseGame

Move = dict[str, Any]


def wanted(runs: Iterable[Any]) -> dict[str, str]:
    """Attachment id -> the train it rides on, from the optimizer's planned runs."""
    return {name: str(run.train) for run in runs for name in run.attachments}


def _offered(state: BaseGame, corporation: str, wants: dict[str, str]) -> Move | None:
    move = next((m for m in legal_moves(state) if m["type"] == "choose" and str(m["entity"]) == corporation), None)
    if move is None:
        return None
    return next((c for c in move.get("choices") or []
                 if c.get("attachment") in wants and wants[str(c["attachment"])] == c.get("attaches_to")), None)


def attachment_words(state: BaseGame, corporation: str, runs: Iterable[Any]) -> dict[str, str]:
    """Train id -> what the proposal attaches to it, by name ("Pullman on the 5-train 5-1")."""
    wants = wanted(runs)
    move = next((m for m in legal_moves(state) if m["type"] == "choose" and str(m["entity"]) == corporation), None)
    words: dict[str, list[str]] = {}
    for choice in (move or {}).get("choices") or []:
        if choice.get("attachment") in wants and wants[str(choice["attachment"])] == choice.get("attaches_to"):
            words.setdefault(str(choice["attaches_to"]), []).append(str(choice.get("label") or choice["attachment"]))
    return {train: ", ".join(labels) for train, labels in words.items()}


def attachment_actions(state: BaseGame, corporation: str, runs: Iterable[Any]) -> list[Move]:
    """The `choose` actions, in order, that attach what the proposal counted to its trains."""
    wants = wanted(runs)
    if not wants or _offered(state, corporation, wants) is None:
        return []
    position = state.snapshot()
    actions: list[Move] = []
    while (choice := _offered(position, corporation, wants)) is not None:
        action = {"type": "choose", "entity": corporation, "entity_type": "corporation", "choice": choice["choice"]}
        position.process(action)
        del wants[str(choice["attachment"])]
        actions.append(action)
    return actions

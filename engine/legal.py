"""The legal-moves query: what whoever must act now may do, with the choices for each action.

Each move is a dict: `type` (an 18xx.games action type), `entity` (who acts), optional
`entity_type`, and `choices` (a list of dicts) whose fields name the action's own fields.
Which moves exist, and whether an action is one of them, is each step's business
(`Step.legal_moves`, `Step.matches`); this module asks the round's steps in play.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.actions import EndGame, Meta, parse_action
from engine.core.entities import Holder, Player
from engine.core.programs import ProgramAction
from engine.core.step import decider
from engine.errors import GameError, NotNow

if TYPE_CHECKING:
    from engine.core.game import BaseGame


def legal_moves(game: BaseGame) -> list[dict[str, Any]]:
    if game.finished:
        return []
    moves = game.round.legal_moves(game)
    for move in moves:
        if "entity_type" not in move:
            move["entity_type"] = _entity_type(game, move["entity"], move["type"])
    return moves


def move_decider(game: BaseGame, move: dict[str, Any]) -> Player | None:
    """The player who decides a legal move (or an action): see `engine.core.step.decider`."""
    kind = move.get("entity_type") or _entity_type(game, move["entity"], move.get("type"))
    entity = move["entity"]
    holder: Holder | None
    if kind == "corporation":
        holder = game.corporations.get(str(entity))
    elif kind == "company":
        holder = game.companies.get(str(entity))
    else:
        holder = next((p for p in game.players if str(p.id) == str(entity)), None)
    return decider(game, holder)


def unattended_move(game: BaseGame) -> dict[str, Any] | None:
    """The move to make for a company nobody presides, when only it can act: its president went
    bankrupt during its operating turn (15), and the rest of the turn is its own. The reference
    site lets the company act on; no player decides for it, so it passes, step by step. None
    whenever anyone decides a legal move."""
    moves = legal_moves(game)
    for move in moves:
        holder = game.corporations.get(str(move["entity"])) if move.get("entity_type") == "corporation" else None
        if holder is None or holder.president() is not None or move_decider(game, move) is not None:
            return None
    return next(({"type": "pass", "entity": move["entity"], "entity_type": "corporation"}
                 for move in moves if move["type"] == "pass"), None)


def make_unattended_moves(game: BaseGame, most: int = 20) -> list[dict[str, Any]]:
    """Make the moves nobody decides that follow now (`unattended_move`), and return them."""
    made: list[dict[str, Any]] = []
    while len(made) < most and (move := unattended_move(game)) is not None:
        try:
            game.process(move)
        except GameError:
            break
        made.append(move)
    return made


def _entity_type(game: BaseGame, entity: Any, kind: str | None = None) -> str:
    """What kind of entity an id names. Where a player and a private share an id (generated
    logs name players P1, P2, ... like 18USA's privates), the one a step in play lets take the
    move's action type (`kind`) is meant."""
    found: list[tuple[str, Holder]] = []
    if isinstance(entity, str) and entity in game.corporations:
        found.append(("corporation", game.corporations[entity]))
    if isinstance(entity, str) and entity in game.companies:
        found.append(("company", game.companies[entity]))
    found += [("player", p) for p in game.players if str(p.id) == str(entity)]
    if len(found) > 1 and kind is not None:
        steps = game.round.active_steps(game)
        acting = next((name for name, holder in found
                       if any(kind in step.actions(game, game.round, holder) for step in steps)), None)
        if acting is not None:
            return acting
    return found[0][0] if found else "player"


def is_offered(game: BaseGame, action: dict[str, Any]) -> bool:
    """True when `action` is one of the legal moves (ignoring free amounts within their limits)."""
    try:
        typed = parse_action(action)
    except GameError:
        return False
    if isinstance(typed, Meta | EndGame):
        return True
    if isinstance(typed, ProgramAction):  # a standing order is taken from anyone at any time
        return not game.finished
    if game.finished:
        return False
    try:
        entity = game.entity(typed)
    except GameError:
        return False
    return game.round.offered(game, entity, typed)


def why_not_now(game: BaseGame, entity_type: str, entity: Any, kind: str) -> str | None:
    """Why the entity may take no action of type `kind` now, for a front end that cannot make the
    whole action (its fields are not known): what the round waits for and the command words
    the entity may use now, or whose turn it is. None when a step in play allows the type."""
    if game.finished:
        return "the game is over"
    try:
        holder = game.lookup(entity_type, entity)
    except GameError as error:
        return str(error)
    if any(kind in step.actions(game, game.round, holder) for step in game.round.active_steps(game)):
        return None
    refusal = game.round.not_now(game, holder, kind)
    return refusal.why if isinstance(refusal, NotNow) else str(refusal)


def accepted_only_on_import(game: BaseGame, action: dict[str, Any]) -> bool:
    """True when the steps in play take `action` only because a log is being imported: the
    reference site accepted such actions (its record stands), live play does not offer them."""
    if not game.importing or game.finished:
        return False
    try:
        typed = parse_action(action)
        entity = game.entity(typed)
    except GameError:
        return False
    steps = game.round.active_steps(game)
    if not any(typed.type in step.actions(game, game.round, entity) for step in steps):
        return False
    game.importing = False
    try:
        return not any(typed.type in step.actions(game, game.round, entity) for step in steps)
    finally:
        game.importing = True

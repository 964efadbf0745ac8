"""A step: one part of a round that owns a few action types — its legal moves, its matching of
an offered move, and its processing, one handler per action type.

Steps hold no state of their own: a round's state lives in the round's dataclass fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engine.core.actions import Action
from engine.core.commands import RAW_WORD, either, words_for
from engine.core.entities import Company, Corporation, Holder, Player

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.core.round import Round

Move = dict[str, Any]
# A handler takes the game, the round, the acting entity and the typed action.
Handler = Callable[[Any, Any, Holder, Any], None]

# Choice fields that describe a move but are not part of the action a player sends.
INFORMATIONAL = frozenset({"price", "cost", "hex", "from", "min_price", "max_price", "min", "max",
                           "step", "corporation", "percent", "rotations", "tiles", "variant",
                           "attachment", "attaches_to", "label", "owner"})


def controller(entity: Holder | None) -> Player | None:
    """The player who decides for an entity: the player, a company's president, a private's owner."""
    if isinstance(entity, Player):
        return entity
    if isinstance(entity, Corporation):
        return entity.president()
    if isinstance(entity, Company):
        return entity.owner if isinstance(entity.owner, Player) else None
    return None


def decider(game: BaseGame, entity: Holder | None) -> Player | None:
    """The player who decides for an entity now, in every situation a front end meets: the
    player; a company's president, or, while a company is being started and has none yet, the
    player whose turn it is in the round (the first player acting, if the round lists another);
    a private's owner, or the president of the company that owns it."""
    if isinstance(entity, Company) and isinstance(entity.owner, Corporation):
        return entity.owner.president()
    player = controller(entity)
    if player is None and isinstance(entity, Corporation):
        acting = game.acting_players()
        current = game.round.current_entity(game)
        if isinstance(current, Player) and current in acting:
            return current
        return acting[0] if acting else None
    return player


class Step:
    """One step of a round. A blocking step that is active holds the round until it is done;
    active steps before it (non-blocking ones) may act too."""

    key: ClassVar[str] = "step"
    label: ClassVar[str] = "step"
    blocking: ClassVar[bool] = True

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def handlers(self) -> Mapping[str, Handler]:
        """The action types this step processes, each with its handler."""
        return {}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        """Whether the step is in play now (an inactive step is passed over)."""
        return True

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        """The action types `entity` may take at this step now."""
        return []

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        """Who the step waits for."""
        return rnd.current_entity(game)

    def waiting(self, game: BaseGame, rnd: Round) -> bool:
        """Whether the step waits for a decision; if not, the round skips it (`skip`)."""
        entity = self.acting_entity(game, rnd)
        return entity is not None and bool(self.actions(game, rnd, entity))

    def skip(self, game: BaseGame, rnd: Round) -> None:
        """What passing over the step without a decision does."""

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        entity = self.acting_entity(game, rnd)
        if entity is None:
            return []
        return [{"type": kind, "entity": entity_id(entity)} for kind in self.actions(game, rnd, entity)]

    def offers(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> bool:
        """Whether `action`, of a type `actions` allows `entity` now, is one of the legal moves
        (a step may answer without listing every move, when it knows a cheaper way)."""
        wanted = str(entity_id(entity))
        for move in self.legal_moves(game, rnd):
            if move["type"] != action.type or str(move["entity"]) != wanted:
                continue
            choices = move.get("choices")
            if choices is None or any(self.matches(game, choice, action) for choice in choices):
                return True
        return False

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        """Whether `action` is the offered `choice` (fields not sent by players are ignored)."""
        sent = action.to_dict()
        return all(sent.get(key) == value for key, value in choice.items() if key not in INFORMATIONAL)

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        """Why `action` is not allowed here, when more can be said than which actions are."""
        return None


def entity_type(entity: Holder) -> str:
    """The `entity_type` an action names an entity with: player, corporation or company."""
    if isinstance(entity, Corporation):
        return "corporation"
    return "company" if isinstance(entity, Company) else "player"


def command_word(game: BaseGame, kind: str, entity: Holder, fields: Mapping[str, Any] | None = None) -> str:
    """The command word players of the game's title type for an action type of `entity`: "/lay";
    "/contribute or /offer" where `fields` (the action's) do not pick one; "/action" if none."""
    return either(words_for(type(game).COMMANDS, kind, entity_type(entity), fields))


def words_listed(game: BaseGame, kinds: list[str], entity: Holder) -> str:
    """"/convert, /merge or /pass": the title's words for action types of `entity`, for a
    message that tells players what to type."""
    words = list(dict.fromkeys(command_word(game, kind, entity) for kind in kinds))
    return " or ".join(words) if len(words) < 3 else f"{', '.join(words[:-1])} or {words[-1]}"


def how_to_start(game: BaseGame, player: Holder, lead: str = "; start it") -> str:
    """"; start it with /par", in the word of the title's action that starts a company and with
    what that does where the title says ("; start it with /bid (...)"); nothing where no word
    makes it."""
    kind, how = game.company_start()
    word = command_word(game, kind, player, {"corporation": ""})
    if word == RAW_WORD:
        return ""
    return f"{lead} with {word}" + (f" ({how})" if how else "")


def entity_id(entity: Holder) -> str | int:
    """The id an action names an entity by."""
    if isinstance(entity, Player):
        return entity.id
    return entity.key

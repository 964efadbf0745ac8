"""18USA's P13 Pennsy Boneyard: when a first 4, 6 or 8 (bought or exported) would rust trains
that P13's company holds, that company may keep one of them as an obsolete train (it runs once
more, is then removed, cannot be sold and is outside the train limit); using it closes P13.

As on the site, the whole rusting waits until the company has chosen: an interrupting step holds
whatever round is on (the operating round whose end exported the train, too) until then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, Pass
from engine.core.entities import Corporation, Holder
from engine.core.phases import rust_trains
from engine.core.round import Round
from engine.core.step import Handler, Move, Step
from engine.errors import GameError
from engine.titles.g18usa.actions import Choose
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA

BONEYARD = "P13"
CHOICE_SUFFIX = " Train"


def boneyard_holder(game: G18USA, rusts: tuple[str, ...]) -> Corporation | None:
    """The company that may save a train from this rusting: it holds an open P13 and a train
    of a rusting kind."""
    company = game.companies.get(BONEYARD)
    if company is None or company.closed or not isinstance(company.owner, Corporation):
        return None
    holder = company.owner
    return holder if any(train.name in rusts for train in holder.trains) else None


def defer_rusting(game: G18USA, rusts: tuple[str, ...]) -> bool:
    holder = boneyard_holder(game, rusts)
    if holder is None:
        return False
    game.boneyard_rusts = rusts
    game.log.append(f"{holder.id} may keep one of its {'/'.join(rusts)}-trains with {BONEYARD}")
    return True


def choices(game: G18USA) -> list[str]:
    """The choices as the site names them: one per rusting kind the company holds ('2 Train')."""
    holder = boneyard_holder(game, game.boneyard_rusts)
    if holder is None:
        return []
    kinds = dict.fromkeys(train.name for train in holder.trains if train.name in game.boneyard_rusts)
    return [name + CHOICE_SUFFIX for name in kinds]


def finish_rusting(game: G18USA, spared: frozenset[str]) -> None:
    rusts = game.boneyard_rusts
    game.boneyard_rusts = ()
    rust_trains(game, rusts, spared)


class BoneyardStep(Step):
    key = "boneyard"
    label = "keep a rusting train with the Pennsy Boneyard"

    def handlers(self) -> Mapping[str, Handler]:
        return {"choose": self.process_choose, "pass": self.process_pass}

    def active(self, game: BaseGame, rnd: Round) -> bool:
        return bool(_usa(game).boneyard_rusts)

    def acting_entity(self, game: BaseGame, rnd: Round) -> Holder | None:
        usa = _usa(game)
        return boneyard_holder(usa, usa.boneyard_rusts)

    def actions(self, game: BaseGame, rnd: Round, entity: Holder) -> list[str]:
        return ["choose", "pass"] if entity is self.acting_entity(game, rnd) else []

    def refusal(self, game: BaseGame, rnd: Round, entity: Holder, action: Action) -> str | None:
        holder = self.acting_entity(game, rnd)
        if holder is None:
            return None
        return f"{game.describe(holder)} must first choose whether to keep a rusting train with {BONEYARD} (Pennsy Boneyard)"

    def process_choose(self, game: BaseGame, rnd: Round, entity: Holder, action: Choose) -> None:
        usa = _usa(game)
        offered = choices(usa)
        if str(action.choice) not in offered:
            raise GameError(f"{game.describe(entity)} may keep one of: {', '.join(offered)} "
                            f"(or pass), not {action.choice!r}")
        assert isinstance(entity, Corporation)
        name = str(action.choice).removesuffix(CHOICE_SUFFIX)
        kept = next(train for train in entity.trains if train.name == name)
        usa.obsolete_trains.add(kept.id)
        usa.companies[BONEYARD].closed = True
        game.log.append(f"{entity.id} keeps a {name}-train as obsolete; {BONEYARD} closes")
        finish_rusting(usa, frozenset({kept.id}))

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        game.log.append(f"{game.describe(entity)} keeps no train with {BONEYARD}")
        finish_rusting(_usa(game), frozenset())

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        holder = self.acting_entity(game, rnd)
        if holder is None:
            return []
        assert isinstance(holder, Corporation)
        return [{"type": "choose", "entity": holder.id,
                 "choices": [{"choice": choice} for choice in choices(_usa(game))]},
                {"type": "pass", "entity": holder.id}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Choose):
            return str(choice["choice"]) == str(action.choice)
        return super().matches(game, choice, action)


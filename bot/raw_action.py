"""`/action json:...`: one raw 18xx.games action typed by a player, checked before the engine.

The JSON is parsed as hostile input (``untrusted.json_text``); fields the engine does not read
are refused rather than stored; a run's ``extra_revenue`` and 18USA's ``subsidy`` (figures
18xx.games computes itself, which our engine would take on trust) are taken only when they equal
what the engine works out. The acting entity may be named as hotseat logs
name it (``"entity": "Player 1"``, a seat's name), or left out for one's own seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from bot.errors import CommandError
from bot.vocabulary import COMMANDS
from engine.catalog import action_fields as engine_action_fields
from engine.core.commands import RAW_WORD, CommandSpec, either, words_for
from engine.core.game import BaseGame
from engine.errors import GameError, NotNow
from storage import SeatRecord
from untrusted.json_text import UnsafeJSON, loads
from untrusted.quote import cut

MAX_RAW_CHARS = 2_000
MAX_MESSAGE_CHARS = 500
# The moderator numbers and times actions itself.
MODERATOR_FIELDS = ("id", "created_at", "user", "original_id")
# What 18xx.games writes beside a run's routes; taken when it is what the engine works out.
RUN_FIGURES = frozenset({"extra_revenue", "subsidy"})


def action_fields() -> frozenset[str]:
    """The fields a raw action may carry besides a run's figures: those the engine reads."""
    return engine_action_fields() - RUN_FIGURES


# The fields each kind of 18xx.games action must carry (the action format, not a rule); "a|b"
# is either of two.
NEEDED_FIELDS = {
    "bid": ("company|corporation", "price"), "par": ("corporation", "share_price"), "buy_shares": ("shares",),
    "sell_shares": ("shares",), "lay_tile": ("hex", "tile", "rotation"), "place_token": ("city",),
    "run_routes": ("routes",), "dividend": ("kind",), "buy_train": ("train", "price"),
    "discard_train": ("train",),
}
REFUSED_TYPES = {"undo": "use /game undo", "redo": "use /game undo to take moves back"}


def parse_raw(text: str) -> dict[str, Any]:
    """The action object, or CommandError saying what is wrong with the text."""
    if len(text) > MAX_RAW_CHARS:
        raise CommandError(f"That action is {len(text)} characters long; a raw action has at most {MAX_RAW_CHARS}.")
    try:
        action = loads(text)
    except UnsafeJSON as error:
        raise CommandError(f"That action cannot be taken: {error}.") from None
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise CommandError("An action is a JSON object with a \"type\", e.g. {\"type\": \"pass\"}.")
    kind = action["type"]
    if kind in REFUSED_TYPES:
        raise CommandError(f"{kind} is not taken as a raw action; {REFUSED_TYPES[kind]}.")
    if kind.startswith("program_"):
        raise CommandError("Standing orders are set with /auto (/auto pass, /auto buy, /auto mergers, /auto off), "
                           "not as raw actions.")
    if action.get("auto_actions"):
        raise CommandError("auto_actions are not taken: the moves that follow a move are the game's to make "
                           "(standing orders); send the move alone.")
    for figure in RUN_FIGURES:
        if figure in action and kind != "run_routes":
            raise CommandError(f"{figure} is not taken: it belongs to a run_routes action (what a company earns "
                               "besides its runs); send the action without it.")
    known = action_fields() | RUN_FIGURES
    unknown = sorted(k for k in action if k not in known and k not in MODERATOR_FIELDS)
    if unknown:
        raise CommandError(f"Unknown field(s) {', '.join(repr(k[:40]) for k in unknown[:5])}; an action may have "
                           f"{', '.join(sorted(known))}.")
    missing = [" or ".join(f'"{one}"' for one in name.split("|")) for name in NEEDED_FIELDS.get(kind, ())
               if all(action.get(one) is None for one in name.split("|"))]
    if missing:
        raise CommandError(f"A {kind} action{_word(COMMANDS.values(), action)} needs {' and '.join(missing)}.")
    if kind == "message":
        message = action.get("message")
        if not isinstance(message, str) or not message.strip():
            raise CommandError("A message action needs \"message\": the text to say.")
        if len(message) > MAX_MESSAGE_CHARS:
            raise CommandError(f"A message has at most {MAX_MESSAGE_CHARS} characters.")
    return {k: v for k, v in action.items() if k not in MODERATOR_FIELDS}


def checked_figures(state: BaseGame, action: dict[str, Any]) -> None:
    """A pasted run_routes may carry the figures 18xx.games writes beside its routes
    (``extra_revenue``, and 18USA's ``subsidy``): each is taken when it equals what the engine
    works out for the company's run (``run_site_figures``), else refused with the engine's figure."""
    given = [name for name in RUN_FIGURES if name in action]
    corporation = state.corporations.get(str(action.get("entity")))
    if action["type"] != "run_routes" or not given or corporation is None:
        return
    figures = state.run_site_figures(corporation)
    for name in given:
        if name not in figures:
            raise CommandError(f"{name} is not part of a run in {state.TITLE}; send the run without it.")
        value = action[name]
        if isinstance(value, bool) or value != figures[name]:
            shown = cut(value if isinstance(value, str) else json.dumps(value), 20)
            raise CommandError(f"{name} is {shown}, but the engine works out {figures[name]} for {corporation.id}'s "
                               f"run now; send {figures[name]}, or leave it out.")


def acting_entity(action: dict[str, Any], seat: SeatRecord, seats: list[SeatRecord],
                  state: BaseGame) -> dict[str, Any]:
    """``entity`` and ``entity_type`` for the raw action: a seat named by player id or name
    (as hotseat logs do), a company or private by id, or the sender's own seat if none is
    named. A message always speaks for the sender's own seat."""
    entity, kind = action.get("entity"), action.get("entity_type")
    if action["type"] == "message" or (entity is None and kind in (None, "player")):
        return {"entity": seat.player_id, "entity_type": "player"}
    if entity is None:
        raise CommandError(f"Name the {kind} that acts in \"entity\".")
    if not isinstance(entity, str | int) or isinstance(entity, bool):
        raise CommandError("\"entity\" is a player, company or private company id.")
    if kind not in (None, "player", "corporation", "company"):
        raise CommandError("\"entity_type\" is player, corporation or company.")
    by_name = {s.display_name.casefold(): s for s in seats}
    by_id = {str(s.player_id): s for s in seats}
    if kind in (None, "player"):
        named = by_id.get(str(entity)) or by_name.get(str(entity).casefold())
        if named is not None:
            return {"entity": named.player_id, "entity_type": "player"}
        if kind == "player":
            raise CommandError(f"There is no player {str(entity)[:40]!r} in this game.")
    key = str(entity).upper()
    if kind in (None, "corporation") and key in state.corporations:
        return {"entity": key, "entity_type": "corporation"}
    if kind in (None, "company") and key in state.companies:
        return {"entity": key, "entity_type": "company"}
    raise CommandError(f"There is no {kind or 'player, company or private'} {str(entity)[:40]!r} in this game.")


def _word(table: Iterable[CommandSpec], action: dict[str, Any]) -> str:
    """" (/train)": the command word that makes a raw action, or nothing where no word does."""
    words = words_for(table, str(action.get("type")), str(action.get("entity_type") or "player"), action)
    return "" if words == [RAW_WORD] else f" ({either(words)})"


def raw_refusal(state: BaseGame, action: dict[str, Any], error: GameError) -> str:
    """The engine's refusal of a raw action, for the player who typed its 18xx.games type: the
    type they typed and the command word of the game's title that makes it."""
    if isinstance(error, NotNow):
        return error.naming_the_type()
    word = _word(type(state).COMMANDS, action)
    return f"{error} ({action.get('type')} is {word.strip(' ()')})" if word else str(error)

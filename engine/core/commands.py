"""The front ends' table: for each action a title uses, the command word players type, its
options, and the phrase that says what the move does.

The bot builds its Discord and terminal commands, their autocomplete and its reply texts from
these tables (`bot/vocabulary.py`), so a new action is added in the title and its step, with
its entry here or in the title's own table.

An option's `choice_field` names the field of the legal move's choices it picks (what
autocomplete offers and what the value is matched against); an option without one is free
(a price within limits, runs as text). The pseudo-field `entity` picks the move's acting entity
(which of the caller's companies acts, when several could).

Where one action type means different things a title gives each its own word, and `selects`
says which choices belong to which word (18USA's `assign` gives a private to a new company or
offers a company for sale).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class CommandOption:
    """One option of a command: its name, type and help, and the action field it fills."""

    name: str
    kind: type  # str, int, float or bool
    description: str
    required: bool = False
    choice_field: str | None = None


@dataclass(frozen=True)
class CommandSpec:
    """One command word: the action type it makes, for which kinds of entity, and its options."""

    word: str
    action: str  # the 18xx.games action type
    description: str
    phrase: str  # what the move does, as in "Alice — lay track (/lay)"
    entities: tuple[str, ...] = ("player", "corporation", "company")
    options: tuple[CommandOption, ...] = ()
    # Field values a move's choice must have to be this word's (empty: every choice is).
    selects: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> CommandOption | None:
        return next((o for o in self.options if o.name == name), None)

    def takes(self, choice: Mapping[str, object]) -> bool:
        """Whether a legal move's choice belongs to this word."""
        return all(choice.get(field) == value for field, value in self.selects)

    def covers(self, move: dict[str, object]) -> bool:
        """Whether this word makes (some choice of) a legal move."""
        if move.get("type") != self.action or move.get("entity_type", "player") not in self.entities:
            return False
        choices = move.get("choices")
        if not self.selects:
            return True
        return isinstance(choices, list) and any(self.takes(choice) for choice in choices)


def _o(name: str, kind: type, description: str, required: bool = False,
       field: str | None = None) -> CommandOption:
    return CommandOption(name, kind, description, required, field)


ENTITY_FIELD = "entity"  # the choice_field that picks the acting entity of a move
PRIVATE = _o("private", str, "Use this private company's power")
WHICH_COMPANY = _o("corporation", str, "Which of your companies (when you preside more than one that can)",
                   field=ENTITY_FIELD)

# The shared actions of the 1829 family, by command word; a title lists the ones it uses.
STANDARD: dict[str, CommandSpec] = {spec.word: spec for spec in (
    CommandSpec("bid", "bid", "Bid in an auction", "bid", ("player",),
                (_o("company", str, "What to bid on: a private company, or a company where auctioned", True,
                    "company"),
                              _o("price", int, "Your bid in dollars", True))),
    CommandSpec("par", "par", "Start a company: choose its par price", "start a company", ("player",),
                (_o("corporation", str, "The company to start", True, "corporation"),
                 _o("price", int, "Par price in dollars", True, "price"))),
    CommandSpec("buy", "buy_shares", "Buy one share", "buy a share", ("player",),
                (_o("corporation", str, "The company", True, "corporation"),
                 _o("from", str, "treasury or pool (default: treasury when both sell)", field="from"))),
    CommandSpec("sell", "sell_shares", "Sell shares to the pool", "sell shares", ("player",),
                (_o("corporation", str, "The company", True, "corporation"),
                 _o("percent", int, "How much to sell, e.g. 20", field="percent"))),
    CommandSpec("pass", "pass", "Pass (end your turn, or skip this step)", "pass"),
    CommandSpec("lay", "lay_tile", "Lay or upgrade a tile", "lay track", ("corporation", "company"),
                (_o("hex", str, "Where, e.g. E11", True, "hex"),
                 _o("tile", str, "Which tile, e.g. 57", True, "tiles"),
                 _o("rotation", int, "Rotation 0-5 (60° steps); the choices say which hexes its track leads to",
                    True, "rotations"), PRIVATE)),
    CommandSpec("token", "place_token", "Place a station token", "place a station",
                ("player", "corporation", "company"),
                (_o("city", str, "The city: a hex such as D9, or a city id", True, "city"), PRIVATE)),
    CommandSpec("run", "run_routes", "Run trains: confirm the proposed runs, or give your own", "run trains",
                ("corporation",),
                (_o("routes", str, "e.g. 2-0: I14-I12-I10-I8-J7-J5; 3-0: ... (empty: the proposal)"),)),
    CommandSpec("dividend", "dividend", "Pay out, pay half, or withhold the revenue",
                "pay out or withhold the revenue", ("corporation",),
                (_o("kind", str, "payout, half or withhold", True, "kind"),)),
    CommandSpec("train", "buy_train", "Buy a train", "buy a train", ("corporation",),
                (_o("train", str, "A train name (3) or id (3-1)", True, "train"),
                 _o("price", int, "Price, for a train bought from another company"))),
    CommandSpec("issue", "sell_shares", "Issue treasury shares to the pool", "issue shares", ("corporation",),
                (_o("count", int, "How many shares", True, "shares"),)),
    # 18USA's presidents redeem in the stock round, so one of several companies may be meant.
    CommandSpec("redeem", "buy_shares", "Redeem shares from the pool", "redeem shares", ("corporation",),
                (_o("count", int, "How many shares", True, "shares"), WHICH_COMPANY)),
    CommandSpec("discard", "discard_train", "Discard a train over the train limit",
                "discard a train over the limit", ("corporation",),
                (_o("train", str, "Which train", True, "train"),)),
    CommandSpec("bankrupt", "bankrupt", "Declare bankruptcy (when the train cannot be paid for)",
                "declare bankruptcy"),
)}


def standard(*words: str) -> tuple[CommandSpec, ...]:
    """The shared commands a title uses, by word."""
    return tuple(STANDARD[word] for word in words)


def merge_tables(tables: list[tuple[CommandSpec, ...]]) -> dict[str, CommandSpec]:
    """One table for front ends serving several titles. A word makes the same action with the
    same options in each (its phrase and description may be a title's own)."""
    merged: dict[str, CommandSpec] = {}
    for table in tables:
        for spec in table:
            known = merged.get(spec.word)
            if known is not None and (known.action, known.entities, known.options, known.selects) != (
                    spec.action, spec.entities, spec.options, spec.selects):
                raise ValueError(f"command /{spec.word} is declared differently by two titles")
            merged.setdefault(spec.word, spec)
    return merged


RAW_WORD = "/action"  # the front ends' raw 18xx.games action: what makes an action no word makes


def words_for(table: Iterable[CommandSpec], action: str, entity_type: str,
              fields: Mapping[str, object] | None = None) -> list[str]:
    """The command words ("/train") that make `action` for an entity of `entity_type`, as players
    type them (for another kind of entity, the action's words for any): where several words
    share the action type, `fields` (an action's, or a legal choice's) keeps the ones whose
    `selects` it matches. An action no word makes: `/action`."""
    table = tuple(table)
    # An entity the word is not for (a raw action of a player laying track) still has the word.
    made = ([spec for spec in table if spec.action == action and entity_type in spec.entities]
            or [spec for spec in table if spec.action == action])
    chosen = [spec for spec in made if fields is None or spec.takes(fields)] or made
    return [f"/{spec.word}" for spec in chosen] or [RAW_WORD]


def words_for_move(table: Iterable[CommandSpec], move: Mapping[str, object]) -> list[str]:
    """The command words that make (some choice of) a legal move; `/action` if none does."""
    return [f"/{spec.word}" for spec in table if spec.covers(dict(move))] or [RAW_WORD]


def either(words: list[str]) -> str:
    """"/contribute or /offer"."""
    return " or ".join(dict.fromkeys(words))

"""The command words both front doors share: names, options and their help texts.

Discord's slash commands and the terminal's ``@Alice /lay hex:E11 tile:57 rotation:2`` are
the same words with the same options; this table is the one place they are written down
(the Discord cogs are checked against it by a test).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    name: str
    kind: type  # str, int, float or bool
    description: str
    required: bool = False
    autocomplete: bool = False


@dataclass(frozen=True)
class Spec:
    name: str  # "lay" or "game undo"
    description: str
    options: tuple[Option, ...] = ()

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


def _o(name: str, kind: type, description: str, required: bool = False, auto: bool = False) -> Option:
    return Option(name, kind, description, required, auto)


_PRIVATE = _o("private", str, "Use this private company's power", auto=True)

# Moves: each makes one engine action for the caller's seat or a company they preside.
MOVES: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("bid", "Bid on a private company in the auction", (
        _o("company", str, "The private company", True, True),
        _o("price", int, "Your bid in dollars", True, True))),
    Spec("par", "Start a company: choose its par price", (
        _o("corporation", str, "The company to start", True, True),
        _o("price", int, "Par price in dollars", True, True))),
    Spec("buy", "Buy one share", (
        _o("corporation", str, "The company", True, True),
        _o("from", str, "treasury or pool (default: treasury when both sell)", auto=True))),
    Spec("sell", "Sell shares to the pool", (
        _o("corporation", str, "The company", True, True),
        _o("percent", int, "How much to sell, e.g. 20", auto=True))),
    Spec("pass", "Pass (end your turn, or skip this step)"),
    Spec("lay", "Lay or upgrade a tile", (
        _o("hex", str, "Where, e.g. E11", True, True),
        _o("tile", str, "Which tile, e.g. 57", True, True),
        _o("rotation", int, "Rotation 0-5 (60° steps); the choices say which hexes its track leads to",
           True, True),
        _PRIVATE)),
    Spec("token", "Place a station token", (
        _o("city", str, "The city: a hex such as D9, or a city id", True, True),
        _PRIVATE)),
    Spec("run", "Run trains: confirm the proposed runs, or give your own", (
        _o("routes", str, "e.g. 2-0: I14-I12-I10-I8-J7-J5; 3-0: ... (empty: the proposal)", auto=True),)),
    Spec("dividend", "Pay out, pay half, or withhold the revenue", (
        _o("kind", str, "payout, half or withhold", True, True),)),
    Spec("train", "Buy a train", (
        _o("train", str, "A train name (3) or id (3-1)", True, True),
        _o("price", int, "Price, for a train bought from another company"),)),
    Spec("issue", "Issue treasury shares to the pool", (
        _o("count", int, "How many shares", True, True),)),
    Spec("redeem", "Redeem shares from the pool", (
        _o("count", int, "How many shares", True, True),)),
    Spec("discard", "Discard a train over the train limit", (
        _o("train", str, "Which train", True, True),)),
    Spec("bankrupt", "Declare bankruptcy (when the train cannot be paid for)"),
    Spec("action", "Apply one raw 18xx.games action (power users and tools)", (
        _o("json", str, "One action as JSON", True),)),
)}

# Game lifecycle, information and administration: `/game <word>`.
GAME: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("game new", "Create a game here", (
        _o("title", str, "The game (18Texas)", True, True),
        _o("name", str, "A name for the game's thread"),
        _o("seed", int, "Random seed (default: random)"),
        _o("site_rules", bool, "Follow 18xx.games' reading of the rules"),
        _o("join", bool, "Take a seat yourself (default: yes)"))),
    Spec("game join", "Take a seat in this game"),
    Spec("game start", "Start the game (random seat order)"),
    Spec("game status", "Whose turn it is and what they are to do"),
    Spec("game map", "Show the map"),
    Spec("game market", "Show the stock market"),
    Spec("game table", "Show players, companies, bank and trains"),
    Spec("game log", "The latest lines of the game log", (
        _o("lines", int, "How many lines (default 15)"),)),
    Spec("game undo", "Take back the last move", (
        _o("steps", int, "How many moves (more than one needs the game's creator)"),)),
    Spec("game accept", "Agree to sell your company's train to the company asking for it"),
    Spec("game decline", "Refuse to sell your company's train to the company asking for it"),
    Spec("game export", "The game as an 18xx.games JSON file"),
    Spec("game import", "Import an 18xx.games JSON file as a new game", (
        _o("file", str, "The JSON file (a path in the terminal)", True),)),
    Spec("game settings", "Show or change reminders", (
        _o("first_after_hours", float, "First reminder after this many hours"),
        _o("repeat_hours", float, "Then repeat every this many hours"),
        _o("quiet_start", int, "Quiet hours start (0-23, -1 for none)"),
        _o("quiet_end", int, "Quiet hours end (0-23)"),
        _o("time_zone", str, "Time zone of the quiet hours, e.g. Europe/Berlin"))),
    Spec("game replace", "Give a seat to someone else (creator or manager)", (
        _o("seat", str, "The seat: number or player name", True, True),
        _o("user", str, "Who takes it over", True))),
    Spec("game pause", "Pause the game: no moves, no reminders"),
    Spec("game resume", "Resume a paused game"),
    Spec("game end", "End the game now and score it (creator or manager, or every player agreeing)"),
    Spec("game abandon", "End the game without a result (creator or manager)"),
)}

ALL: dict[str, Spec] = {**MOVES, **GAME}

DIVIDEND_WORDS = {"payout": "payout", "pay": "payout", "full": "payout", "half": "half",
                  "withhold": "withhold", "keep": "withhold"}
SOURCE_WORDS = {"treasury": "treasury", "ipo": "treasury", "company": "treasury",
                "pool": "pool", "market": "pool", "bank": "pool"}

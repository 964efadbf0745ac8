"""The command words both front doors share: names, options and their help texts.

Discord's slash commands and the terminal's ``@Alice /lay hex:E11 tile:57 rotation:2`` are
the same words with the same options. The moves come from the engine's titles (each title lists
the actions it uses with their words, options and phrases); the game commands are the bot's own.
Both front doors are generated from this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import command_table
from engine.catalog import title_infos
from engine.core.commands import CommandSpec

# The longest text an option takes: ids, hexes, names and time zones are short; a list of runs,
# a raw action and a file path are the long ones. A longer value is refused unread (and never
# quoted back whole).
SHORT_TEXT = 100
LONG_TEXT = {"routes": 2_000, "json": 2_000, "file": 4_096}


@dataclass(frozen=True)
class Option:
    name: str
    kind: type  # str, int, float or bool
    description: str
    required: bool = False
    autocomplete: bool = False

    @property
    def max_length(self) -> int:
        return LONG_TEXT.get(self.name, SHORT_TEXT)


@dataclass(frozen=True)
class Spec:
    name: str  # "lay" or "game undo"
    description: str
    options: tuple[Option, ...] = ()

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)


def _o(name: str, kind: type, description: str, required: bool = False, auto: bool = False) -> Option:
    return Option(name, kind, description, required, auto)


# Options whose suggestions do not come from one field of the legal moves' choices: a private
# company's power, the optimizer's proposed runs, a bid within its range (see bot/suggest.py).
SUGGESTED = frozenset({("lay", "private"), ("token", "private"), ("run", "routes"), ("bid", "price")})


def move_spec(command: CommandSpec) -> Spec:
    return Spec(command.word, command.description, tuple(
        Option(o.name, o.kind, o.description, o.required,
               o.choice_field is not None or (command.word, o.name) in SUGGESTED)
        for o in command.options))


# Moves: each makes one engine action for the caller's seat or a company they preside. The
# engine's titles declare them (engine.command_table); /action is the bot's own.
COMMANDS: dict[str, CommandSpec] = command_table()
MOVES: dict[str, Spec] = {word: move_spec(command) for word, command in COMMANDS.items()}
MOVES["action"] = Spec("action", "Apply one raw 18xx.games action (power users and tools)", (
    _o("json", str, "One action as JSON", True),))

# The `at:` of the pictures: a moment of the game's past (engine.moments reads it).
AT = "An earlier moment: an action number (57), a round (SR 4, OR 3.2 as it begins, end of OR 3.2) or my last move"
# The kinds of /game chart (engine.story.KINDS), in the words the option offers.
CHART_KINDS = {"values": "players' value after each round", "prices": "share prices through the game",
               "revenue": "each company's revenue per operating round"}

# Game lifecycle, information and administration: `/game <word>`.
GAME: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("game new", "Create a game here", (
        _o("title", str, "The game: " + ", ".join(info.label for info in title_infos()), True, True),
        _o("name", str, "A name for the game's thread"),
        _o("seed", int, "Random seed (default: random)"),
        _o("site_rules", bool, "Follow 18xx.games' reading of the rules"),
        _o("join", bool, "Take a seat yourself (default: yes)"))),
    Spec("game join", "Take a seat in this game"),
    Spec("game start", "Start the game (random seat order)"),
    Spec("game status", "Whose turn it is and what they are to do"),
    Spec("game map", "Show the map, or a close-up of part of it, now or at an earlier moment", (
        _o("around", str, "A close-up around this hex (e.g. D14) or company's stations", False, True),
        _o("radius", int, "How many hexes around it the close-up shows (1-8, default 2)"),
        _o("at", str, AT, False, True))),
    Spec("game market", "Show the stock market, now or at an earlier moment", (_o("at", str, AT, False, True),)),
    Spec("game table", "Show players, companies, bank and trains, now or at an earlier moment", (
        _o("at", str, AT, False, True),)),
    Spec("game since", "What happened since your last move, and what it did to your cash and shares (for you alone)"),
    Spec("game mine", "Your games here: where it is your turn and what to do there, the longest waiting first"),
    Spec("game chart", "A chart of the game so far", (
        _o("kind", str, "values (players' value after each round), prices (share prices) or revenue "
                        "(each company's revenue per operating round)", True, True),)),
    Spec("game privates", "The private companies in play, or what one of them does", (
        _o("company", str, "A private company (e.g. P17): what it does and who holds it", False, True),)),
    Spec("game log", "The latest lines of the game log", (
        _o("lines", int, "How many lines (default 15)"),)),
    Spec("game routes", "Search the running company's best runs longer than the proposal did", (
        _o("seconds", float, "How long to search (1-60, default 20)"),)),
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
    Spec("game abandon", "End the game without a result (creator or manager); asks again first", (
        _o("confirm", str, "yes: abandon it now, without asking again"),)),
)}

# Standing orders: `/auto` alone shows yours (on Discord `/auto show`), the others set or end one.
AUTO: dict[str, Spec] = {spec.name: spec for spec in (
    Spec("auto show", "Show your standing order"),
    Spec("auto pass", "Pass for you in the stock round (until others deal in a way that may concern you)", (
        _o("unconditional", bool, "Pass whatever the others do"),
        _o("indefinite", bool, "Also in every later stock round"))),
    Spec("auto buy", "Buy a share of a company for you each stock-round turn until a goal", (
        _o("corporation", str, "The company", True, True),
        _o("until", str, "float (until it floats) or the number of shares to hold, e.g. 3", True),
        _o("from", str, "treasury (default) or pool (the market)"),
        _o("then_pass", bool, "Once done, pass for you for the rest of the stock round"))),
    Spec("auto mergers", "18USA: pass for your companies in the merger and acquisition rounds", (
        _o("rounds", str, "MR, AR or MR,AR (default)"),
        _o("companies", str, "Your companies to pass for, e.g. B&O,MKT (default: all that can take part)"),
        _o("unless_others_act", bool, "Stop once another company converts, merges or is bought (default: yes)"))),
    Spec("auto off", "Switch off your standing order"),
    Spec("auto away", "Away: the bot passes for you where passing is the only sensible choice, until a date", (
        _o("until", str, "A date (2026-12-24), a date and time (2026-12-24 18:00) or 3d, 36h", True),)),
    Spec("auto back", "Back: the bot stops passing for you"),
)}

ALL: dict[str, Spec] = {**MOVES, **GAME, **AUTO}

DIVIDEND_WORDS = {"payout": "payout", "pay": "payout", "full": "payout", "half": "half",
                  "withhold": "withhold", "keep": "withhold"}
SOURCE_WORDS = {"treasury": "treasury", "ipo": "treasury", "company": "treasury",
                "pool": "pool", "market": "pool", "bank": "pool"}


def described(name: str) -> str:
    """A command's help text (`"game undo"`, `"auto pass"`), for the Discord command built for it."""
    return ALL[name].description


def option_described(name: str, option: str) -> str:
    spec = ALL[name].option(option)
    assert spec is not None, (name, option)
    return spec.description

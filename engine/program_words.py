"""Standing orders in players' words: what an order does, why one ended (the site's reason
texts, which the log must keep word for word, told as players say it), and the moves the game
made by itself, for the replies after a move."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from engine.automatic import RULE, STANDING_ORDER, UNATTENDED, AutomaticMove
from engine.core.game import BaseGame
from engine.core.programs import (
    FLOAT,
    USER,
    BuyShares,
    MergerPass,
    Notice,
    OtherTitleProgram,
    Program,
    SharePass,
)
from engine.describe import action_words, unattended_words

ROUND_NAMES = {"MR": "merger round", "AR": "acquisition round"}


def order_words(program: Program) -> str:
    """"pass in this stock round, whatever the others do" — what the order does."""
    if isinstance(program, SharePass):
        when = "in every stock round" if program.indefinite else "in this stock round"
        return f"pass {when}" + (", whatever the others do" if program.unconditional
                                 else ", until another player deals in a way that may concern you")
    if isinstance(program, BuyShares):
        source = "the market" if program.from_market else "its treasury"
        goal = "it floats" if program.until == FLOAT else f"you hold {program.until} shares of it"
        return (f"buy a share of {program.corporation} from {source} each turn until {goal}"
                + (", then pass" if program.auto_pass_after else ""))
    if isinstance(program, MergerPass):
        parts = [f"{ROUND_NAMES.get(key, key)}: {', '.join(names) or 'none'}" for key, names in program.by_round or ()]
        return ("pass for your companies when they are asked (" + "; ".join(parts or ["none"]) + ")"
                + (", until another company converts, merges or is bought this round" if program.disable_others
                   else ""))
    if isinstance(program, OtherTitleProgram):
        return f"{program.type_name} (another game's order: it does nothing here)"
    return program.kind


def order_label(program: Program | None) -> str | None:
    """A few words naming an order, for tables: "pass", "buy SAA", "mergers"."""
    if program is None:
        return None
    if isinstance(program, SharePass):
        return "pass" + (", always" if program.indefinite else "")
    if isinstance(program, BuyShares):
        return f"buy {program.corporation}"
    if isinstance(program, MergerPass):
        return "mergers"
    return "other"


def orders_line(state: BaseGame, names: Mapping[str, str] | None = None) -> str | None:
    """"Standing orders: Bob (pass), Carol (buy SAA)", or None when nobody has one."""
    names = names or {}
    held = [(player, order_label(state.programs.of(player.key))) for player in state.players]
    listed = [f"{names.get(player.key, player.name)} ({label})" for player, label in held if label]
    return f"Standing orders: {', '.join(listed)}" if listed else None


# The site's reasons (engine/core/program_stock.py, engine/titles/g18usa/programs.py), each with
# the players' words for it.
_REASONS: tuple[tuple[str, Callable[[re.Match[str]], str]], ...] = (
    (r"Shares were sold", lambda m: "another player sold shares"),
    (r"Corporation (.+) parred", lambda m: f"another player started {m[1]}"),
    (r"(.+) bought on corporation (.+) and is unsecure",
     lambda m: f"{m[1]} bought shares of {m[2]}, which you preside without holding enough of it to be safe"),
    (r"(.+) has bought, shares exist that could allow them to gain presidency",
     lambda m: f"{m[1]} bought shares of the company, and could take its presidency from you"),
    (r"(.+) redeemed a share\.", lambda m: f"{m[1]} bought back one of its shares"),
    (r"(.+) took a loan", lambda m: f"{m[1]} took a loan"),
    (r"Short bought", lambda m: "another player sold a share short"),
    (r"(.+) must sell shares", lambda m: "you must sell shares first"),
    (r"(.+) is floated", lambda m: f"{m[1]} has floated: your order is done"),
    (r"(\d+) share\(s\) bought in (.+), end condition met", lambda m: f"you hold {m[1]} shares of {m[2]}: your order is done"),
    (r"Cannot buy (.+) from market", lambda m: f"there is no share of {m[1]} in the market you may buy now"),
    (r"Cannot buy (.+) from (?:Treasury|IPO)",
     lambda m: f"there is no share of {m[1]} in its treasury you may buy now (money, limits, or you sold it "
               f"this round)"),
    (r"Shares of different sizes exist, cannot auto buy (.+) from .+",
     lambda m: f"{m[1]}'s certificates there are of different sizes: choose one yourself"),
    (r"Other players have acted and requested to stop",
     lambda m: "another company converted, merged or was bought this round, and you asked to stop then"),
    (USER, lambda m: "you switched it off"),
)


def reason_words(reason: str) -> str:
    """The players' words for a reason an order ended."""
    for pattern, words in _REASONS:
        match = re.fullmatch(pattern, reason)
        if match:
            return words(match)
    return reason


def notice_words(notice: Notice) -> str:
    """What an order's owner is told when it was set, ended, or dropped by a round change."""
    order = order_words(notice.program)
    if notice.event == "enabled":
        return f"Your standing order: {order}."
    if notice.event == "disabled":
        return f"Your standing order ({order}) has ended: {reason_words(notice.reason)}. The next decision is yours."
    return f"Your standing order ({order}) has ended with the round."


def automatic_lines(made: AutomaticMove, names: Mapping[str, str] | None = None) -> list[str]:
    """A move the game made by itself, for the reply: "Bob passes (standing order)", then the
    other log lines it wrote (a company floats, a round ends)."""
    names = names or {}
    move = made.move
    who = names.get(str(move.get("entity")), str(move.get("entity")))
    kind = move.get("type")
    lines = list(made.lines)
    if made.cause == UNATTENDED:
        first = unattended_words(move)
    elif made.cause == RULE:
        first = f"{who} passes: they cannot bid more than the high bid."
    elif kind == "program_disable":
        first = f"{who}'s standing order has ended (they are told why)."
    elif kind == "program_share_pass":
        first = f"{who}'s standing order now passes for them in this stock round."
    elif kind == "buy_shares" and lines:  # the engine's words for a purchase name its price
        first = f"{lines.pop(0)} ({STANDING_ORDER})"
    else:
        first = f"{action_words(move, dict(names))} ({STANDING_ORDER})"
    return [first, *lines]

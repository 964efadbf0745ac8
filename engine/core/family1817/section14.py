"""Section 14 of the 1817 family (mergers, conversions, acquisitions, liquidations) as a state
machine one can read: where a merger round or an acquisition round stands, who is asked, and
which stage each decision leads to.

The rounds' code (`merger_round.py`, `acquisition_round.py`, the interrupting steps of
`tokens.py`, the discard and cash crisis steps) does the work; this module names what it is
waiting for (`stage`), who decides (`asked`), and lists every move a stage takes and the stages it
may lead to (`MERGER_ROUND`, `ACQUISITION_ROUND`), with the rule that says why. The tests replay
the shared logs and check that every move goes where this table says and that every transition
listed happens in them, so the table cannot drift from the code.

Only stages where somebody decides are listed: what needs no decision (buying a converted
company's stations, a sale nobody can bid in, a buyer with one company able to pay) happens on
the way to the next decision. `NEXT_ROUND` is the round after this one (an operating round, or
the acquisition round after the merger round).

Merger round (14.1), each company in the white area in operating order:

    CHOOSING --convert/merge--> (REMOVING_STATIONS, DISCARDING: 14.3, 12.9 after a merger)
             --> PRESIDENT_BUYS --> OTHERS_DEAL (each other player from the president's left)
             --> LOANS (the company's own) --> [stations bought, or liquidation] --> CHOOSING
    CHOOSING --pass--> CHOOSING (next company) or NEXT_ROUND
    The printed order for a conversion that owes stations is LOANS, stations, then the dealing;
    the site's (`site_post_conversion`) is the dealing first. A purchase that makes a new president
    keeps the dealing with the new one as PRESIDENT_BUYS (the passed-over former one deals last).

Acquisition round (14.2), liquidations, then acquisitions, then friendly sales, each in reverse
operating order:

    OFFERING (friendly: the president offers the company, `assign`, or passes)
    BIDDING --bid/pass--> BIDDING; the last one left --> NAMING_BUYER (when several of their
             companies could pay) --> (REMOVING_STATIONS, DISCARDING) --> BUYER_LOANS
             --pass--> REPAYING (acquired loans) --pass--> next sale
    A sale nobody bids in: a liquidation goes to the bank for $0, any other company goes on.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from engine.core.entities import Holder
from engine.core.family1817.acquisition_round import FRIENDLY, AcquisitionRound
from engine.core.family1817.merger_round import MergerRound


class Stage(StrEnum):
    # the merger round
    CHOOSING = "the company converts, merges or passes (14.1)"
    PRESIDENT_BUYS = "the president buys shares from the treasury (14.1.3)"
    OTHERS_DEAL = "another player buys one share or sells (14.1.3)"
    LOANS = "the company takes loans (14.1.3)"
    # the acquisition round
    OFFERING = "the president offers the company for a friendly sale, or not (14.2.3)"
    BIDDING = "a player bids for the company or passes (14.2)"
    NAMING_BUYER = "the winner names the company that buys (14.2)"
    BUYER_LOANS = "the buyer takes loans (14.2)"
    REPAYING = "the buyer repays the loans it acquired (14.2)"
    # interrupting either round
    REMOVING_STATIONS = "a company over the most stations removes one (14.3)"
    DISCARDING = "a company over its train limit discards a train"
    CASH_CRISIS = "a player raises money they owe (15)"
    TITLE_STEP = "a title's own interrupting decision"
    NEXT_ROUND = "the round is over"


# The interrupting steps (family and title) by their step key.
_INTERRUPTS = {"reduce_tokens": Stage.REMOVING_STATIONS, "discard_train": Stage.DISCARDING,
               "cash_crisis": Stage.CASH_CRISIS}

# stage -> move -> the stages the move may lead to (the next decision), each with why. A reason
# that begins with PRINTED is a transition of the printed order only (the imported logs follow
# the site's).
Transitions = dict[Stage, dict[str, dict[Stage, str]]]
PRINTED = "printed order: "
# A reason that begins with UNSEEN is a transition the rules allow that none of the 166 logs takes.
UNSEEN = "in no log yet: "

_NEXT_COMPANY = {
    Stage.CHOOSING: "the next company in operating order",
    Stage.NEXT_ROUND: "it was the last company",
}
_SETTLING = {
    Stage.PRESIDENT_BUYS: "the share dealing begins with the president (14.1.3)",
    Stage.OTHERS_DEAL: "the president may not buy: the others deal",
    Stage.LOANS: "nobody may deal (or, printed order, the loans come first)",
}
_DEALT = {
    Stage.LOANS: "the last player has dealt: the company's loans",
    **{stage: PRINTED + "the dealing ends the settling (the loans and stations came first)"
       for stage in _NEXT_COMPANY},
}
_AFTER_LOANS = {
    Stage.PRESIDENT_BUYS: PRINTED + "the dealing follows the loans and stations",
    Stage.OTHERS_DEAL: PRINTED + "the dealing follows the loans and stations (the president may not buy)",
}

MERGER_ROUND: Transitions = {
    Stage.CHOOSING: {
        "pass": dict(_NEXT_COMPANY),
        "convert": dict(_SETTLING),
        "merge": {**_SETTLING,
                  Stage.REMOVING_STATIONS: "the survivor holds more stations than the most (14.3)",
                  Stage.DISCARDING: "the survivor holds more trains than its limit"},
        "scrap_train": {Stage.CHOOSING: "a Pullman may be scrapped whenever its company acts"},
    },
    Stage.PRESIDENT_BUYS: {
        "buy_shares": {Stage.PRESIDENT_BUYS: "the president may buy another",
                       Stage.OTHERS_DEAL: "the president may buy no more: the next player", **_DEALT},
        "pass": {Stage.OTHERS_DEAL: "the next player from the president's left", **_DEALT},
    },
    Stage.OTHERS_DEAL: {
        "buy_shares": {Stage.OTHERS_DEAL: "the next player",
                       Stage.PRESIDENT_BUYS: "the purchase made them president: they deal as one", **_DEALT},
        "sell_shares": {Stage.OTHERS_DEAL: "the next player", **_DEALT},
        "pass": {Stage.OTHERS_DEAL: "the next player", **_DEALT},
    },
    Stage.LOANS: {
        "take_loan": {Stage.LOANS: "it may take another",
                      **{stage: PRINTED + "no more loans may be taken" for stage in _AFTER_LOANS}},
        "pass": {**_NEXT_COMPANY, **_AFTER_LOANS},
    },
    Stage.REMOVING_STATIONS: {"remove_token": {}, "choose": {}},
    Stage.DISCARDING: {"discard_train": {}},
    Stage.CASH_CRISIS: {"sell_shares": {}, "bankrupt": {}},
}

_NEXT_SALE = {
    Stage.OFFERING: "the next company offered for a friendly sale",
    Stage.BIDDING: "the next company for sale",
    Stage.NEXT_ROUND: "no company is left for sale",
}
_BOUGHT = {
    Stage.REMOVING_STATIONS: "the buyer holds more stations than the most (14.3)",
    Stage.DISCARDING: "the buyer holds more trains than its limit",
    Stage.BUYER_LOANS: "the buyer may take loans",
    Stage.CASH_CRISIS: "a liquidation's loans fall on its president",
    **_NEXT_SALE,
}
_WON = {Stage.NAMING_BUYER: "the last bidder has several companies that could pay", **_BOUGHT}

ACQUISITION_ROUND: Transitions = {
    Stage.OFFERING: {
        "assign": {Stage.BIDDING: "the auction opens",
                   Stage.OFFERING: "no player may bid: the next company is offered"},
        "pass": {Stage.OFFERING: "the next company offered", Stage.NEXT_ROUND: "no company is left for sale"},
    },
    Stage.BIDDING: {
        "bid": {Stage.BIDDING: "the next player", **_WON,
                Stage.CASH_CRISIS: UNSEEN + "a liquidation's loans fall on its president"},
        "pass": {Stage.BIDDING: "the next player", **_WON},
    },
    Stage.NAMING_BUYER: {"merge": {**_BOUGHT, Stage.NEXT_ROUND: UNSEEN + "no company is left for sale"}},
    Stage.BUYER_LOANS: {
        "take_loan": {Stage.BUYER_LOANS: UNSEEN + "it may take another"},
        "pass": {Stage.REPAYING: "it may repay acquired loans", Stage.CASH_CRISIS: "a player owes money",
                 **_NEXT_SALE},
        "payoff_loan": {Stage.REPAYING: "repaying ends the loans: the room it makes takes none"},
        "scrap_train": {Stage.BUYER_LOANS: "a Pullman may be scrapped whenever its company acts"},
    },
    Stage.REPAYING: {
        "payoff_loan": {Stage.REPAYING: "another acquired loan", Stage.CASH_CRISIS: "a player owes money",
                        **_NEXT_SALE, Stage.BIDDING: UNSEEN + "the next company for sale"},
        "pass": dict(_NEXT_SALE),
    },
    Stage.REMOVING_STATIONS: {"remove_token": {}, "choose": {}},
    Stage.DISCARDING: {"discard_train": {}},
    Stage.CASH_CRISIS: {"sell_shares": {}, "bankrupt": {}},
}
INTERRUPTIONS = (Stage.REMOVING_STATIONS, Stage.DISCARDING, Stage.CASH_CRISIS)


def stage(game: Any) -> Stage | None:
    """What the merger or acquisition round in play waits for; None in any other round."""
    rnd = game.round
    if game.finished or not isinstance(rnd, MergerRound | AcquisitionRound):
        return None
    step = rnd.blocking_step(game)
    if step is None:
        return Stage.NEXT_ROUND
    if step.key in _INTERRUPTS:
        return _INTERRUPTS[step.key]
    if isinstance(rnd, MergerRound):
        if step.key == "conversion":
            return Stage.CHOOSING
        if step.key == "post_conversion":
            return Stage.PRESIDENT_BUYS if rnd.president_dealing else Stage.OTHERS_DEAL
        if step.key == "post_conversion_loans":
            return Stage.LOANS
        return Stage.TITLE_STEP
    if step.key != "acquisition":
        return Stage.TITLE_STEP
    sale = rnd.sale
    if sale is None:
        return Stage.NEXT_ROUND
    if sale.settling:
        return Stage.REPAYING if sale.loans_done else Stage.BUYER_LOANS
    if sale.kind == FRIENDLY and not sale.offered:
        return Stage.OFFERING
    if sale.high_bidder is not None and len(sale.bidders) == 1:
        return Stage.NAMING_BUYER
    return Stage.BIDDING


def asked(game: Any) -> Holder | None:
    """Who decides now: a player, or a company (its president answers for it)."""
    holder: Holder | None = game.round.acting_entity(game)
    return holder


def transitions_of(game: Any) -> Transitions:
    """The table of the round in play (empty in rounds of other kinds)."""
    if isinstance(game.round, MergerRound):
        return MERGER_ROUND
    if isinstance(game.round, AcquisitionRound):
        return ACQUISITION_ROUND
    return {}


def allowed(table: Transitions, before: Stage, move: str, after: Stage) -> bool:
    """Whether `move` in stage `before` may lead to `after`. An interruption resumes the round
    in any of its decisions; a title's own interrupting step is the title's to describe."""
    if Stage.TITLE_STEP in (before, after):
        return True
    targets = table.get(before, {}).get(move)
    if targets is None:
        return False
    if before in INTERRUPTIONS:
        return after in table or after is Stage.NEXT_ROUND
    return after in targets

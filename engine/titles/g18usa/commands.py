"""18USA's words for its actions: the shared ones in 18USA's own phrases, and commands for what
the 1817 family adds (company sizes, private contributions, short sales, loans, conversions,
mergers, sales in the acquisition round, station reduction, scrapping, private powers).

The bot builds its commands, autocomplete and turn texts from this table; every action type the
title's steps take needs a word here (a test checks).
"""

from __future__ import annotations

from dataclasses import replace

from engine.core.commands import ENTITY_FIELD, STANDARD, WHICH_COMPANY, CommandOption, CommandSpec


def _o(name: str, kind: type, description: str, required: bool = False,
       field: str | None = None) -> CommandOption:
    return CommandOption(name, kind, description, required, field)


def _own(word: str, description: str, phrase: str) -> CommandSpec:
    return replace(STANDARD[word], description=description, phrase=phrase)


COMMANDS: tuple[CommandSpec, ...] = (
    _own("bid", "Bid on a private, to start a company (or for its president's certificate), or for one for sale",
         "bid"),
    _own("pass", "Pass (end your turn, or skip this step)", "pass"),
    _own("buy", "Buy one share (a short share of yours closes by buying one)", "buy a share"),
    _own("sell", "Sell shares to the open market", "sell shares"),
    _own("lay", "Lay or upgrade a tile (a second yellow lay costs $20)", "lay track"),
    _own("token", "Place a station: a home station, a station, or a private's token", "place a station"),
    _own("run", "Run trains: confirm the proposed runs, or give your own", "run trains"),
    _own("dividend", "Pay out, pay half, or withhold the revenue", "pay out, pay half or withhold"),
    _own("train", "Buy a train (from the bank, the open market or another company) or a Pullman (P)",
         "buy a train"),
    _own("redeem", "The company buys its own shares back from the open market", "buy back shares"),
    _own("discard", "Discard a train over the train limit", "discard a train over the limit"),
    _own("bankrupt", "Declare bankruptcy (when you cannot pay what you owe)", "declare bankruptcy"),
    CommandSpec("size", "choose", "Choose the size of the company you won: 2, 5 or 10 shares",
                "choose the company's size", ("player",),
                (_o("shares", int, "Shares in the company", True, "choice"),)),
    CommandSpec("contribute", "assign", "Give one of your privates to the company you are starting",
                "contribute a private", ("player",),
                (_o("company", str, "The private company", True, "target"),),
                selects=(("target_type", "company"),)),
    CommandSpec("offer", "assign", "Offer a company you preside for sale in the acquisition round",
                "offer a company for sale", ("player",),
                (_o("corporation", str, "The company for sale", True, "target"),),
                selects=(("target_type", "corporation"),)),
    CommandSpec("use", "assign", "Use a private's marker on a hex: a bridge, a red-area value or a "
                "station in a red area", "use a private on a hex", ("company",),
                (_o("private", str, "The private company", True, ENTITY_FIELD),
                 _o("hex", str, "The hex, e.g. E11", True))),
    CommandSpec("short", "short", "Sell a share short (no sale this turn otherwise)", "sell short", ("player",),
                (_o("corporation", str, "The company", True, "corporation"),)),
    CommandSpec("loan", "take_loan", "The company takes a loan of $100 from the Bank of New York",
                "take a loan", ("corporation",), (WHICH_COMPANY,)),
    CommandSpec("repay", "payoff_loan", "The company repays one loan", "repay a loan", ("corporation",),
                (WHICH_COMPANY,)),
    CommandSpec("convert", "convert", "Convert the company to the next size (2 to 5, 5 to 10 shares)",
                "convert", ("corporation",), (WHICH_COMPANY,)),
    CommandSpec("merge", "merge", "Merge with another company, or (acquisition round) name the company that buys", "merge", ("corporation", "player"),
                (_o("corporation", str, "The other company, or the buyer", True, "corporation"),)),
    CommandSpec("attach", "choose", "Attach a Pullman or other attachment to a train before the run",
                "attach to a train", ("corporation",),
                (_o("choice", str, "<train>-<attachment> as offered", True, "choice"),)),
    CommandSpec("scrap", "scrap_train", "Scrap a train (a Pullman for its scrap value)", "scrap a train",
                ("corporation",), (_o("train", str, "The train", True, "train"),)),
    CommandSpec("remove", "remove_token", "Take one of your stations off the map (token reduction)",
                "remove a station", ("corporation",),
                (_o("city", str, "The station: a hex such as D9, or a city id", True, "city"),
                 _o("owner", str, "Whose station, where the city holds two you may remove (a company, or neutral)",
                    False, "owner"))),
)

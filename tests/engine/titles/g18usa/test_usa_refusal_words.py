"""Refusals name 18USA's own command words (/loan, /offer, /short, /bid ...), looked up in its
table rather than 18Texas's, never the 18xx.games action ids (before: "dividend is not allowed now:
SP is at the buy trains step; allowed now: buy_train, pass, take_loan"; in the private auction
"buy_shares is not an auction action; bid or pass").

Positions of the real game 109372: before action 0 Player 1 opens the private auction; before
action 144 SP (Player 1) is to buy trains in its first turn; before 592 it is Player 1's stock turn.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_tracecheck import position_in

from engine.errors import GameError

LOG = "109372"
PLAYER_1 = 605


def refusal(actions: int, action: dict[str, Any]) -> str:
    game = position_in(LOG, actions)
    game.importing = False
    before = len(game.raw_actions)
    with pytest.raises(GameError) as caught:
        game.process(action)
    assert len(game.raw_actions) == before
    return str(caught.value)


def test_the_auction_names_its_commands() -> None:
    said = refusal(0, {"type": "buy_shares", "entity": PLAYER_1, "entity_type": "player",
                       "shares": ["PRR_1"], "percent": 10})
    assert said == "/buy is not possible now: Player 1 is to auction private companies; what you can do now: /bid, /pass"


def test_a_company_buying_trains_is_offered_18usa_s_loan_word() -> None:
    said = refusal(144, {"type": "dividend", "entity": "SP", "entity_type": "corporation", "kind": "payout"})
    assert said == "/dividend is not possible now: SP is to buy trains; what you can do now: /loan, /pass, /train"


def test_an_action_type_with_two_words_is_named_by_what_it_does() -> None:
    # assign offering a company for sale is /offer (assign giving a private is /contribute).
    said = refusal(592, {"type": "assign", "entity": PLAYER_1, "entity_type": "player",
                         "target": "PRR", "target_type": "corporation"})
    assert said == ("/offer is not possible now: Player 1 is to buy and sell shares; "
                    "what you can do now: /bid, /buy, /pass, /sell, /short")


def test_steps_that_say_what_to_type_name_the_words() -> None:
    # Before action 1 the auction for P18 runs (Player 2 to bid); before 1351 SR (Player 2) is to
    # convert or merge. Before: "bid on it or pass", "it is SR's turn to convert or merge".
    said = refusal(1, {"type": "bid", "entity": 1463, "entity_type": "player", "company": "P1", "price": 20})
    assert said == "the auction for P18 is running; /bid on it or /pass"
    said = refusal(1351, {"type": "convert", "entity": "PRR", "entity_type": "corporation"})
    # SR holds a Pullman: it may scrap it on its turn here too (the card: whenever it may act).
    assert said == "it is SR's turn to convert or merge (/convert, /scrap or /pass)"


def test_a_merger_round_waiting_for_the_new_company_s_shares_says_so() -> None:
    # Before 518 NYC has converted and Player 4 is to buy its shares; KCS (Player 4) buying a
    # train heard "it is NYC's turn to convert or merge", a step not in play.
    said = refusal(518, {"type": "buy_train", "entity": "KCS", "entity_type": "corporation", "train": "2-1",
                         "price": 100})
    assert said == ("/train is not possible now: Player 4 is to buy or sell shares of the new company; "
                    "what you can do now: /buy, /pass")

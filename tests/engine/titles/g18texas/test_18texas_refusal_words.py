"""Refusals name 18Texas's command words (/train, /issue, /lay ...), never the 18xx.games action
ids (buy_train, sell_shares, lay_tile): before, "buy_train is not allowed now: SP is at the pay
dividends step; allowed now: dividend".

Positions of the real game 65394: before action 46 SP (Player 3) is to pay dividends; before
action 65 it is Player 2's stock turn, and Player 2 presides MP.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import load_game
from engine.core.game import BaseGame
from engine.errors import GameError, NotNow

FIXTURE = Path(__file__).resolve().parents[3] / "data" / "fixtures" / "18Texas" / "65394.json"
PLAYER_1, PLAYER_2 = 8923, 1269


def position(actions: int) -> BaseGame:
    document = json.loads(FIXTURE.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][:actions]
    state = load_game(document).state
    state.importing = False
    return state


def refused(state: BaseGame, action: dict[str, Any]) -> GameError:
    before = (len(state.raw_actions), list(state.log))
    with pytest.raises(GameError) as caught:
        state.process(action)
    assert (len(state.raw_actions), list(state.log)) == before
    return caught.value


def test_a_company_buying_a_train_while_it_pays_dividends_is_told_the_words() -> None:
    state = position(46)
    error = refused(state, {"type": "buy_train", "entity": "SP", "entity_type": "corporation",
                            "train": "2-5", "price": 80})
    assert str(error) == "/train is not possible now: SP is to pay dividends; what you can do now: /dividend"
    # A front end answering a raw action can name the type typed as well.
    assert isinstance(error, NotNow) and error.naming_the_type() == (
        "buy_train (/train) is not possible now: SP is to pay dividends; what you can do now: /dividend")


def test_a_company_selling_its_shares_is_issuing_them() -> None:
    error = refused(position(46), {"type": "sell_shares", "entity": "SP", "entity_type": "corporation",
                                   "shares": ["SP_5"], "percent": 10})
    assert str(error) == "/issue is not possible now: SP is to pay dividends; what you can do now: /dividend"


def test_a_private_whose_power_is_not_for_now_names_the_command() -> None:
    error = refused(position(46), {"type": "lay_tile", "entity": "BBBCRC", "entity_type": "company",
                                   "hex": "I8", "tile": "7-0", "rotation": 3})
    assert str(error) == "Buffalo Bayou, Brazos and Colorado Railway Company cannot /lay now"


def test_a_president_acting_for_a_company_in_their_own_stock_turn_is_told_their_words() -> None:
    state = position(65)
    assert state.round.acting_entity(state) is state.player(PLAYER_2)
    error = refused(state, {"type": "buy_train", "entity": "MP", "entity_type": "corporation",
                            "train": "3-0", "price": 180})
    assert str(error) == ("/train is not possible now: Player 2 is to buy and sell shares; "
                          "what you can do now: /buy, /par, /pass, /sell")
    other = refused(state, {"type": "buy_shares", "entity": PLAYER_1, "entity_type": "player",
                            "shares": ["SP_8"], "percent": 10})
    assert str(other) == "it is Player 2's turn in the stock round"


def test_the_private_auction_names_the_word_every_player_must_use() -> None:
    # Before action 0 Player 1 opens the private auction; passing is not allowed (rule 10).
    # Before: "in the private auction each player must bid (rule 10)", not saying what to type.
    error = refused(position(0), {"type": "par", "entity": PLAYER_1, "entity_type": "player",
                                  "corporation": "SP", "share_price": "70,0,4"})
    assert str(error) == "in the private auction each player must bid (rule 10); what you can do now: /bid"

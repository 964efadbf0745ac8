"""18USA rule 12.7: "Pullman cars may be purchased from the bank for $200 prior to the run trains
step"; rule 9: loans may be taken at any time of the company's turn. So the Pullman is offered
before the run whenever the company's cash and the loans it could still take cover $200, as on
the site (118 of the 120 phase-5+ turns in the logs where no track or station decision is left;
the other two are a Denver orientation and one real-game pass). The step itself waits for a
pass whatever the money (rule 12.7's chance to buy comes before every run).

The position: a real game (s8503) where IC has laid its tile; the phase is moved on to 5 (Pullmans
are sold) and IC's cash and trains set, so that only the money decides.
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_positions import logged_action
from usa_tracecheck import position_in

from engine.errors import GameError
from engine.legal import legal_moves

LOG = "s8503"
IC_LAID = 512  # IC has laid G7; its next action passes the track step


def position(cash: int) -> Any:
    game = position_in(LOG, IC_LAID)
    game.phase_index = next(index for index, phase in enumerate(game.phases) if phase.name == "5")
    ic = game.corporations["IC"]
    game.bank.cash += ic.cash - cash
    ic.cash = cash
    del ic.trains[1:]  # room under phase 5's limit of 3
    assert game.loans.count("IC") == 1 and game.max_loans(ic) == 2  # one more loan: $100
    game.apply(logged_action(LOG, IC_LAID))  # IC passes the rest of its track step
    return game


def offered(game: Any) -> bool:
    return any(move["type"] == "buy_train" and move["entity"] == "IC" for move in legal_moves(game))


def test_a_pullman_is_offered_when_loans_would_pay_for_it() -> None:
    game = position(cash=100)
    assert game.round.blocking_step(game).key == "pullman" and offered(game)
    game.process({"type": "take_loan", "entity": "IC", "entity_type": "corporation"})
    game.process({"type": "buy_train", "entity": "IC", "entity_type": "corporation", "train": "P-0",
                  "price": 200})
    assert [train.name for train in game.corporations["IC"].trains].count("P") == 1
    assert game.corporations["IC"].cash == 0


def test_no_pullman_offered_when_cash_and_loans_fall_short_but_the_step_waits_for_a_pass() -> None:
    # The site keeps the step open whatever the money (docs/18usa-findings/usa-next2.md, 5).
    game = position(cash=99)  # $99 and one loan: $199
    assert game.round.blocking_step(game).key == "pullman" and not offered(game)
    game.process({"type": "pass", "entity": "IC", "entity_type": "corporation"})
    assert game.round.blocking_step(game).key != "pullman"


def test_a_pullman_offered_on_loans_is_refused_until_they_are_taken_saying_so() -> None:
    game = position(cash=100)
    with pytest.raises(GameError, match=r"^IC has \$100; a Pullman car costs \$200, \$100 more; "
                                        r"take loans first \(\$100 each\)$"):
        game.process({"type": "buy_train", "entity": "IC", "entity_type": "corporation", "train": "P-0",
                      "price": 200})
    assert game.corporations["IC"].cash == 100 and not any(t.name == "P" for t in game.corporations["IC"].trains)


def test_a_company_with_a_pullman_is_not_offered_the_open_market_s_pullmans() -> None:
    # s8503 before 1238: SR has its Pullman P-8; six discarded Pullmans wait in the open market.
    game = position_in(LOG, 1238)
    game.importing = False
    assert [t.id for t in game.corporations["SR"].trains if t.name == "P"] == ["P-8"]
    assert sum(1 for t in game.depot.discarded if t.name == "P") == 6
    market = [c["train"] for m in legal_moves(game) if m["type"] == "buy_train" and m["entity"] == "SR"
              for c in m["choices"] if c.get("from") == "market"]
    assert not [train for train in market if train.startswith("P-")]
    with pytest.raises(GameError, match=r"SR already has a Pullman car \(12\.7\)"):
        game.process({"type": "buy_train", "entity": "SR", "entity_type": "corporation", "train": "P-0",
                      "price": 200})


def test_a_company_with_a_pullman_may_not_buy_another_company_s() -> None:
    """12.7: "A company may only own one Pullman car", from the bank or from another company
    (s8503 before 1238: SR has P-8; NYC holds P-3 and SP P-5 beside its 6-train)."""
    game = position_in(LOG, 1238)
    game.importing = False
    offers = [(c["train"], c["from"]) for m in legal_moves(game) if m["type"] == "buy_train" and m["entity"] == "SR"
              for c in m["choices"]]
    assert ("6-4", "SP") in offers
    assert not [train for train, _ in offers if train.startswith("P-")]
    cash = game.corporations["SR"].cash
    with pytest.raises(GameError, match=r"SR already has a Pullman car \(12\.7\)"):
        game.process({"type": "buy_train", "entity": "SR", "entity_type": "corporation", "train": "P-3",
                      "price": 1})
    assert [t.id for t in game.corporations["NYC"].trains] == ["P-3"]
    assert game.corporations["SR"].cash == cash

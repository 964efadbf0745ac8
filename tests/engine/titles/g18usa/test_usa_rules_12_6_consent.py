"""Rules 12.6 and 12.7: "Trains may be bought from the bank, the open market, or from another
consenting company"; a Pullman "may be purchased from another company with the consent of the
company's president". The engine names whose consent a purchase needs (`train_sale_consent`)
and the bot asks that president before making it; on the site nobody is asked
(`site_unasked_train_sales`).

The position (tests/data/positions/usa_train_from_another_president.json, the deep random player,
4 players, seed 1): TP (Player 3) at its buy-trains step in Operating Round 1.1, offered the
trains of N&W and MILW's president Player 2, DRG and SP's Player 1 and UP's Player 4; the random
player bought N&W's 2-train for $30 with nobody asked.
"""

from __future__ import annotations

from usa_positions import kept_document, kept_position

from engine.legal import legal_moves

POSITION = "usa_train_from_another_president"


def test_a_train_from_a_company_with_another_president_needs_that_presidents_consent() -> None:
    game = kept_position(POSITION)
    state = game.state
    tp = state.corporation("TP")
    offered = {c["train"]: c["from"] for m in legal_moves(state) if m["type"] == "buy_train" for c in m["choices"]}
    assert offered["2-0"] == "N&W" and offered["2-1"] == "DRG"
    assert state.train_sale_consent(tp, "2-0") is state.player(1002)  # N&W's president
    assert state.train_sale_consent(tp, "2-1") is state.player(1001)  # DRG's president
    assert state.train_sale_consent(tp, "2-2") is state.player(1004)  # UP's president


def test_no_consent_for_a_bank_train_or_from_a_company_of_the_same_president() -> None:
    state = kept_position(POSITION).state
    assert state.train_sale_consent(state.corporation("TP"), state.depot.next_train().id) is None
    # MILW and N&W are both Player 2's.
    assert state.train_sale_consent(state.corporation("MILW"), "2-0") is None
    assert state.train_sale_consent(state.corporation("TP"), "no-such-train") is None


def test_the_engine_trusts_the_consent_given() -> None:
    game = kept_position(POSITION)
    game.process({"type": "buy_train", "entity": "TP", "entity_type": "corporation", "train": "2-0", "price": 30})
    state = game.state
    assert [t.id for t in state.corporation("TP").trains] == ["2-0"]
    assert state.corporation("N&W").cash == 30


def test_on_the_site_nobody_is_asked() -> None:
    document = kept_document(POSITION)
    played = document["stationmaster"]["rule_options"]
    document |= {"stationmaster": {"rule_options": [*played, "site_unasked_train_sales"]}}
    state = kept_position(POSITION, document).state
    assert state.train_sale_consent(state.corporation("TP"), "2-0") is None

"""18USA rules 12.2 (P17's extra lay), 12.6 (buying trains) and 6.3 (discarding over the limit)
at logged positions: what the company is offered, and what the purchase or discard changes."""

from __future__ import annotations

from usa_positions import log_named, replayed

from engine.legal import legal_moves


def test_12_6_a_train_from_the_bank_at_its_price_or_from_another_company_from_1() -> None:
    game = replayed("s8403", 133)  # B&O ($164 after a loan; room for one more) at its buy-trains step
    (move,) = [m for m in legal_moves(game) if m["type"] == "buy_train"]
    assert {"train": "2-1", "price": 100, "from": "depot"} in move["choices"]
    other = next(c for c in move["choices"] if c["from"] == "N&W")
    # From $1 up to what the treasury holds now; a price a further loan would pay is offered
    # once the loan is taken, and refused until then, saying so.
    assert (other["min_price"], other["max_price"]) == (1, 164)
    bo = game.corporations["B&O"]
    cash = bo.cash
    game.apply(log_named("s8403")["actions"][133])
    assert bo.cash == cash - 100 and [t.id for t in bo.trains][-1] == "2-1"
    assert game.depot.next_train() is not None and game.depot.next_train().id != "2-1"


def test_6_3_companies_over_the_limit_discard_in_their_fixed_order() -> None:
    # s8504: the export ending OR 8.2 starts phase 6 (limit 2); DRG (first to operate) and B&O
    # each hold three trains; as on the site B&O, earlier in the companies' order, discards first.
    game = replayed("s8504", 832)
    assert [c.id for c in game.operating_order()][:2] == ["DRG", "B&O"]
    assert [(m["type"], m["entity"]) for m in legal_moves(game)] == [("discard_train", "B&O")]
    game.apply(log_named("s8504")["actions"][832])
    assert [(m["type"], m["entity"]) for m in legal_moves(game)][0] == ("discard_train", "DRG")


def test_12_2_p17_keeps_the_track_step_open_until_its_lay_is_used() -> None:
    # s8504: DRG, holding P17, has made both tile actions; every Great Northern hex has a tile,
    # yet the step waits for a pass, as on the site; the run comes after it.
    game = replayed("s8504", 673)
    assert game.owns(game.corporations["DRG"], "P17")
    assert {m["type"] for m in legal_moves(game)} == {"pass", "take_loan"}
    game.apply(log_named("s8504")["actions"][673])
    assert "run_routes" in {m["type"] for m in legal_moves(game)}

"""18USA operating steps the site keeps open although the company cannot act there with its cash:
P9 (Boomtown) held keeps the track step open after the tile actions (a pass ends it), and the
Pullman step (12.7) waits for a pass from phase 5 whatever the company's money; the Pullman
itself is offered to a company that could pay for it, with loans if need be.
"""

from __future__ import annotations

from usa_logs import LOGS, read_log
from usa_tracecheck import move_kinds as kinds
from usa_tracecheck import position_in as position

from engine.legal import legal_moves


def test_the_track_step_waits_while_the_company_holds_p9() -> None:
    game = position("s8602", 316)  # PRR (P2, P9) has used its two tile actions
    prr = game.corporations["PRR"]
    assert game.round.acting_entity(game) is prr and game.owns(prr, "P9")
    assert "run_routes" not in kinds(game) and "pass" in kinds(game)
    game.apply({"type": "pass", "entity": "PRR", "entity_type": "corporation"})
    assert "run_routes" in kinds(game)


def test_without_p9_the_company_goes_straight_on_to_its_run() -> None:
    game = position("s8602", 315)
    game.companies["P9"].closed = True
    game.apply(read_log(next(p for p, _ in LOGS if p.stem.endswith("s8602")))["actions"][315])
    assert "run_routes" in kinds(game)


def test_the_pullman_is_offered_to_a_company_that_could_pay_with_loans() -> None:
    game = position("109372", 750)  # NYC, $10 and one loan of five, in phase 5, has passed its track step
    nyc = game.corporations["NYC"]
    assert game.round.acting_entity(game) is nyc and nyc.cash < 200
    buys = [m for m in legal_moves(game) if m["type"] == "buy_train"]
    assert buys and all(choice["train"].startswith("P-") for choice in buys[0]["choices"])
    assert "run_routes" not in kinds(game)


def test_without_money_for_it_no_pullman_is_offered_but_the_step_waits_for_a_pass() -> None:
    game = position("109372", 750)
    nyc = game.corporations["NYC"]
    game.loans.held[nyc.id] = game.max_loans(nyc)  # no loan left to take: $10 is all it has
    assert "buy_train" not in kinds(game)
    assert "pass" in kinds(game) and "run_routes" not in kinds(game)
    game.apply({"type": "pass", "entity": "NYC", "entity_type": "corporation"})
    assert "run_routes" in kinds(game)


def test_the_pullman_step_waits_for_a_company_without_trains() -> None:
    game = position("s8401", 555)  # WP, no train, $190, phase 5, has passed its track step
    wp = game.corporations["WP"]
    assert game.round.acting_entity(game) is wp and not wp.trains
    price = game.market.cell_of("WP").price
    assert "pass" in kinds(game)
    game.apply({"type": "pass", "entity": "WP", "entity_type": "corporation"})
    assert game.market.cell_of("WP").price < price  # no run: the withheld 0 moves it left


def test_the_track_step_waits_while_p20_could_place_a_station() -> None:
    game = position("s8401", 561)  # TP (P20, one station unplaced) has used its two tile actions
    tp = game.corporations["TP"]
    assert game.owns(tp, "P20") and game.tokens_left(tp) == 1
    game.apply({"type": "pass", "entity": "TP", "entity_type": "corporation"})  # ends the track step
    assert any(m["type"] == "place_token" and m["entity"] == "TP" for m in legal_moves(game))


def test_choosing_an_attachment_ends_the_pullman_step() -> None:
    """109372 at 969: PRR ($0, no loan left; P30) lays, then puts P30's extender on its 4-train
    while its Pullman step is open, and runs. With $0 it cannot buy a Pullman, so the step does
    not hold the turn (site_pullman_step_waits): the attachment or the run is next."""
    game = position("109372", 969)
    prr = game.corporations["PRR"]
    assert game.round.acting_entity(game) is prr and game.owns(prr, "P30") and prr.cash == 0
    assert {"choose", "run_routes"} <= kinds(game) and "pass" not in kinds(game)
    game.apply({"type": "choose", "entity": "PRR", "entity_type": "corporation", "choice": "0-0"})
    assert "run_routes" in kinds(game) and "pass" not in kinds(game)

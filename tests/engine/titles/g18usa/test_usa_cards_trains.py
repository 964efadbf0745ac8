"""18USA cards for trains and loans: P15 Western Land Grant, P19 Union Switch & Signal (the
Switcher), P25 American Locomotive Co., P30 Double Heading (the Extender) and P13 Pennsy Boneyard
(its wait at an export is played in test_usa_rules_p13_boneyard.py; P15's acquisition auction in
test_usa_rules_14_merger_acquisition.py).

Positions: s12045's first operating round (PRR at its track step with a 2-train, the bank's next
train a 2-train at $100), and s8503 at 1127 in phase 6, where SR (P17, P26, P30, a 4-train and a
Pullman) is to run: its best run with the Extender on the 4-train is G11-E7-E3-E1-G3-I5 ($220).
"""

from __future__ import annotations

from typing import Any

import pytest
from usa_cards import PRR_TRACK, give, moves_of, only, played, position, refused
from usa_tracecheck import snapshot

from engine.errors import GameError
from engine.titles.g18usa.operating_trains import train_price
from engine.titles.g18usa.phases import SITE_P25_FULL_PRICE, phase_index

SR_RUNS = ("s8503", 1127)
EXTENDED_RUN = (["G11", "E7", "E3", "E1", "G3", "I5"],
                [["G11", "F12", "F10", "F8", "E7"], ["E7", "E5", "E3"], ["E3", "E1"], ["E1", "F2", "G3"],
                 ["G3", "H4", "I5"]])


def corporation(game: Any, kind: str) -> dict[str, Any]:
    return {"type": kind, "entity": "PRR", "entity_type": "corporation"}


# --- P15 --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cards", "loans"), [((), 2), (("P15",), 3)])
def test_p15_one_loan_over_the_maximum(cards: tuple[str, ...], loans: int) -> None:
    game = position(*PRR_TRACK)
    prr = only(game, "PRR", *cards)
    assert game.company_size(prr) == 2  # rule 9: one loan a share
    for _ in range(loans):
        played(game, corporation(game, "take_loan"))
    assert game.loans.count("PRR") == loans
    refused(game, corporation(game, "take_loan"), f"PRR already holds {loans} loans, the most it may")


@pytest.mark.parametrize(("cards", "due"), [((), 3 * 20), (("P15",), 2 * 20 + 5)])
def test_p15_one_loan_always_costs_5_interest(cards: tuple[str, ...], due: int) -> None:
    game = position(*PRR_TRACK)
    prr = only(game, "PRR", *cards)
    game.loans.held["PRR"] = 3
    game.loans.interest_rate, game.loans.rate_fixed = 20, True  # the Bank of New York at $20 a loan
    assert game.interest_due(prr) == due


def test_p15_at_a_5_rate_changes_nothing() -> None:
    game = position(*PRR_TRACK)
    prr = only(game, "PRR", "P15")
    game.loans.held["PRR"] = 2
    assert game.loans.current_rate() == 5 and game.interest_due(prr) == 10


# --- P25 --------------------------------------------------------------------------------------
def at_buy_trains(*cards: str) -> Any:
    game = position(*PRR_TRACK)
    only(game, "PRR", *cards)
    played(game, corporation(game, "pass"))  # the track step
    assert moves_of(game, "buy_train", "PRR")
    return game


def bank_offers(game: Any) -> set[int]:
    return {choice["price"] for move in moves_of(game, "buy_train", "PRR") for choice in move["choices"]
            if choice.get("from") == "depot"}


@pytest.mark.parametrize(("cards", "site", "prices"), [
    ((), False, {100}), (("P25",), False, {90}), (("P25",), True, {90, 100})],
    ids=["without", "printed", "site_p25_full_price"])
def test_p25_a_train_from_the_bank_costs_10_percent_less(cards: tuple[str, ...], site: bool, prices: set[int]) -> None:
    """The card: the owning company "pays 10% less"; the site offers the full price too."""
    game = at_buy_trains(*cards)
    if not site:
        game.options = game.options - {SITE_P25_FULL_PRICE}  # the printed card from here on
    assert bank_offers(game) == prices
    refused(game, {**corporation(game, "buy_train"), "train": "2-2", "price": 80},
            "a 2-train from the bank costs " + " or ".join(f"\\${price}" for price in sorted(prices)))
    played(game, {**corporation(game, "buy_train"), "train": "2-2", "price": min(prices)})
    assert game.corporations["PRR"].cash == 300 - min(prices)


def test_p25_discounts_2_to_6_trains_rounded_down_in_the_companys_favour_not_7_8_or_pullmans() -> None:
    game = position(*PRR_TRACK)
    prr = only(game, "PRR", "P25")
    prices = {train.name: (train.price, train_price(game, prr, train)) for train in game.depot.trains}
    for name, (price, paid) in prices.items():
        assert paid == (price - price // 10 if name in ("2", "2+", "3", "3+", "4", "4+", "5", "6") else price)
    assert {"2", "6", "7", "8"} <= set(prices)


def test_p25_closes_when_phase_6_starts() -> None:
    game = position(*PRR_TRACK)
    prr = only(game, "PRR", "P25")
    six = next(train for train in game.depot.trains if train.name == "6")
    game.phase_index = phase_index(game, "5")
    game.on_phase_change(game.phase)
    assert not game.companies["P25"].closed
    game.phase_index = phase_index(game, "6")
    game.on_phase_change(game.phase)
    assert game.companies["P25"].closed and train_price(game, prr, six) == six.price


# --- P13 --------------------------------------------------------------------------------------
def first_of_its_kind_bought(held: str, first: str, *cards: str) -> Any:
    """PRR holds one `held` train (and `cards`) and buys the bank's first `first` train."""
    game = at_buy_trains(*cards)
    prr = game.corporations["PRR"]
    mine = next(train for train in game.depot.trains if train.name == held)
    game.depot.take(mine)
    for train in prr.trains:
        train.owner = None
    prr.trains, mine.owner = [mine], prr
    while (upcoming := game.depot.next_train()) is not None and upcoming.name != first:
        game.depot.take(upcoming)
    assert upcoming is not None
    prr.cash = 2000
    played(game, {**corporation(game, "buy_train"), "train": upcoming.id, "price": upcoming.price})
    return game


def boneyard_choices(game: Any) -> list[str]:
    return [choice["choice"] for move in moves_of(game, "choose", "PRR") for choice in move["choices"]]


@pytest.mark.parametrize(("held", "first"), [("2", "4"), ("3", "6"), ("4", "8")])
def test_p13_keeps_a_train_the_first_4_6_or_8_rusts_as_obsolete_and_closes(held: str, first: str) -> None:
    game = first_of_its_kind_bought(held, first, "P13")
    prr = game.corporations["PRR"]
    assert boneyard_choices(game) == [f"{held} Train"]
    played(game, {**corporation(game, "choose"), "choice": f"{held} Train"})
    kept = next(train for train in prr.trains if train.name == held)
    assert kept.id in game.obsolete_trains and game.companies["P13"].closed
    assert game.counted_trains(prr) == 1  # the obsolete train is outside the limit


@pytest.mark.parametrize(("held", "first"), [("2", "4"), ("3", "6"), ("4", "8")])
def test_without_p13_the_train_rusts_at_once(held: str, first: str) -> None:
    game = first_of_its_kind_bought(held, first)
    assert [train.name for train in game.corporations["PRR"].trains] == [first]
    assert not boneyard_choices(game)


@pytest.mark.parametrize(("held", "first"), [("2+", "4"), ("3+", "6"), ("4+", "8")])
def test_p13_is_not_for_2_plus_3_plus_or_4_plus_trains_which_never_rust(held: str, first: str) -> None:
    game = first_of_its_kind_bought(held, first, "P13")
    assert [train.name for train in game.corporations["PRR"].trains] == [held, first]
    assert not boneyard_choices(game) and not game.companies["P13"].closed


# --- P19 and P30 ------------------------------------------------------------------------------
def sr_to_run(*cards: str) -> Any:
    """SR to run with `cards` (of P19 and P30) and a 6-train from the bank in its Pullman's place
    (phase 6 allows two)."""
    game = position(*SR_RUNS, site=True)
    sr = game.corporations["SR"]
    for company in game.companies_of(sr):
        if company.id in ("P19", "P30") and company.id not in cards:
            company.closed = True
    for card in cards:
        give(game, card, sr)
    sr.trains = [train for train in sr.trains if train.name != "P"]
    six = game.depot.next_train()
    assert six is not None and six.name == "6"
    game.depot.take(six)
    six.owner = sr
    sr.trains.append(six)
    return game


def offered(game: Any) -> set[tuple[str, str]]:
    return {(choice["attachment"], choice["attaches_to"]) for move in moves_of(game, "choose", "SR")
            for choice in move["choices"]}


def choose(game: Any, attachment: str, train: str) -> dict[str, Any]:
    code = next(choice["choice"] for move in moves_of(game, "choose", "SR") for choice in move["choices"]
                if (choice["attachment"], choice["attaches_to"]) == (attachment, train))
    return {"type": "choose", "entity": "SR", "entity_type": "corporation", "choice": code}


def run(stops: list[str], connections: list[list[str]], train: str = "4-7") -> dict[str, Any]:
    return {"type": "run_routes", "entity": "SR", "entity_type": "corporation",
            "routes": [{"train": train, "connections": connections, "nodes": [f"{coord}-0" for coord in stops]}]}


def test_p30_extends_only_a_2_to_4_plus_train_and_p19_switches_any() -> None:
    game = sr_to_run("P19", "P30")
    six = next(t.id for t in game.corporations["SR"].trains if t.name == "6")
    attachable = offered(game)
    assert {("P30", "4-7"), ("P19", "4-7"), ("P19", six)} <= attachable
    assert ("P30", six) not in attachable
    played(game, choose(game, "P30", "4-7"))
    assert offered(game) >= {("P19", six)} and ("P19", "4-7") not in offered(game)  # one upgrade a train


def test_p30s_extender_adds_one_to_the_distance_for_this_run() -> None:
    unextended = sr_to_run("P30")
    before = snapshot(unextended)
    with pytest.raises(GameError, match="a 4-train may visit at most 4"):
        unextended.process(run(*EXTENDED_RUN))  # (a run is offered as a kind, its routes checked)
    assert snapshot(unextended) == before
    game = sr_to_run("P30")
    played(game, choose(game, "P30", "4-7"))
    logged = len(game.log)
    played(game, run(*EXTENDED_RUN))
    assert game.log[logged] == "SR runs for $220"


def test_p19s_switcher_adds_one_to_the_distance_and_leaves_one_stop_out() -> None:
    game = sr_to_run("P19")
    played(game, choose(game, "P19", "4-7"))
    logged = len(game.log)
    played(game, run(*EXTENDED_RUN))  # six stops: five for the distance, one left out
    earned = int(game.log[logged].rsplit("$", 1)[1])
    assert earned < 220

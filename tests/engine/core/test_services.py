"""The services a game composes: bank, depot, share ledger, stock market, loans."""

from __future__ import annotations

import pytest

from engine.core.entities import Corporation, Player, Pool
from engine.core.services.bank import Bank
from engine.core.services.depot import Depot
from engine.core.services.ledger import ShareLedger
from engine.core.services.loans import Loans
from engine.core.services.market import StockMarket
from engine.errors import GameError


def test_a_finite_bank_breaks_once_when_it_pays_more_than_it_has() -> None:
    bank = Bank.from_constant(100)
    assert not bank.unlimited and bank.can_pay(100) and not bank.can_pay(101)
    bank.cash -= 150
    assert bank.paid_out() and bank.broken
    assert not bank.paid_out()  # it breaks once


def test_an_unlimited_bank_never_breaks() -> None:
    bank = Bank.from_constant("unlimited")
    assert bank.unlimited and bank.can_pay(10**9)
    bank.cash -= 10**6
    assert not bank.paid_out() and not bank.broken


def test_depot_counts_by_player_number_and_makes_unlimited_trains_on_demand() -> None:
    raw = [{"name": "2", "distance": 2, "price": 100, "count": {"2-4": 2, "5-7": 3}},
           {"name": "3", "distance": 3, "price": 200, "count_2_to_4_players": 1, "count_5_to_7_players": 2,
            "obsolete_on": "8"},
           {"name": "8", "distance": 8, "price": 1100, "count": "unlimited"}]
    assert Depot.from_data(raw, 5).run_length() == [["2", 3], ["3", 2], ["8", 1]]
    depot = Depot.from_data(raw, 3)
    assert depot.run_length() == [["2", 2], ["3", 1], ["8", 1]]  # an unlimited kind shows one card
    for _ in range(3):
        train = depot.next_train()
        assert train is not None
        depot.take(train)
    assert train.obsolete_on == "8"
    ids = []
    for _ in range(3):  # the unlimited kind never runs out
        train = depot.next_train()
        assert train is not None and train.name == "8"
        ids.append(train.id)
        depot.take(train)
    assert ids == ["8-0", "8-1", "8-2"] and depot.run_length() == [["8", 1]]


def test_discarded_trains_go_to_the_open_market_or_leave_the_game() -> None:
    depot = Depot.from_data([{"name": "2", "distance": 2, "price": 80, "count": 2}], 3)
    first, second = list(depot.trains)
    depot.take(first)
    depot.take(second)
    depot.discard(first, to_market=True)
    depot.discard(second, to_market=False)
    assert depot.discarded == [first] and second not in depot.discarded
    depot.take(first)
    assert depot.discarded == []


@pytest.mark.parametrize(("shares", "president", "percents"), [
    (2, 2, [100]), (2, 1, [50, 50]), (5, 2, [40, 20, 20, 20]), (10, 2, [20] + [10] * 8)])
def test_ledger_makes_companies_of_2_5_or_10_shares(shares: int, president: int, percents: list[int]) -> None:
    corp = Corporation(id="X")
    ShareLedger().create(corp, shares, president)
    assert [s.percent for s in corp.shares] == percents and corp.share_percent == 100 // shares
    assert corp.shares[0].president and corp.shares[0].id == "X_0" and sum(percents) == 100


def test_ledger_short_sale_makes_a_negative_holding_and_closing_it_restores_the_company() -> None:
    corp, pool, seller = Corporation(id="X"), Pool(), Player(id="A", name="A")
    ledger = ShareLedger(negative_holdings=True)
    ledger.create(corp, 5, 2)
    sold = ledger.short(corp, seller, pool)
    assert ledger.percent_of(corp, seller) == -20 and ledger.percent_of(corp, pool) == 20
    assert sum(s.percent for s in corp.shares) == 100
    ledger.move(sold, seller)
    ledger.close_short(corp, seller, sold)
    assert ledger.percent_of(corp, seller) == 0 and len(corp.shares) == 4


def test_ledger_numbers_a_short_pair_after_the_company_s_certificates() -> None:
    """As on the site: the first pair is 10/11 (ordinary, short); after an ordinary certificate
    numbered 12 (the rest of its pair closed) the next pair is 13/14, with no parity kept
    (18USA s12242 and s12013)."""
    corp, pool, seller = Corporation(id="X"), Pool(), Player(id="A", name="A")
    ledger = ShareLedger(negative_holdings=True, first_short_index=10)
    ledger.create(corp, 5, 2)
    assert ledger.short(corp, seller, pool).id == "X_10"
    corp.shares[1].id = "X_12"
    assert ledger.short(corp, seller, pool).id == "X_13"
    assert sorted(s.id for s in corp.shares if s.percent < 0) == ["X_11", "X_14"]


def test_ledger_refuses_short_sales_where_the_title_does_not_allow_them() -> None:
    corp = Corporation(id="X")
    ledger = ShareLedger()
    ledger.create(corp, 10)
    with pytest.raises(GameError, match="short"):
        ledger.short(corp, Player(id="A", name="A"), Pool())


def test_ledger_lists_a_holding_in_the_order_received() -> None:
    corp, holder = Corporation(id="X"), Player(id="A", name="A")
    ledger = ShareLedger()
    ledger.create(corp, 10)
    for share in (corp.shares[3], corp.shares[1], corp.shares[2]):
        ledger.move(share, holder)
    assert [s.id for s in ledger.holding_order(corp, holder)] == ["X_3", "X_1", "X_2"]


def one_row_market() -> StockMarket:
    prices = [0, 40, 50, 60, 70]
    grid = [[{"row": 0, "col": col, "price": price, "engine_id": f"{price},0,{col}",
              "types": ["liquidation"] if col == 0 else [],
              "moves": {"left": [0, max(1, col - 1) if col else 0], "right": [0, min(4, col + 1)],
                        "up": [0, min(4, col + 1)], "down": [0, max(1, col - 1) if col else 0]}}
             for col, price in enumerate(prices)]]
    return StockMarket({"grid": grid, "par_cells": ["50,0,2", "60,0,3"]})


def test_a_one_row_market_moves_along_its_row_and_stacks_tokens() -> None:
    market = one_row_market()
    assert [c.price for c in market.par_cells()] == [50, 60]
    market.place("A", market.by_id["50,0,2"])
    market.place("B", market.by_id["50,0,2"])
    assert market.operating_key("A") < market.operating_key("B")  # placed first, on top
    market.move("A", "right", 5)
    assert market.cell_of("A").price == 70
    market.move("B", "left", 3)
    assert market.cell_of("B").price == 40  # the liquidation cell is entered only on purpose
    assert market.cells[(0, 0)].types == ("liquidation",)


def test_loans_count_what_each_company_holds_within_the_bank_total() -> None:
    loans = Loans.from_constants({"loans": {"value": 100, "total_loans": 2}})
    loans.interest_rate = 5
    loans.take("A")
    loans.take("A")
    assert loans.count("A") == 2 and loans.available() == 0 and loans.interest_due("A") == 10
    with pytest.raises(GameError, match="no loans left"):
        loans.take("B")
    loans.repay("A")
    assert loans.available() == 1
    with pytest.raises(GameError, match="no loan"):
        loans.repay("B")
    assert not Loans.from_constants({}).enabled


def test_an_unlimited_kind_before_others_is_made_until_retired() -> None:
    depot = Depot.from_data([{"name": "2", "distance": 2, "price": 100, "count": "unlimited"},
                             {"name": "3", "distance": 3, "price": 200, "count": 1},
                             {"name": "8", "distance": 8, "price": 1100, "count": "unlimited"}], 3)
    for expected in ("2-0", "2-1", "2-2"):
        train = depot.next_train()
        assert train is not None and train.id == expected
        depot.take(train)
    assert depot.run_length() == [["2", 1], ["3", 1], ["8", 1]]
    assert [t.id for t in depot.retire("2")] == ["2-3"] and not depot.unlimited("2")
    three = depot.next_train()
    assert three is not None and three.id == "3-0"
    depot.take(three)
    eights = []
    for _ in range(2):
        train = depot.next_train()
        assert train is not None
        eights.append(train.id)
        depot.take(train)
    assert eights == ["8-0", "8-1"] and depot.unlimited("8")

"""18USA rule 11.6: a new company's funding — stations it cannot pay for yet, and P25's discount.

Positions from a real game's first stock round: TP is started there by P6, who contributes P25
(American Locomotive Co.).
"""

from __future__ import annotations

import pytest
from usa_tracecheck import position_in

from engine.titles.g18usa.operating_trains import bank_prices

LOG = "s8604"
TP_STARTED = 148  # P6 has started TP and contributed P25


def test_p25_lets_its_company_pay_the_bank_ten_percent_less_or_the_full_price() -> None:
    game = position_in(LOG, TP_STARTED)
    train = game.depot.next_train()
    assert train.name == "2" and train.price == 100
    assert bank_prices(game, game.corporations["TP"], train) == [90, 100]
    assert bank_prices(game, game.corporations["GN"], train) == [100]


@pytest.mark.parametrize(("size", "liquidated"), [(2, False), (5, False), (10, True)])
def test_only_a_10_share_company_is_liquidated_for_stations_unpaid_at_the_end_of_the_round(
        monkeypatch: pytest.MonkeyPatch, size: int, liquidated: bool) -> None:
    game = position_in(LOG, TP_STARTED)
    monkeypatch.setattr(game, "company_size", lambda corporation: size)
    assert game.liquidates_for_unpaid_stations(game.corporations["TP"]) is liquidated


def test_the_resource_subsidy_closes_once_its_resource_tile_is_laid() -> None:
    """11.6.1 (S16): the company's lay of a resource the subsidy offers is the subsidy's lay."""
    game = position_in("s8603", 494)
    mkt = game.corporations["MKT"]
    assert game.owns(mkt, "S16") and "oil" in game.umap.setup.resource_subsidy_resources
    game.apply({"type": "lay_tile", "entity": "MKT", "entity_type": "corporation", "hex": "I23",
                "tile": "8oil-0", "rotation": 3})
    assert not game.owns(mkt, "S16")


def test_p14_contributed_to_a_new_company_closes() -> None:
    """P14 (Pyramid Scheme) has no power: it counts toward the funding, then closes (s8603: P2
    contributes P8 and P14 to WP at 857-858)."""
    game = position_in("s8603", 859)
    assert game.companies["P14"].closed
    assert [c.id for c in game.companies_of(game.corporations["WP"])] == ["P8"]

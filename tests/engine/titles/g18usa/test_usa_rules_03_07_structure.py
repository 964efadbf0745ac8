"""18USA rules 3 (the round sequence), 5 and 6.1 (the market and the operating order), 7.2
(company sizes) and 10 (the private auction), at logged positions (s8403)."""

from __future__ import annotations

import pytest
from usa_positions import log_named, replayed

from engine.errors import GameError
from engine.legal import legal_moves

ACTIONS = log_named("s8403")["actions"]


def test_3_auction_then_stock_round_then_two_operating_rounds_each_with_an_m_and_a_round() -> None:
    game = replayed("s8403", 300)
    titles = [line for line in game.log if "Round " in line and line.split(" Round ")[0] in (
        "Stock", "Operating", "Merger and Conversion", "Acquisition")]
    assert titles[:8] == ["Stock Round 1", "Operating Round 1.1", "Merger and Conversion Round 1.1",
                          "Acquisition Round 1.1", "Operating Round 1.2", "Merger and Conversion Round 1.2",
                          "Acquisition Round 1.2", "Stock Round 2"]
    assert replayed("s8403", 0).round.name == "Auction Round"


def test_5_6_1_operating_order_by_price_then_the_first_token_in_a_space() -> None:
    game = replayed("s8403", 300)
    order = [corp.id for corp in game.operating_order()]
    assert order == ["NP", "N&W", "UP"]
    prices = [game.share_price(game.corporations[c]) for c in order]
    assert prices == sorted(prices, reverse=True)
    # UP moves into N&W's space: it goes under N&W and operates after it; N&W leaving and coming
    # back goes under UP.
    game.market.move("UP", "right", game.market.cell_of("N&W").col - game.market.cell_of("UP").col)
    assert game.market.cell_of("UP") is game.market.cell_of("N&W")
    assert [corp.id for corp in game.operating_order()] == ["NP", "N&W", "UP"]
    game.market.move("N&W", "right", 1)
    game.market.move("N&W", "left", 1)
    assert [corp.id for corp in game.operating_order()] == ["NP", "UP", "N&W"]


def test_5_the_market_from_42_to_800_starting_prices_50_to_200() -> None:
    game = replayed("s8403", 0)
    ordinary = sorted(cell.price for cell in game.market.cells.values() if cell.price)
    assert (ordinary[0], ordinary[-1]) == (42, 800)
    starts = sorted(cell.price for cell in game.market.par_cells())
    assert (starts[0], starts[-1]) == (50, 200)


def test_7_2_company_sizes_and_their_certificates() -> None:
    by_size: dict[int, list[int]] = {}
    for game in (replayed("s8403", 300), replayed("s8403", 700)):
        for corp in game.corporations.values():
            if corp.id in game.market.position and not any(s.percent < 0 for s in corp.shares):
                by_size.setdefault(game.company_size(corp), sorted(
                    (s.percent for s in corp.shares), reverse=True))
    assert by_size[2] == [100]
    assert by_size[5] == [40, 20, 20, 20]
    assert by_size[10] == [20] + [10] * 8


def test_10_auction_bids_from_half_face_value_in_multiples_of_5() -> None:
    game = replayed("s8403", 0)
    (bid,) = [move for move in legal_moves(game) if move["type"] == "bid"]
    minimum = {choice["company"]: choice["min"] for choice in bid["choices"]}
    values = {company.id: company.value for company in game.companies.values() if company.id in minimum}
    assert all(minimum[c] == values[c] // 2 for c in minimum if c != "P14")
    assert minimum["P14"] == 5  # the Pyramid Scheme's minimum
    assert all(choice["step"] == 5 for choice in bid["choices"])
    for price, why in ((40, "at least"), (47, "multiples of \\$5")):
        with pytest.raises(GameError, match=why):
            game.apply({"type": "bid", "entity": "P1", "entity_type": "player", "company": "P25", "price": price})
    assert game.player("P1").cash == 315


def test_10_the_last_bidder_pays_and_the_turn_goes_left_of_the_starter() -> None:
    game = replayed("s8403", 9)  # P1 opened P25 at $45; P3 won at $105 when P4 passed
    p25 = game.companies["P25"]
    assert p25.owner is game.player("P3") and game.player("P3").cash == 315 - 105
    assert [player.id for player in game.acting_players()] == ["P2"]

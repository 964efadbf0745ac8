"""Rulebook section 4: the stock market (moves themselves are exercised in 11 and 12.5/12.7)."""

from __future__ import annotations

from engine_helpers import make_game


def test_4_five_pink_starting_squares() -> None:
    market = make_game().state.market
    assert sorted((c.price, c.row, c.col) for c in market.par_cells()) == [
        (70, 4, 2), (75, 4, 3), (82, 3, 3), (90, 3, 4), (100, 2, 4)]


def test_4_tokens_move_up_down_left_right_with_arrows_and_ledge() -> None:
    market = make_game().state.market
    cells = market.cells
    for (row, col), cell in cells.items():
        below = (row + 1, col) in cells
        # The ledge: no space below, so a down move stays (11.1, 12.7).
        assert cell.target("down") == ((row + 1, col) if below else (row, col))
        assert cell.on_ledge == (not below)
        # Up: impossible on the top row (11.3).
        assert cell.target("up") == ((row - 1, col) if row > 0 else (row, col))
        # Right, or up at the end of a row (the up arrows); nothing at the top right (12.5).
        if (row, col + 1) in cells:
            assert cell.target("right") == (row, col + 1)
        else:
            assert cell.target("right") == ((row - 1, col) if row > 0 else (row, col))
        # Left, or down at the start of a row (the down arrows); nothing at the bottom left (12.5).
        if col > 0:
            assert cell.target("left") == (row, col - 1)
        else:
            assert cell.target("left") == ((row + 1, col) if below else (row, col))


def test_4_prices_rise_to_the_right_and_upwards() -> None:
    cells = make_game().state.market.cells
    for (row, col), cell in cells.items():
        if (row, col + 1) in cells:
            assert cells[(row, col + 1)].price > cell.price
        if (row + 1, col) in cells:
            assert cells[(row + 1, col)].price < cell.price

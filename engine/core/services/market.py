"""Stock markets: cells, the moves between them, and the stacking order of tokens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Cell:
    """One space of the stock market."""

    row: int
    col: int
    price: int
    engine_id: str
    moves: tuple[tuple[str, tuple[int, int]], ...]
    is_par: bool
    types: tuple[str, ...] = ()
    on_ledge: bool = False
    up_arrow: bool = False
    down_arrow: bool = False

    def __deepcopy__(self, memo: dict[int, Any]) -> Cell:
        return self

    def target(self, direction: str) -> tuple[int, int]:
        return dict(self.moves)[direction]

    @property
    def coordinates(self) -> tuple[int, int]:
        return (self.row, self.col)


class StockMarket:
    """A grid of cells (a single row for one-dimensional markets) with token stacks."""

    def __init__(self, market_data: dict[str, Any]) -> None:
        par_ids = set(market_data.get("par_cells", ()))
        self.cells: dict[tuple[int, int], Cell] = {}
        self.by_id: dict[str, Cell] = {}
        for row in market_data["grid"]:
            for raw in row:
                cell = Cell(
                    row=raw["row"],
                    col=raw["col"],
                    price=raw["price"],
                    engine_id=raw["engine_id"],
                    moves=tuple((k, (v[0], v[1])) for k, v in raw["moves"].items()),
                    is_par=raw["engine_id"] in par_ids or "par" in raw.get("types", ()),
                    types=tuple(raw.get("types", ())),
                    on_ledge=bool(raw.get("on_ledge")),
                    up_arrow=bool(raw.get("right_move_goes_up")),
                    down_arrow=bool(raw.get("left_move_goes_down")),
                )
                self.cells[(cell.row, cell.col)] = cell
                self.by_id[cell.engine_id] = cell
        # Tokens on each cell, top of the stack first.
        self.stacks: dict[tuple[int, int], list[str]] = {key: [] for key in self.cells}
        self.position: dict[str, tuple[int, int]] = {}

    def par_cells(self) -> list[Cell]:
        return [cell for cell in self.cells.values() if cell.is_par]

    def cell_of(self, corporation: str) -> Cell:
        return self.cells[self.position[corporation]]

    def place(self, corporation: str, cell: Cell) -> None:
        """Put a token on a cell; it goes to the bottom of any stack already there."""
        self.stacks[cell.coordinates].append(corporation)
        self.position[corporation] = cell.coordinates

    def remove(self, corporation: str) -> None:
        where = self.position.pop(corporation, None)
        if where is not None:
            self.stacks[where].remove(corporation)

    def move(self, corporation: str, direction: str, steps: int = 1) -> bool:
        """Move a token; a token that cannot move keeps its place in its stack."""
        start = self.position[corporation]
        where = start
        for _ in range(steps):
            where = self.cells[where].target(direction)
        if where == start:
            return False
        self.stacks[start].remove(corporation)
        self.stacks[where].append(corporation)
        self.position[corporation] = where
        return True

    def stack_index(self, corporation: str) -> int:
        return self.stacks[self.position[corporation]].index(corporation)

    def operating_key(self, corporation: str) -> tuple[int, int, int, int]:
        """Sort key: higher price first, then further right, then higher up, then top of stack."""
        cell = self.cell_of(corporation)
        return (-cell.price, -cell.col, cell.row, self.stack_index(corporation))

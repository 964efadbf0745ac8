"""The market and table adapters on the core's tiny title: a one-row market with a liquidation
space, companies of 5 and 2 shares, short sales, an unlimited bank and unlimited trains (the
parts of 18USA's pictures that need no 18USA code)."""

from __future__ import annotations

from tiny_title import Tiny

from render.from_engine import market_view, table_view

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]


def started() -> Tiny:
    """Ann starts X at $50 (5 shares), Bob Y at $60 (2 shares), each with a home station."""
    game = Tiny(PLAYERS, 1)
    for action in ({"type": "par", "entity": "A", "corporation": "X", "share_price": "50,0,2"},
                   {"type": "place_token", "entity": "A", "city": "A1-0-0"},
                   {"type": "par", "entity": "B", "corporation": "Y", "share_price": "60,0,3"},
                   {"type": "place_token", "entity": "B", "city": "B2-0-0"}):
        game.process({"entity_type": "player", **action})
    return game


def test_one_row_market_with_its_liquidation_space() -> None:
    game = started()
    view = market_view(game)
    assert view.kind == "1d" and len(view.cells) == len(game.market.cells)
    first = view.cells[0]
    assert (first.zone, first.label, first.price) == ("liquidation", "liquidation", 0)
    assert all(cell.zone is None for cell in view.cells[1:])
    stacks = {cell.price: [t.corporation for t in cell.tokens] for cell in view.cells if cell.tokens}
    assert stacks == {50: ["X"], 60: ["Y"]}


def test_company_sizes_and_the_area_a_price_is_in() -> None:
    game = started()
    game.market.remove("X")
    game.market.place("X", game.market.cells[(0, 0)])
    rows = {row.id: row for row in table_view(game).corporations}
    assert (rows["X"].size, rows["Y"].size) == (5, 2)
    assert (rows["X"].area, rows["Y"].area) == ("liquidation", None)
    assert rows["X"].loans is None  # the tiny title has no loans


def test_shorts_apart_from_the_shares_held() -> None:
    game = started()
    before = table_view(game).players
    game.ledger.short(game.corporations["Y"], game.player("A"), game.pool)
    ann, bob = table_view(game).players
    assert ann.shorts == ("Y \u00d71",) and bob.shorts == () and before[0].shorts == ()
    assert ann.certs == before[0].certs == ("X 40%P",)  # a negative certificate is not a share held
    assert bob.certs == before[1].certs


def test_unlimited_bank_and_trains() -> None:
    game = started()
    view = table_view(game)
    assert view.bank_cash is None and view.loan_bank is None
    # The depot makes 3-trains only when they are reached; the table lists them from the start.
    assert [(row.train, row.count) for row in view.depot] == [("2", 2), ("3", None)]
    for _ in range(3):  # both 2-trains and the first 3-train
        train = game.depot.next_train()
        assert train is not None
        game.depot.take(train)
    assert [(row.train, row.count) for row in table_view(game).depot] == [("3", None)]

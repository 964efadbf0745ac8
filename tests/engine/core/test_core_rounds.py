"""The core alone, on the tiny synthetic title: rounds built from steps in a declared sequence,
interrupting steps in any round, skipping who has no legal action, a title's own action type,
negative holdings, an unlimited bank and a one-row market."""

from __future__ import annotations

from typing import Any

import pytest
from tiny_title import LICENCE, Tiny

from engine.core.entities import Player
from engine.core.steps.trains import buyable_trains
from engine.core.stock_round import StockRound
from engine.errors import GameError
from engine.legal import is_offered, legal_moves

PLAYERS = [{"id": "A", "name": "Ann"}, {"id": "B", "name": "Bob"}]


def new() -> Tiny:
    return Tiny(PLAYERS, 1)


def act(game: Tiny, kind: str, entity: Any, entity_type: str = "player", **fields: Any) -> None:
    action = {"type": kind, "entity": entity, "entity_type": entity_type, **fields}
    assert is_offered(game, action), f"not offered: {action}; offered: {legal_moves(game)}"
    game.process(action)


def refused(game: Tiny, kind: str, entity: Any, match: str, entity_type: str = "player", **fields: Any) -> None:
    before = (game.round_label(), [p.cash for p in game.players], list(game.log))
    with pytest.raises(GameError, match=match):
        game.process({"type": kind, "entity": entity, "entity_type": entity_type, **fields})
    assert (game.round_label(), [p.cash for p in game.players], list(game.log)) == before


def player(game: Tiny, key: str) -> Player:
    return game.player(key)


def started() -> Tiny:
    """Ann starts X at $50 (5 shares) and Bob Y at $60 (2 shares); each places the home station."""
    game = new()
    act(game, "par", "A", corporation="X", share_price="50,0,2")
    act(game, "place_token", "A", city="A1-0-0")
    act(game, "par", "B", corporation="Y", share_price="60,0,3")
    act(game, "place_token", "B", city="B2-0-0")
    return game


def play_one(game: Tiny) -> None:
    """Pass where passing is offered; otherwise take the first choice of the first move."""
    moves = legal_moves(game)
    move = next((m for m in moves if m["type"] == "pass"), moves[0])
    choice = (move.get("choices") or [{}])[0]
    fields = {k: v for k, v in choice.items() if k in ("train", "price", "kind", "corporation", "shares",
                                                      "percent", "city")}
    if "min_price" in choice:
        fields["price"] = choice["min_price"]
    act(game, move["type"], move["entity"], move["entity_type"], **fields)


def play_until(game: Tiny, done: Any) -> None:
    for _ in range(50):
        if done():
            return
        play_one(game)
    raise AssertionError("did not get there")


def finish_stock_round(game: Tiny) -> None:
    while isinstance(game.round, StockRound):
        act(game, "pass", game.round.current(game).id)


def test_a_floating_company_s_home_station_interrupts_the_stock_round() -> None:
    game = new()
    act(game, "par", "A", corporation="X", share_price="50,0,2")
    assert game.corporations["X"].floated and game.round.title(game) == "Stock Round 1"
    # The stock round waits for Ann's station: Bob's turn comes only after it.
    assert [m["type"] for m in legal_moves(game)] == ["place_token"]
    assert [p.key for p in game.acting_players()] == ["A"]
    refused(game, "pass", "B", r"A must first place X's station in A1")
    act(game, "place_token", "A", city="A1-0-0")
    assert game.board.token_hexes("X") == [("A1", 0)]
    assert game.round.current(game).key == "B" and not game.pending_tokens


def test_companies_of_5_and_2_shares_cost_their_president_s_certificate() -> None:
    game = started()
    assert [s.percent for s in game.corporations["X"].shares] == [40, 20, 20, 20]
    assert [s.percent for s in game.corporations["Y"].shares] == [50, 50]
    assert player(game, "A").cash == 300 - 2 * 50 and player(game, "B").cash == 300 - 60


def test_the_round_sequence_is_the_title_s_data() -> None:
    game = started()
    finish_stock_round(game)
    titles = [game.round.title(game)]
    for _ in range(40):
        if game.round.title(game) != titles[-1]:
            titles.append(game.round.title(game))
        if titles[-1] == "Stock Round 2":
            break
        play_one(game)
    assert titles == ["Operating Round 1.1", "Short Round", "Stock Round 2"]


def test_a_player_who_cannot_pay_a_debt_raises_cash_in_an_interrupting_step() -> None:
    game = started()
    act(game, "buy_shares", "A", shares=["X_1"])  # Ann: 200 - 50
    act(game, "buy_shares", "B", shares=["Y_1"])  # Bob: 240 - 60, all of Y
    act(game, "buy_shares", "A", shares=["X_2"])  # Ann: 100
    act(game, "buy_shares", "B", shares=["X_3"])
    act(game, "pass", "A")
    game.players[0].cash = 30  # Ann has spent her money elsewhere
    act(game, "pass", "B")
    # Operating round: Y (the higher price) first, then X, whose president Ann owes the licence.
    assert game.round.title(game) == "Operating Round 1.1"
    play_until(game, lambda: bool(game.cash_crisis))
    assert game.cash_crisis and game.cash_crisis[0].amount == LICENCE
    assert [p.key for p in game.acting_players()] == ["A"]
    moves = legal_moves(game)
    assert [m["type"] for m in moves] == ["sell_shares"]
    refused(game, "pass", "X", r"Ann owes \$100 for X's licence and must first sell shares", "corporation")
    sale = moves[0]["choices"][0]  # one X share, $50: not yet enough
    act(game, "sell_shares", "A", shares=sale["shares"], percent=sale["percent"])
    assert game.cash_crisis and player(game, "A").cash == 80
    sale = legal_moves(game)[0]["choices"][0]
    act(game, "sell_shares", "A", shares=sale["shares"], percent=sale["percent"])
    assert not game.cash_crisis and "Ann pays $100 for X's licence" in game.log
    assert game.round.title(game) == "Operating Round 1.1"  # the round goes on where it was


def test_a_player_with_nothing_to_sell_goes_bankrupt_in_the_crisis() -> None:
    game = started()
    state_before = len(game.log)
    ann = player(game, "A")
    for share in list(game.corporations["X"].shares):
        if share.owner is ann and not share.president:
            game.ledger.move(share, game.pool)
    ann.cash = 0
    from engine.core.steps.cash_crisis import demand_payment

    assert not demand_payment(game, ann, 50, game.bank, "a fine")
    assert len(game.log) > state_before
    # Her only certificate is the president's, which no one can take over: nothing to sell.
    assert [m["type"] for m in legal_moves(game)] == ["bankrupt"]
    act(game, "bankrupt", "A")
    assert ann.bankrupt and game.finished and game.end_reason == "bankrupt"


def test_a_player_with_no_legal_action_is_skipped_and_the_skip_is_their_turn() -> None:
    game = started()
    act(game, "buy_shares", "A", shares=["X_1"])
    act(game, "buy_shares", "B", shares=["X_2"])  # Bob holds both X and Y; Ann holds only X
    finish_stock_round(game)
    play_until(game, lambda: game.round.name == "Short Round")
    # Ann may short Y; Bob holds shares of every floated company, so he is passed over.
    act(game, "short", "A", corporation="Y")
    assert "Bob has nothing to sell short" in game.log
    assert game.round.name == "Stock Round"


def test_a_short_sale_is_a_title_action_that_makes_a_negative_holding() -> None:
    game = started()
    finish_stock_round(game)
    play_until(game, lambda: game.round.name == "Short Round")
    cash = player(game, "A").cash
    refused(game, "short", "A", r"Ann may not sell X short", corporation="X")
    act(game, "short", "A", corporation="Y")
    y = game.corporations["Y"]
    assert game.ledger.percent_of(y, player(game, "A")) == -50
    assert player(game, "A").cash == cash + game.share_price(y)
    assert sum(s.percent for s in y.shares) == 100


def test_an_unlimited_bank_pays_without_breaking_and_the_game_goes_on() -> None:
    game = started()
    assert game.bank.unlimited
    game.transfer(game.bank, player(game, "A"), 10**6)
    assert not game.bank_broken and game.end_after_operating_set() is None


def test_over_the_limit_a_company_discards_in_an_interrupting_step_to_the_open_market() -> None:
    game = started()
    finish_stock_round(game)
    x, y = game.corporations["X"], game.corporations["Y"]
    for corp in (x, x):  # X owns both 2-trains
        train = game.depot.next_train()
        assert train is not None
        game.depot.take(train)
        train.owner = corp
        corp.trains.append(train)
    x.cash = y.cash = 1000
    # Y operates first and buys the first 3-train: phase 3 lowers the limit to 1.
    play_until(game, lambda: any(m["type"] == "buy_train" for m in legal_moves(game)))
    assert game.round.acting_entity(game) is y
    act(game, "buy_train", "Y", "corporation", train="3-0", price=150)
    assert game.phase.name == "3"
    assert [m["type"] for m in legal_moves(game)] == ["discard_train"]
    refused(game, "pass", "Y", r"X is over its train limit", "corporation")
    act(game, "discard_train", "X", "corporation", train="2-0")
    x = game.corporations["X"]  # a refused action leaves the game as a copy of itself
    assert [t.id for t in game.depot.discarded] == ["2-0"] and len(x.trains) == 1
    # The discarded train is for sale again in the open market, at face value, to a company with room.
    x.trains.clear()
    assert {"train": "2-0", "price": 80, "variant": "2", "from": "depot"} in buyable_trains(game, x)


def test_the_depot_never_runs_out_of_an_unlimited_train() -> None:
    game = new()
    names = []
    for _ in range(5):
        train = game.depot.next_train()
        assert train is not None
        names.append(train.name)
        game.depot.take(train)
    assert names == ["2", "2", "3", "3", "3"]


def test_the_market_is_one_row_and_par_costs_the_president_s_certificate() -> None:
    game = new()
    cells = game.market.cells
    assert {row for row, _ in cells} == {0}
    pars = [m for m in legal_moves(game) if m["type"] == "par"][0]["choices"]
    assert {(c["corporation"], c["price"], c["cost"]) for c in pars} == {
        ("X", 50, 100), ("X", 60, 120), ("Y", 50, 50), ("Y", 60, 60)}

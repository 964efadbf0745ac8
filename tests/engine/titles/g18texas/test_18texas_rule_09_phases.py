"""Rulebook sections 8 and 9: phases, rusting, private closure and the number of operating rounds."""

from __future__ import annotations

import pytest
from engine_helpers import (
    Setup,
    corp,
    finish_stock_round,
    finish_turn,
    operating,
    or_game,
    play,
    player,
    skip_to_step,
)

from engine.core.operating_round import OperatingRound
from engine.core.stock_round import StockRound
from engine.log import Game

# Trains sold before each phase's first train (direct setup empties the depot up to it).
BEFORE = {"3": ("2",), "4": ("2", "3"), "5": ("2", "3", "4"), "6": ("2", "3", "4", "5"),
          "8": ("2", "3", "4", "5", "6")}
PREVIOUS = {"3": "2", "4": "3", "5": "4", "6": "5", "8": "6"}


def prepare_without_trains(setup: Setup, train: str) -> None:
    for name in BEFORE[train]:
        setup.remove_depot_trains(name)
    setup.phase(PREVIOUS[train])
    setup.cash("SP", 1000)


def game_at_first(train: str, sp: tuple[str, ...] = (), mp: tuple[str, ...] = ()) -> Game:
    """SP ($1000) at its buy-trains step, the first `train` next in the depot; MP (B president)
    owns `mp`, SP owns `sp`.  The phase is the one before `train` (direct setup)."""
    def prepare(setup: Setup) -> None:
        setup.company("MP", "90,3,4", {"B": 30})
        for name in sp:
            setup.give_train("SP", name)
        for name in mp:
            setup.give_train("MP", name)
        prepare_without_trains(setup, train)
    game = or_game(prepare=prepare)
    skip_to_step(game, "buy_train")
    return game


def names(game: Game, company: str) -> list[str]:
    return [t.name for t in corp(game, company).trains]


def buy_next(game: Game) -> None:
    train = game.state.depot.next_train()
    play(game, "buy_train", "SP", train=train.id, price=train.price)


@pytest.mark.parametrize(("train", "limit"), [("3", 4), ("4", 3), ("5", 2), ("6", 2), ("8", 2)])
def test_9_each_phase_starts_with_its_first_train_and_sets_the_train_limit(train: str, limit: int) -> None:
    game = game_at_first(train)
    assert game.state.phase.name == PREVIOUS[train]
    buy_next(game)
    assert game.state.phase.name == train
    assert game.state.train_limit(corp(game, "SP")) == limit


def test_9_phase_2_limit_is_four() -> None:
    game = or_game()
    assert game.state.phase.name == "2" and game.state.train_limit(corp(game, "SP")) == 4


def test_9_the_first_4_train_rusts_every_2_train() -> None:
    game = game_at_first("4", sp=("2",), mp=("2", "3"))
    buy_next(game)
    assert names(game, "SP") == ["4"] and names(game, "MP") == ["3"]


def test_9_the_first_6_train_rusts_the_3_trains() -> None:
    game = game_at_first("6", sp=("3",), mp=("3", "5"))
    buy_next(game)
    assert names(game, "SP") == ["6"] and names(game, "MP") == ["5"]


def test_9_the_first_8_train_rusts_the_4_trains() -> None:
    game = game_at_first("8", sp=("4",), mp=("4", "6"))
    buy_next(game)
    assert names(game, "SP") == ["8"] and names(game, "MP") == ["6"]


def test_9_rusted_trains_leave_the_game() -> None:
    game = game_at_first("4", sp=("2",))
    old = corp(game, "SP").trains[0]
    buy_next(game)
    assert old.owner is None and old not in game.state.depot.trains


def test_9_phase_5_closes_all_private_companies_without_compensation() -> None:
    game = game_at_first("5")
    state = game.state
    cash = {p.key: p.cash for p in state.players}
    values = {p.key: state.player_value(p) for p in state.players}
    buy_next(game)
    assert all(company.closed for company in state.companies.values())
    assert {p.key: p.cash for p in state.players} == cash
    # Their face value no longer counts for their owners.
    assert state.player_value(player(game, "A")) == values["A"] - 50
    # Closed companies no longer pay and no longer count towards the certificate limit.
    assert state.certificate_count(player(game, "B")) == 3


def test_8_operating_rounds_per_set_change_only_after_the_next_stock_round() -> None:
    game = game_at_first("3")
    buy_next(game)
    assert game.state.phase.name == "3"
    state = game.state
    while isinstance(state.round, OperatingRound):
        finish_turn(game)
    # Phase 3 began during the single operating round of phase 2: the stock round follows.
    assert isinstance(state.round, StockRound)
    finish_stock_round(game)
    assert state.operating_rounds == 2 and state.round_num == 1
    while isinstance(state.round, OperatingRound) and state.round_num == 1:
        finish_turn(game)
    assert isinstance(state.round, OperatingRound) and state.round_num == 2
    assert operating(game) == "SP"


def test_8_three_operating_rounds_from_phase_5() -> None:
    game = game_at_first("5")
    buy_next(game)
    state = game.state
    while isinstance(state.round, OperatingRound):
        finish_turn(game)
    finish_stock_round(game)
    assert state.operating_rounds == 3

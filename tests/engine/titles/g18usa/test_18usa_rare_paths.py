"""Random 18USA games by the rare-path player (`usa_rare_policy`): the same invariants as the
property tests (`test_18usa_properties.py`), with loans and trains conserved after every action
(`usa_conservation`), in games that go through private companies' powers, contributions,
conversions, mergers, acquisitions and shorts (`usa_paths`). Two short games here; hundreds, to
the late phases with liquidations and bankruptcies: `python bench/usa_properties.py --policy rare`.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any

import pytest
from usa_conservation import TrainLedger, broken_loans, broken_out_of_play
from usa_random_play import Played, concrete, new_random_game, pick, play_random_game, process

from engine import GameError
from engine.core.family1817.acquisition_round import AcquisitionRound
from engine.core.game import BaseGame
from engine.legal import legal_moves

CAP = 300  # actions: the first merger and acquisition rounds, a few seconds a game
GAMES = [(6, 2), (4, 4)]
# What two such games meet between them (each of them in most games of the bench's 200).
EARLY_PATHS = ("private power", "private contributed", "conversion", "merger", "acquisition offer",
               "acquisition bid", "company bought", "short")


@functools.cache
def played(count: int, seed: int) -> Played:
    return play_random_game(count, seed, CAP, policy="rare")


@pytest.mark.parametrize(("count", "seed"), GAMES, ids=[f"{c}p-seed{s}" for c, s in GAMES])
def test_rare_path_play_keeps_the_invariants(count: int, seed: int) -> None:
    result = played(count, seed)
    if result.failure is not None:
        pytest.fail(result.failure, pytrace=False)
    assert result.actions == CAP or result.game.finished


def test_rare_path_play_goes_through_the_rare_paths() -> None:
    met: Counter[str] = Counter()
    for count, seed in GAMES:
        met.update(played(count, seed).paths)
    missing = [path for path in EARLY_PATHS if not met[path]]
    assert not missing, f"the rare player's games met none of {missing}: {dict(met)}"


def test_a_loan_held_outside_the_companies_is_not_conserved() -> None:
    state = new_random_game(4, 1).state
    assert broken_loans(state) == []
    state.loans.held["XX"] = 2
    assert broken_loans(state) == [
        "loans are not conserved: 0 in companies and 68 left in the bank make 68, not the 70 there are "
        "(held: {'XX': 2})"]


def test_a_train_may_leave_the_depot_only_in_export_order() -> None:
    state = new_random_game(4, 1).state
    ledger = TrainLedger(state)
    exported = state.depot.trains[0]
    state.depot.take(exported)  # the unlimited 2-train is made anew in its place
    assert ledger.broken(state, {"type": "pass"}) == []
    lost = state.depot.trains[-1]
    state.depot.trains.remove(lost)
    assert ledger.broken(state, {"type": "pass"}) == [
        f"train {lost.id} left the game from the depot (not exported, rusted, obsolete, scrapped, discarded "
        f"or retired)"]


def test_a_train_in_two_places_or_back_from_the_scrap_heap_is_found() -> None:
    state = new_random_game(4, 1).state
    ledger = TrainLedger(state)
    last = state.depot.trains[-1]
    state.depot.trains.remove(last)
    ledger.broken(state, {"type": "scrap_train", "train": last.id})
    company = next(iter(state.corporations.values()))
    company.trains.append(last)
    assert ledger.broken(state, {"type": "pass"}) == [f"train {last.id} came back after leaving the game"]
    state.depot.trains.append(last)
    assert ledger.broken(state, {"type": "pass"}) == [
        f"train {last.id} is both in the depot and in {company.id}"]


def test_a_company_out_of_play_and_a_bankrupt_player_hold_nothing() -> None:
    state = new_random_game(4, 1).state
    assert broken_out_of_play(state) == []
    company = state.corporations["PRR"]
    company.cash = 30
    company.trains.append(state.depot.trains[0])
    state.loans.held["PRR"] = 1
    player = state.players[0]
    player.bankrupt = True
    state.ledger.move(company.shares[0], player)
    assert broken_out_of_play(state) == [
        "PRR is out of play and holds $30",
        f"PRR is out of play and holds trains ['{state.depot.trains[0].id}']",
        "PRR is out of play and holds 1 loans",
        f"PRR is out of play and holds certificates in others' hands {company.shares[0].id}",
        f"{player.name} is bankrupt and holds ${player.cash} and shares ['{company.shares[0].id}']"]


# The moves of the rare paths whose every offered choice is tried (a private company's own moves
# are tried by their entity type; bids in the acquisition round only).
RARE_MOVES = frozenset({"convert", "merge", "short", "assign", "bid"})
TRIES = 80  # copies of the position tried, about 0.05 s each


def rare_moves(state: BaseGame, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    selling = isinstance(state.round, AcquisitionRound)
    return [move for move in moves if move["entity_type"] == "company"
            or move["type"] in RARE_MOVES and (move["type"] != "bid" or selling)]


def test_every_offered_rare_move_is_accepted() -> None:
    """Each choice of each rare-path move offered in a rare player's game (a private's power, a
    contribution, a conversion, a merger, a friendly sale's offer, a bid in an acquisition, a
    buyer named, a short) is accepted, tried on a copy of the position."""
    rng = random.Random(4)
    game = new_random_game(4, 4)
    refused: list[str] = []
    tried: Counter[str] = Counter()
    for _ in range(CAP):
        if game.finished or sum(tried.values()) >= TRIES:
            break
        moves = legal_moves(game.state)
        for move in rare_moves(game.state, moves):
            for choice in (move.get("choices") or [None])[:3]:
                offered = move | {"choices": [choice]} if choice is not None else move
                action = concrete(game.state, offered, rng)
                tried[move["type"]] += 1
                try:
                    game.state.snapshot().process(action)
                except GameError as error:
                    refused.append(f"{action}: {error}")
        process(game, concrete(game.state, pick(game.state, moves, rng, "rare"), rng))
    assert {"convert", "merge", "short", "assign", "bid"} <= tried.keys(), f"tried only {dict(tried)}"
    if refused:
        pytest.fail(f"{len(refused)} of {sum(tried.values())} offered moves refused, e.g.\n" + "\n".join(refused[:3]),
                    pytrace=False)

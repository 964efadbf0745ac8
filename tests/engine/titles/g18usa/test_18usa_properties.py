"""Property tests for 18USA: seeded random games with 4 to 7 players, played only with moves the
legal-moves query offers (`usa_random_play.py`).

After every action: money is conserved (the bank is unlimited, so its cash, below zero, counts
what it paid and received), every company's certificates make 100% (short certificates count
below zero), loans are held only by companies in play and within each one's most and with the
bank's make the total, trains have one owner, keep the limit and leave the game only as the
rules say (`usa_conservation.py`), stations are not doubled, players keep the certificate limit and
nobody is below $0 outside a company's start and a cash crisis. Every move played is accepted,
and now and then an action that cannot be legal is tried: it must be refused and change nothing.

A failing game reports the first broken property with the action and the position. Where each
game ends is not asserted (it changes with any rule fixed); a game that reaches the action cap
is reported as a warning. More games: `STATIONMASTER_USA_PROPERTY_GAMES=40 pytest -k properties`
or `python bench/usa_properties.py`.
"""

from __future__ import annotations

import functools
import os
import random
import warnings

import pytest
from usa_random_play import (
    Played,
    concrete,
    new_random_game,
    paid_from_cash,
    pick,
    play_random_game,
    process,
)

from engine import GameError
from engine.legal import legal_moves

CAP = 1200  # actions per game; random games end well before, mostly by bankruptcy or phase 8

# (players, seed): every player count, a few seeds each; more with the environment variable.
# 6p seed 6 meets a run that counts an extender (P30): the run button attaches it first.
GAMES = [(4, 1), (5, 2), (6, 3), (7, 4), (6, 6)]
GAMES += [(4 + seed % 4, seed) for seed in range(5, 5 + int(os.environ.get("STATIONMASTER_USA_PROPERTY_GAMES", "0")))]


@functools.cache
def played(count: int, seed: int) -> Played:
    return play_random_game(count, seed, CAP)


@pytest.mark.parametrize(("count", "seed"), GAMES, ids=[f"{c}p-seed{s}" for c, s in GAMES])
def test_random_legal_play_keeps_the_invariants(count: int, seed: int) -> None:
    result = played(count, seed)
    if result.failure is not None:
        pytest.fail(result.failure, pytrace=False)
    if not result.game.finished:
        warnings.warn(f"stopped at the action cap without finishing: {result.where()}", stacklevel=1)
        return
    assert legal_moves(result.game.state) == []
    assert set(result.game.result()) == {p.key for p in result.game.state.players}


def test_random_games_reach_the_operating_rounds() -> None:
    """The games must get far enough to test something: companies run and pay out."""
    kinds: dict[str, int] = {}
    for count, seed in GAMES[:4]:
        for kind, times in played(count, seed).kinds.items():
            kinds[kind] = kinds.get(kind, 0) + times
    for kind in ("bid", "lay_tile", "place_token", "buy_train", "run_routes", "dividend", "take_loan"):
        assert kinds.get(kind, 0) > 0, f"no {kind} in the random games: {kinds}"


def test_every_offered_train_purchase_is_accepted() -> None:
    """Each train purchase the legal moves offer, at its price, is accepted (tried on a copy of
    the position), those the company pays with loans it has yet to take included."""
    rng = random.Random(11)
    game = new_random_game(5, 11)
    refused: list[str] = []
    tried = 0
    for _ in range(CAP):
        if game.finished or tried >= 40:
            break
        moves = legal_moves(game.state)
        for move in moves:
            if move["type"] != "buy_train":
                continue
            cash = game.state.corporation(str(move["entity"])).cash
            for choice in move["choices"]:
                action = concrete(game.state, move | {"choices": [choice]}, rng)
                copy = game.state.snapshot()
                tried += 1
                try:
                    copy.process(action)
                except GameError as error:
                    refused.append(f"{action} with ${cash} in the treasury: {error}")
        # Play on as the random players do (a train paid from the treasury, loans first).
        move = pick(game.state, moves, rng)
        if move["type"] == "buy_train":
            move = paid_from_cash(game.state, move) or move
        process(game, concrete(game.state, move, rng))
    assert tried, "no train purchase was offered"
    if refused:
        pytest.fail(f"{len(refused)} of {tried} offered train purchases refused, e.g.\n" + "\n".join(refused[:3]),
                    pytrace=False)

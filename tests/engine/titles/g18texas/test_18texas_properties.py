"""Property tests: many seeded random games played only with moves the legal-moves query offers.

After every action: money is conserved (bank + players + company treasuries, the bank going
negative once broken), every company still has its nine certificates making 100%, the holding
limits hold, and nothing is left half-done.  Every offered move must be accepted, and the only
exception ever raised is GameError (the engine wraps any other as an "internal error", which
fails these tests).  Now and then a move that cannot be legal is tried: it must be refused and
change nothing.

A test fails on a broken invariant, never because a random game happens to end differently
after a change of the engine: where each game ends is only looked at across all of them (at
least half must reach a real end, a bank break or a bankruptcy), and a game that stops at the
action cap without finishing is reported as a warning.
"""

from __future__ import annotations

import functools
import random
import time
import warnings
from dataclasses import dataclass
from typing import Any

import pytest
from engine_helpers import players, process_random, random_action, snapshot, total_money
from texas_deep_policy import choose_deep

from engine import GameError, new_game
from engine.core.entities import Company, Corporation, Player
from engine.core.game import BaseGame
from engine.core.operating_round import OperatingRound
from engine.core.steps.discard import crowded
from engine.core.stock_round import StockRound
from engine.log import Game

CAP = 1500  # actions per game; most games end well before by bankruptcy or a broken bank

# How often each kind of move is picked by the policies: "sensible" play, "trader" play (selling a
# lot and using the private companies' powers whenever offered); "uniform" picks any move.
WEIGHTS = {
    "sensible": {"buy_shares": 4.0, "par": 2.0, "sell_shares": 0.3, "pass": 1.0, "lay_tile": 4.0,
                 "place_token": 3.0, "buy_train": 3.0},
    "trader": {"buy_shares": 4.0, "par": 2.0, "sell_shares": 4.0, "pass": 1.0, "lay_tile": 3.0,
               "place_token": 3.0, "buy_train": 3.0, "company": 20.0},
}

# (players, seed, rule options, policy, bank cash after the players' capital, or None)
GAMES: list[tuple[int, int, list[str], str, int | None]] = [
    (3, 1, [], "sensible", None), (4, 2, ["site_rules"], "sensible", None), (5, 3, [], "sensible", None),
    (3, 4, ["site_rules"], "uniform", None), (4, 5, [], "uniform", None), (5, 6, ["site_rules"], "uniform", None),
    (3, 7, [], "sensible", None), (4, 8, ["site_rules"], "sensible", None), (5, 9, [], "sensible", None),
    (4, 10, ["site_train_prices", "site_tile_6_upgrades"], "sensible", None),
    (4, 1002, [], "trader", None), (5, 1003, ["site_rules"], "trader", None),
    # A small bank (the rest set aside) so that games reach the end by a broken bank.
    (3, 11, [], "sensible", 1500), (4, 12, ["site_rules"], "sensible", 1500),
]

IDS = [f"{g[0]}p-seed{g[1]}{'-options' if g[2] else ''}-{g[3]}{'-smallbank' if g[4] else ''}" for g in GAMES]
REAL_ENDS = ("bank", "bankrupt")


def choose(game: Game, moves: list[dict[str, Any]], rng: random.Random, policy: str) -> dict[str, Any]:
    if policy == "uniform":
        return rng.choice(moves)
    if policy == "deep":
        return choose_deep(game.state, moves, rng)
    table = WEIGHTS[policy]
    weights = [table.get("company" if move.get("entity_type") == "company" else move["type"],
                         table.get(move["type"], 1.0)) for move in moves]
    state = game.state
    if isinstance(state.round, StockRound):
        # Players short of cash mostly keep it: otherwise every game ends in an early bankruptcy.
        cash = state.round.current(state).cash
        weights = [w * (0.1 if m["type"] in ("buy_shares", "par") and cash < 250 else 1.0)
                   for w, m in zip(weights, moves, strict=True)]
    return rng.choices(moves, weights=weights)[0]


def concrete(game: Game, move: dict[str, Any], rng: random.Random, policy: str) -> dict[str, Any]:
    action = random_action(game, move, rng)
    sensible = policy not in ("uniform", "deep")  # the deep player narrowed its choices itself
    if sensible and action["type"] == "buy_train" and rng.random() < 0.8:
        depot = [c for c in move["choices"] if c.get("from") == "depot"]
        if depot:
            action.update(train=depot[0]["train"], price=depot[0]["price"])
    if sensible and action["type"] == "dividend" and rng.random() < 0.6:
        action["kind"] = "payout"
    return action


def check_invariants(state: BaseGame, money: int) -> None:
    assert total_money(state) == money, "money appeared or vanished"
    if not state.bank_broken:
        assert state.bank.cash >= 0
    holders_ok = (Player, Company, Corporation)
    for corp in state.corporations.values():
        assert len(corp.shares) == 9 and sum(s.percent for s in corp.shares) == 100
        assert len({s.id for s in corp.shares}) == 9
        for share in corp.shares:
            assert share.owner is state.pool or isinstance(share.owner, holders_ok)
            if isinstance(share.owner, Corporation):
                assert share.owner is corp, f"{share.id} held by {share.owner.id}"
        assert corp.percent_owned_by(state.pool) <= 50
        assert corp.cash >= 0
        if corp.ipoed and isinstance(state.round, (StockRound, OperatingRound)):
            assert isinstance(corp.president_share().owner, Player), f"{corp.id} has no president"
        for player in state.players:
            assert corp.percent_owned_by(player) <= 60
        assert state.tokens_left(corp) >= 0
        for train in corp.trains:
            assert train.owner is corp
    for player in state.players:
        assert player.cash >= 0
    trains = [t.id for c in state.corporations.values() for t in c.trains]
    assert len(trains) == len(set(trains)), "a train has two owners"
    assert not set(trains) & {t.id for t in state.depot.trains}
    rnd = state.round
    if isinstance(rnd, OperatingRound) and not crowded(state) and not state.finished:
        for corp in state.corporations.values():
            assert len(corp.trains) <= state.train_limit(corp), f"{corp.id} over its train limit"
    for coord, hex_state in state.board.hexes.items():
        here = [token for slots in hex_state.tokens for token in slots if token]
        assert len(here) == len(set(here)), f"a company has two stations in {coord}"
    for name, tile in state.board.tiles.items():
        if tile.count is not None:
            assert len(state.board.used_copies[name]) <= tile.count


def probe_refusal(game: Game, rng: random.Random) -> None:
    """An action that cannot be legal now is refused and changes nothing."""
    state = game.state
    acting = {p.key for p in state.acting_players()}
    idle = [p for p in state.players if p.key not in acting]
    probes: list[dict[str, Any]] = [
        {"type": "buy_shares", "entity": state.players[0].id, "entity_type": "player", "shares": ["XX_9"],
         "percent": 10},
        {"type": "dividend", "entity": "SP", "entity_type": "corporation", "kind": "everything"},
        {"type": "lay_tile", "entity": "SP", "entity_type": "corporation", "hex": "Z99", "tile": "9-0",
         "rotation": 0},
    ]
    if idle and isinstance(state.round, StockRound):
        probes.append({"type": "pass", "entity": rng.choice(idle).id, "entity_type": "player"})
    probe = rng.choice(probes)
    before = snapshot(game)
    result = game.result()
    with pytest.raises(GameError) as caught:
        game.process(probe)
    assert "internal error" not in str(caught.value)
    assert snapshot(game) == before and game.result() == result


@dataclass(frozen=True)
class Played:
    game: Game
    actions: int
    # The slowest legal-moves query or action processed, in wall seconds, and where (the bot
    # answers within Discord's 3 s).
    slowest: tuple[float, str] = (0.0, "")

    @property
    def ending(self) -> str:
        """How the game ended ("bank", "bankrupt", ...), or "cap" if it stopped unfinished."""
        return str(self.game.state.end_reason) if self.game.finished else "cap"

    def where(self) -> str:
        state = self.game.state
        return f"{self.actions} actions, {state.round.name}, phase {state.phase.name}"


@functools.cache
def played(count: int, seed: int, options: tuple[str, ...], policy: str, bank: int | None) -> Played:
    """One property game, played once per test session (the summary test reuses it)."""
    return play_random_game(count, seed, list(options), policy, bank)


class BrokenGame(AssertionError):
    """A broken property, with the game where it broke (for `bench/random_depth.py`)."""

    def __init__(self, message: str, game: Game, actions: int) -> None:
        super().__init__(message)
        self.game, self.actions = game, actions


def play_random_game(count: int, seed: int, options: list[str], policy: str, bank: int | None,
                     cap: int = CAP) -> Played:
    rng = random.Random(seed)
    game = new_game("18Texas", players(count), seed, options)
    state = game.state
    if bank is not None:
        # A smaller bank: the difference is simply out of the game (not part of the total).
        state.bank.cash = bank
    money = total_money(state)
    step = 0
    slowest = (0.0, "")
    for step in range(cap):
        if game.finished:
            break
        try:
            took, what = play_one(game, rng, policy, money, step)
            if took > slowest[0]:
                slowest = (took, f"action {step}, phase {game.state.phase.name}: {what}")
        except BrokenGame:
            raise
        except (AssertionError, pytest.fail.Exception) as broken:
            raise BrokenGame(f"{broken} (action {step}, phase {game.state.phase.name})", game, step) from broken
    else:
        step = cap
    return Played(game, step, slowest)


def play_one(game: Game, rng: random.Random, policy: str, money: int, step: int) -> tuple[float, str]:
    """One random legal action, checked; the longer wall time of its legal-moves query and its
    processing, and which."""
    began = time.perf_counter()
    moves = game.legal_moves()
    moves_took = time.perf_counter() - began
    assert moves, f"nobody can move at action {step} in {game.state.round}"
    move = choose(game, moves, rng, policy)
    action = concrete(game, move, rng, policy)
    try:
        began = time.perf_counter()
        process_random(game, action)
        action_took = time.perf_counter() - began
    except GameError as error:
        raise AssertionError(f"offered move refused at action {step}: {action}: {error}") from error
    check_invariants(game.state, money)
    if rng.random() < 0.03:
        probe_refusal(game, rng)
    if moves_took > action_took:
        return moves_took, "legal moves"
    return action_took, f"{action['type']} {action['entity']}"


@pytest.mark.parametrize(("count", "seed", "options", "policy", "bank"), GAMES, ids=IDS)
def test_random_legal_play_keeps_the_invariants(count: int, seed: int, options: list[str], policy: str,
                                                bank: int | None) -> None:
    result = played(count, seed, tuple(options), policy, bank)
    game, state = result.game, result.game.state
    if not game.finished:
        warnings.warn(f"stopped at the action cap without finishing: {result.where()}", stacklevel=1)
        return
    assert state.end_reason in ("bankrupt", "bank", "manually_ended")
    assert game.legal_moves() == []
    assert set(game.result()) == {p.key for p in state.players}


def test_most_property_games_play_to_a_real_end() -> None:
    """Random play must stay good enough to test the end of a game: at least half the games
    end by a bank break or a bankruptcy. Games that break an invariant count as not ending
    (their own test reports the break); games stopped at the cap are reported."""
    endings: dict[str, str] = {}
    for name, (count, seed, options, policy, bank) in zip(IDS, GAMES, strict=True):
        try:
            endings[name] = played(count, seed, tuple(options), policy, bank).ending
        except AssertionError:
            endings[name] = "broken"
    capped = [name for name, ending in endings.items() if ending == "cap"]
    if capped:
        warnings.warn(f"{len(capped)} of {len(GAMES)} property games stopped at the action cap of {CAP}: "
                      f"{', '.join(capped)}", stacklevel=1)
    real = [name for name, ending in endings.items() if ending in REAL_ENDS]
    assert 2 * len(real) >= len(GAMES), f"only {len(real)} of {len(GAMES)} games reach a real end: {endings}"

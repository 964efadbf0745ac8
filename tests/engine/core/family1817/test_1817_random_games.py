"""Random legal games of the synthetic family title: every offered move is accepted, refused
moves change nothing, and money, certificates and loans are conserved and within their limits."""

from __future__ import annotations

import random
from typing import Any

import pytest
from family_helpers import new, run, snapshot

from engine.core.entities import Player
from engine.errors import GameError
from engine.legal import is_offered, legal_moves


def random_action(rng: random.Random, move: dict[str, Any]) -> dict[str, Any]:
    """The move with one of its choices picked at random (a free price anywhere in its range)."""
    action = {"type": move["type"], "entity": move["entity"], "entity_type": move.get("entity_type", "player")}
    choices = move.get("choices")
    if not choices:
        return action
    choice = dict(rng.choice(choices))
    if "share" in choice:
        choice["shares"] = [choice.pop("share")]
    if "min_price" in choice:
        low, high, step = choice["min_price"], choice["max_price"], choice.get("step", 1)
        candidates = [low] + list(range(low - low % step + step, high + 1, step))
        choice["price"] = rng.choice([price for price in candidates if price <= high])
    if move["type"] not in ("bid", "buy_train"):
        choice.pop("price", None)
    if "shares" not in choice:
        choice.pop("percent", None)
    for key in ("cost", "from", "variant", "hex", "min_price", "max_price", "step"):
        choice.pop(key, None)
    action.update(choice)
    return action


def check_invariants(game: Any) -> None:
    assert sum(p.cash for p in game.players) + sum(c.cash for c in game.corporations.values()) + game.bank.cash == 0
    for corp in game.corporations.values():
        assert sum(s.percent for s in corp.shares) == 100, corp.id
        for player in game.players:
            mine = [s.percent for s in corp.shares_of(player)]
            assert not (any(p > 0 for p in mine) and any(p < 0 for p in mine)), (player.name, corp.id)
        assert corp.cash >= 0
    assert game.loans.outstanding() <= (game.loans.total or 0)
    # a player is below $0 only in a cash crisis (the debt paid in full, as on the site)
    in_crisis = {debt.player for debt in game.cash_crisis}
    assert all(p.cash >= 0 or p.key in in_crisis for p in game.players if isinstance(p, Player))


@pytest.mark.parametrize("seed", range(8))
def test_random_games_keep_the_rules(seed: int) -> None:
    rng = random.Random(seed)
    game = new(3)
    for _ in range(800):
        if game.finished:
            break
        moves = legal_moves(game)
        assert moves, f"no legal move in {game.round_label()}"
        move = rng.choice(moves)
        if move["type"] == "run_routes":
            run(game, str(move["entity"]))
            check_invariants(game)
            continue
        action = random_action(rng, move)
        assert is_offered(game, action), (action, moves)
        game.process(action)
        check_invariants(game)
        # a move the rules refuse changes nothing
        wrong = {"type": "take_loan", "entity": rng.choice(list(game.corporations)), "entity_type": "corporation"}
        if not is_offered(game, wrong):
            before = snapshot(game)
            with pytest.raises(GameError):
                game.process(wrong)
            assert snapshot(game) == before

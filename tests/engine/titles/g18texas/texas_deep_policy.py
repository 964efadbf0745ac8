"""The deep random player for 18Texas (`test_18texas_properties.choose` with policy "deep").

Random games with the other policies mostly end in a bankruptcy by the fourth or fifth phase: a
company loses its trains to rusting with no money for the next, and its president, who spent
everything on shares, cannot pay for it (rule 12.6). The deep player is still random among the
legal moves, but plays for a long game: players keep a reserve, companies run their best,
buy a train from the bank whenever they have too few, keep their earnings when the next train
would be out of reach, issue shares for a train (12.7), and use the private companies' powers.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core.game import BaseGame
from engine.core.stock_round import StockRound

PLAYER_RESERVE = 120  # what a player keeps back from pars and share purchases, for a forced train
WEIGHTS = {"lay_tile": 6.0, "place_token": 3.0, "buy_train": 6.0, "run_routes": 1.0, "buy_shares": 4.0,
           "par": 3.0, "sell_shares": 0.3, "pass": 1.0, "bankrupt": 0.001, "bid": 2.0}


def cheapest_depot_train(move: dict[str, Any]) -> int | None:
    prices = [c["price"] for c in move.get("choices", ()) if c.get("from") == "depot" and "price" in c]
    return min(prices) if prices else None


def next_train_price(state: BaseGame) -> int:
    """The price of the bank's next train (what a company keeps its earnings for)."""
    train = state.depot.next_train()
    return train.price if train is not None else 0


def weighed(state: BaseGame, move: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    """A move's weight, and the move narrowed to the choices the deep player would make."""
    kind, entity_type = move["type"], move["entity_type"]
    if entity_type == "company":
        return 6.0, move  # a private company's power
    weight = WEIGHTS.get(kind, 1.0)
    if entity_type == "player":
        if isinstance(state.round, StockRound) and kind in ("par", "buy_shares"):
            cash = state.player(move["entity"]).cash - PLAYER_RESERVE
            choices = [c for c in move["choices"] if c.get("cost", c.get("price", 0)) <= cash]
            return (weight, move | {"choices": choices}) if choices else (0.02, move)
        return weight, move
    if entity_type != "corporation":
        return weight, move
    corp = state.corporation(move["entity"])
    trains = len(corp.trains)
    wanted_trains = min(2, state.train_limit(corp))
    if kind == "buy_train":
        cheapest = cheapest_depot_train(move)
        if cheapest is None:
            return (3.0 if not trains else 0.2), move
        depot = [c for c in move["choices"] if c.get("from") == "depot" and c.get("price") == cheapest]
        if not trains:
            return 30.0, move | {"choices": depot}
        return (10.0 if trains < wanted_trains and cheapest <= corp.cash else 0.3), move | {"choices": depot}
    if kind == "pass" and any(m["type"] == "buy_train" for m in moves):
        return (0.05 if not trains else 1.0), move
    if kind == "dividend":
        keep = trains < wanted_trains and corp.cash < next_train_price(state)
        kinds = {c["kind"]: c for c in move["choices"]}
        wanted = ["withhold", "half"] if keep else ["payout", "payout", "payout", "half"]
        offered = [kinds[k] for k in wanted if k in kinds] or list(kinds.values())
        return weight, move | {"choices": offered}
    if kind == "sell_shares":  # issuing shares (12.7): for a train out of reach
        short = trains < wanted_trains and corp.cash < next_train_price(state)
        return (4.0 if short else 0.3), move
    if kind == "buy_shares":  # redeeming shares
        return (1.0 if corp.cash > 2 * next_train_price(state) else 0.1), move
    return weight, move


def choose_deep(state: BaseGame, moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    weights_moves = [(w, m) for w, m in (weighed(state, move, moves) for move in moves) if w > 0]
    return rng.choices([m for _, m in weights_moves], weights=[w for w, _ in weights_moves])[0]

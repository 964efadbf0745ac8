"""The deep random player for 18USA (`usa_random_play.pick` with policy "deep").

Random games with the weighted player mostly end in the first rounds: players spend their last
dollar on shares, companies borrow for anything and then cannot pay interest, a company that
passes its train purchase is liquidated, and random track seldom joins two cities, so companies
seldom run. The deep player is still random among the legal moves, seeded and reproducible, but
plays for a long game: players keep a reserve, companies lay track that reaches more cities, run,
buy a first train (borrowing for it if they must) and others from their own cash, repay loans,
keep money for interest, and use their private companies' powers, mergers and conversions when
they can pay for them.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.core.board import split_tile_id
from engine.core.game import BaseGame
from engine.core.graph import reach_of


def paid_from_cash(state: BaseGame, move: dict[str, Any]) -> dict[str, Any] | None:
    """A train purchase narrowed to what the company can pay from its own cash, or None. The
    offered purchases count the loans the company could take first (`buyable`), which a player
    takes by their own move before buying."""
    cash = state.corporation(str(move["entity"])).cash
    choices = [c for c in move["choices"] if c.get("price", c.get("min_price", 0)) <= cash]
    return move | {"choices": [c | {"max_price": min(c["max_price"], cash)} if "max_price" in c else c
                               for c in choices]} if choices else None


PLAYER_RESERVE = 80  # what a player keeps back from share purchases
AUCTION_RESERVE = 150  # and from bids for private companies, to start a company later
DEEP_WEIGHTS = {"run_routes": 20.0, "payoff_loan": 6.0, "lay_tile": 6.0, "place_token": 3.0,
                "merge": 3.0, "convert": 1.5, "bid": 2.0, "buy_shares": 4.0, "sell_shares": 0.3, "short": 0.4,
                "take_loan": 0.3, "pass": 1.0, "bankrupt": 0.001, "scrap_train": 0.2}


def interest_reserve(state: BaseGame, corporation: str) -> int:
    """What a company keeps for the interest on its loans (and a little more)."""
    return 2 * int(state.interest_due(state.corporation(corporation))) + 20  # type: ignore[attr-defined]


def player_can_spend(state: BaseGame, move: dict[str, Any], reserve: int) -> dict[str, Any] | None:
    """A player's purchase or bid narrowed to what keeps their reserve, or None."""
    cash = state.player(move["entity"]).cash - reserve
    choices = [c for c in move.get("choices", ())
               if c.get("price", c.get("min", c.get("min_price", 0))) <= cash]
    return move | {"choices": choices} if choices else None


def acquisition_bid(state: BaseGame, move: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """A bid for a company for sale (14.2) no higher than the bidder's richest company can pay
    from its cash (a buyer short of money borrows, and then cannot pay its interest)."""
    player = state.player(move["entity"])
    spare = max((corp.cash - interest_reserve(state, corp.id) for corp in state.corporations.values()
                 if corp.ipoed and corp.president_share().owner is player), default=0)
    choices = [c | {"max_price": min(c["max_price"], c["min_price"] + max(0, spare - c["min_price"]))}
               for c in move["choices"] if c["min_price"] <= spare]
    return (2.0, move | {"choices": choices}) if choices else (0.05, move)


def deep_narrowed(state: BaseGame, move: dict[str, Any], moves: list[dict[str, Any]]) -> tuple[float, dict[str, Any]]:
    """The deep policy's weight of a move, and the move narrowed to the choices it would make."""
    kind, entity = move["type"], move["entity"]
    step = state.round.blocking_step(state)
    step_key = step.key if step is not None else None
    if move["entity_type"] == "company":
        return 5.0, move  # a private company's power
    weight = DEEP_WEIGHTS.get(kind, 1.0)
    if move["entity_type"] == "player" and step_key in ("stock", "private_auction") and kind in ("bid", "buy_shares"):
        if kind == "bid" and step_key == "stock":
            return 4.0, move  # starting a company: what the game is about
        narrowed = player_can_spend(state, move, AUCTION_RESERVE if kind == "bid" else PLAYER_RESERVE)
        return (weight, narrowed) if narrowed is not None else (0.02, move)
    if kind == "short":
        # A short is paid back when its company is bought or sold (14.2); a player without the
        # money for it then goes bankrupt.
        cash = state.player(entity).cash
        choices = [c for c in move["choices"] if 3 * c.get("price", 0) <= 2 * cash]
        return (weight, move | {"choices": choices}) if choices else (0.0, move)
    if kind == "bid" and step_key == "acquisition":
        return acquisition_bid(state, move)
    if move["entity_type"] != "corporation":
        return weight, move
    corp = state.corporation(entity)
    trainless = not corp.trains
    spare = corp.cash - interest_reserve(state, entity)
    if kind == "buy_train":
        affordable = paid_from_cash(state, move)
        if affordable is None:
            return 0.0, move  # offered counting the loans it could take first (`paid_from_cash`)
        depot = [c for c in affordable["choices"] if c.get("from") == "depot"]
        runnable = sum(1 for train in corp.trains if train.name != "P")
        # Never another company's last train: the seller would be the one without, and its next
        # turn would end in liquidation.
        spared = [c for c in affordable["choices"] if c.get("from") in ("depot", "market")
                  or sum(1 for t in state.corporation(c["from"]).trains if t.name != "P") > 1]
        # A first train at any price; another only from the bank and with money to spare: a
        # company that spends its last dollar cannot pay its interest and is liquidated.
        if trainless:
            return (20.0, affordable | {"choices": depot or spared}) if depot or spared else (0.0, move)
        if not depot:
            return 0.05, affordable
        cheapest = min(c.get("price", c.get("min_price", 0)) for c in depot)
        worth = 8.0 if runnable < 2 and cheapest <= spare else 0.5 if cheapest <= spare else 0.05
        return worth, affordable | {"choices": depot}
    if kind == "take_loan":
        # Borrow for a first train (a company ending its turn without one is liquidated, and a
        # liquidated company's loans fall on its president, 14.2.1) or for the stations a
        # conversion or merger makes it buy (14.1); otherwise seldom.
        first_train = step_key == "buy_train" and trainless and not any(
            c.get("from") == "depot" for m in moves if m["type"] == "buy_train" and m["entity"] == entity
            for c in (paid_from_cash(state, m) or {"choices": []})["choices"])
        owes_stations = entity in state.tokens_owed or step_key == "post_conversion_loans" and corp.cash < 100  # type: ignore[attr-defined]
        return (20.0 if first_train or owes_stations else 0.03), move
    if kind == "payoff_loan" or kind == "pass" and step_key == "repay":
        # Loans cost more interest the more there are (13); repay with money to spare.
        repay = spare >= 100
        return ((20.0 if repay else 1.0) if kind == "payoff_loan" else (0.2 if repay else 5.0)), move
    if kind in ("convert", "merge"):
        # A bigger company buys stations (14.1): only with the money for them.
        return (weight if spare >= 100 else 0.05), move
    if kind == "pass" and step_key == "buy_train" and trainless:
        return 0.01, move
    if kind == "pass" and step_key in ("track", "token"):
        return (0.5 if spare >= 60 else 3.0), move
    if kind == "place_token":
        return (weight if spare >= 100 else 0.2), move
    if kind == "lay_tile":
        free = [c | {"tiles": cheap} for c in move["choices"]
                if (cheap := [t for t in c["tiles"] if t.get("cost", 0) <= spare - 20])]
        return (weight if spare >= 40 else 1.5, move | {"choices": free}) if free else (0.05, move)
    if kind == "dividend":
        keep = spare < 100 or trainless
        kinds = {c["kind"]: c for c in move["choices"]}
        wanted = ["withhold", "half"] if keep else ["payout", "payout", "half", "withhold"]
        offered = [kinds[k] for k in wanted if k in kinds] or list(kinds.values())
        return weight, move | {"choices": offered}
    return weight, move


def deep_pick(state: BaseGame, moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A move by the deep policy (above): weighted by `deep_narrowed`, made concrete with the
    choices it narrowed to; a company's tile mostly where it reaches most (`reaching_lay`)."""
    weighed = [(w, m) for w, m in (deep_narrowed(state, move, moves) for move in moves) if w > 0] or \
        [(1.0, m) for m in moves]
    move = rng.choices([m for _, m in weighed], weights=[w for w, _ in weighed])[0]
    if move["type"] == "lay_tile" and move["entity_type"] == "corporation" and rng.random() < 0.8:
        return reaching_lay(state, move, rng)
    return move


LAYS_TRIED = 24  # lays weighed for a company's tile: each a board copy and a walk, ~2 ms


def reaching_lay(state: BaseGame, move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The lay, among a random sample of those offered, after which the company's track reaches
    the most revenue stops: random track seldom joins two cities, and a company that cannot run
    earns nothing (12.4)."""
    corp = str(move["entity"])
    lays = [(c["hex"], t["tile"], r) for c in move["choices"] for t in c["tiles"] for r in t["rotations"]]
    best: list[tuple[str, str, int]] = []
    most = -1
    for coord, tile_id, rotation in rng.sample(lays, min(LAYS_TRIED, len(lays))):
        board = copy.deepcopy(state.board)
        board.place_tile(coord, board.tiles[split_tile_id(tile_id)[0]], tile_id, rotation)
        stops = sum(1 for node in reach_of(board, corp).nodes if node[1] in ("city", "town", "offboard"))
        if stops > most:
            best, most = [], stops
        if stops == most:
            best.append((coord, tile_id, rotation))
    coord, tile_id, rotation = rng.choice(best)
    choice = next(c for c in move["choices"] if c["hex"] == coord)
    tile = next(t for t in choice["tiles"] if t["tile"] == tile_id)
    return move | {"choices": [choice | {"tiles": [tile | {"rotations": [rotation]}]}]}

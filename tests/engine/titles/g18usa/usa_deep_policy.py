"""The deep random player for 18USA (`usa_random_play.pick` with policy "deep").

Random games with the weighted player mostly end in the first rounds: players spend their last
dollar on shares, companies borrow for anything and then cannot pay interest, a company that
passes its train purchase is liquidated, and random track seldom joins two cities, so companies
seldom run. The deep player is still random among the legal moves, seeded and reproducible, but
plays for a long game: players keep a reserve, companies lay track that reaches more cities, run,
buy a first train (borrowing for it if they must) and others from their own cash, repay loans,
keep money for interest, and use their private companies' powers, mergers and conversions when
they can pay for them.

Games then ended in a spiral around phases 5-6 (30 seeds from 20700, up to 3000 actions: 3
ended by the game-end rule, 27 in bankruptcies, no 8-train bought):
a wave of rusting left many companies trainless and poor, each borrowed four or five loans for
its next train, the interest rate rose with every five loans in play (rule 9), and interest a
company could not pay fell on its president (15). So companies with trains the bank's next
train rusts keep their earnings for the next one, spend on track and stations only what that
leaves, and buy it while they can; a company is started with a treasury that can buy a train
(11.6: it gets about the winning bid), at a size whose stations it can pay for; players sell
short only with twice the price and their reserve.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

from engine.core.board import split_tile_id
from engine.core.entities import Train
from engine.core.game import BaseGame
from engine.core.graph import reach_of
from engine.router import CoreRules, RouteProblem, solve_problem


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
START_BID = 200  # the opening bid for a company a player can afford it for (its treasury: 11.6)
START_RESERVE = 100  # what the starter keeps back from that bid
SIZE_STATIONS = {2: 0, 5: 50, 10: 150}  # what a company of each size pays for its stations (11.6)
DEEP_WEIGHTS = {"run_routes": 20.0, "payoff_loan": 6.0, "lay_tile": 6.0, "place_token": 3.0,
                "merge": 3.0, "convert": 1.5, "bid": 2.0, "buy_shares": 4.0, "sell_shares": 0.3, "short": 0.4,
                "take_loan": 0.3, "pass": 1.0, "bankrupt": 0.001, "scrap_train": 0.2}


def interest_reserve(state: BaseGame, corporation: str) -> int:
    """What a company keeps for the interest on its loans (and a little more)."""
    return 2 * int(state.interest_due(state.corporation(corporation))) + 20  # type: ignore[attr-defined]


def is_pullman(train_id: Any) -> bool:
    return str(train_id).startswith("P-")


def next_depot_train(state: BaseGame) -> Any:
    """The bank's next train (a train the company could buy from the bank now, and the one whose
    first purchase rusts or retires older trains), or None."""
    return state.depot.next_train()


def runs_out_soon(state: BaseGame, corp: Any) -> bool:
    """The company has no runnable train the bank's next train spares: it will soon need one."""
    upcoming = next_depot_train(state)
    coming = upcoming.name if upcoming is not None else None
    return not any(not is_pullman(train.id) and coming not in (train.rusts_on, train.obsolete_on)
                   for train in corp.trains)


def train_reserve(state: BaseGame, corporation: str) -> int:
    """What a company keeps, besides its interest, for the train it will need: the bank's next
    train's price while its own trains are about to go, else nothing."""
    corp = state.corporation(corporation)
    upcoming = next_depot_train(state)
    return upcoming.price if upcoming is not None and runs_out_soon(state, corp) else 0


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
            return 4.0, opening_bid(state, move)  # starting a company: what the game is about
        narrowed = player_can_spend(state, move, AUCTION_RESERVE if kind == "bid" else PLAYER_RESERVE)
        return (weight, narrowed) if narrowed is not None else (0.02, move)
    if kind == "short":
        # A short is paid back when its company is bought or sold (14.2), and pays its dividends
        # meanwhile; a player without the money for them goes bankrupt.
        cash = state.player(entity).cash - PLAYER_RESERVE
        choices = [c for c in move["choices"] if 2 * c.get("price", 0) <= cash]
        return (weight, move | {"choices": choices}) if choices else (0.0, move)
    if kind == "choose" and step_key == "ipo_size":
        return 1.0, affordable_size(state, move)
    if kind == "bid" and step_key == "acquisition":
        return acquisition_bid(state, move)
    if move["entity_type"] != "corporation":
        return weight, move
    corp = state.corporation(entity)
    trainless = not any(not is_pullman(train.id) for train in corp.trains)
    needs_train = runs_out_soon(state, corp)
    spare = corp.cash - interest_reserve(state, entity) - train_reserve(state, entity)
    if kind == "buy_train":
        affordable = paid_from_cash(state, move)
        if affordable is None:
            return 0.0, move  # offered counting the loans it could take first (`paid_from_cash`)
        # A Pullman car is no train (12.7): a company with only one is liquidated.
        pullmans = [c for c in affordable["choices"] if is_pullman(c.get("train"))]
        trains = [c for c in affordable["choices"] if not is_pullman(c.get("train"))]
        depot = [c for c in trains if c.get("from") == "depot"]
        runnable = sum(1 for train in corp.trains if not is_pullman(train.id))
        # Never another company's last train: the seller would be the one without, and its next
        # turn would end in liquidation.
        spared = [c for c in trains if c.get("from") in ("depot", "market")
                  or sum(1 for t in state.corporation(c["from"]).trains if not is_pullman(t.id)) > 1]
        # A first train at any price; another only from the bank and with money to spare: a
        # company that spends its last dollar cannot pay its interest and is liquidated.
        if trainless:
            return (20.0, affordable | {"choices": depot or spared}) if depot or spared else (0.0, move)
        if not depot:
            if pullmans and not needs_train and spare >= 200:
                return 0.5, affordable | {"choices": pullmans}
            return 0.05, affordable | {"choices": spared} if spared else affordable
        cheapest = min(c.get("price", c.get("min_price", 0)) for c in depot)
        # Its reserve was kept for this train: buying it is what the money was for.
        room = spare + train_reserve(state, entity)
        worth = 8.0 if (runnable < 2 or needs_train) and cheapest <= room else 0.5 if cheapest <= spare else 0.05
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
        free_lay = any(m["type"] == "lay_tile" and m["entity"] == entity and free_lays(m, 0) for m in moves)
        return (0.5 if spare >= 60 or free_lay else 3.0), move
    if kind == "place_token":
        return (weight if spare >= 100 else 0.2), move
    if kind == "lay_tile":
        # A lay that costs nothing is always worth making; others only from money to spare.
        free = free_lays(move, max(0, spare - 20))
        if not free:
            return 0.05, move
        return (weight if spare >= 40 or free_lays(move, 0) else 1.5), move | {"choices": free}
    if kind == "dividend":
        # `spare` counts the reserve for the next train while the company's trains are about to go.
        keep = spare < 100 or trainless
        kinds = {c["kind"]: c for c in move["choices"]}
        wanted = ["withhold", "half"] if keep else ["payout", "payout", "half", "withhold"]
        offered = [kinds[k] for k in wanted if k in kinds] or list(kinds.values())
        return weight, move | {"choices": offered}
    return weight, move


def free_lays(move: dict[str, Any], most: int) -> list[dict[str, Any]]:
    """A lay_tile move's choices narrowed to tiles costing at most `most`."""
    return [c | {"tiles": cheap} for c in move["choices"]
            if (cheap := [t for t in c["tiles"] if t.get("cost", 0) <= most])]


def opening_bid(state: BaseGame, move: dict[str, Any]) -> dict[str, Any]:
    """A bid to start a company raised toward START_BID as far as the starter can pay it: the
    company's treasury is about the winning bid (11.6), and a company started for $100 has only
    its first train's price."""
    cash = state.player(move["entity"]).cash - START_RESERVE
    choices = [c | {"min": max(c["min"], min(START_BID, cash, c["max"]))} for c in move["choices"]]
    return move | {"choices": choices}


def affordable_size(state: BaseGame, move: dict[str, Any]) -> dict[str, Any]:
    """The company sizes whose station purchase (11.6) leaves the new company the price of a
    2-train: a 10-share company that cannot pay for its stations is liquidated."""
    ipo = getattr(state.round, "ipo", None)
    price = getattr(ipo, "price", None)
    if price is None:
        return move
    train = next_depot_train(state)
    needed = train.price if train is not None else 100
    choices = [c for c in move["choices"] if price - SIZE_STATIONS.get(c.get("choice"), 0) >= needed]
    return move | {"choices": choices} if choices else move


Narrowing = Callable[[BaseGame, dict[str, Any], list[dict[str, Any]]], tuple[float, dict[str, Any]]]


def deep_pick(state: BaseGame, moves: list[dict[str, Any]], rng: random.Random,
              narrowed: Narrowing = deep_narrowed) -> dict[str, Any]:
    """A move by the deep policy (above): weighted by `narrowed` (`deep_narrowed`, or another
    policy's weights), made concrete with the choices it narrowed to; a company's tile mostly
    where it reaches most (`reaching_lay`)."""
    weighed = [(w, m) for w, m in (narrowed(state, move, moves) for move in moves) if w > 0] or \
        [(1.0, m) for m in moves]
    move = rng.choices([m for _, m in weighed], weights=[w for w, _ in weighed])[0]
    if move["type"] == "lay_tile" and move["entity_type"] == "corporation" and rng.random() < 0.8:
        return reaching_lay(state, move, rng)
    return move


LAYS_TRIED = 24  # lays weighed for a company's tile: each a board copy and a walk, ~2 ms
LAYS_RUN = 6  # of those, the ones reaching most whose runs are valued (a listing search each)
RUN_TRAIN = 4  # the longest train the runs are valued for (longer ones list many more runs)


def reaching_lay(state: BaseGame, move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The lay, among a random sample of those offered, after which the company's longest train
    (or a 2-train, for a company without one) earns the most, then whose track reaches the most
    revenue stops: random track seldom joins two cities, and a company that cannot run earns
    nothing (12.4). While lays were chosen by the stops reached alone, 32 of seed 20704's 57
    operating turns earned nothing. Valuing runs within 0.05 s makes a lay on a network too big to
    list in that time depend on the machine's load, as the runs themselves do (`concrete`)."""
    corp = str(move["entity"])
    lays = [(c["hex"], t["tile"], r) for c in move["choices"] for t in c["tiles"] for r in t["rotations"]]
    reached: list[tuple[int, float, tuple[str, str, int], Any]] = []
    for coord, tile_id, rotation in rng.sample(lays, min(LAYS_TRIED, len(lays))):
        board = copy.deepcopy(state.board)
        board.place_tile(coord, board.tiles[split_tile_id(tile_id)[0]], tile_id, rotation)
        stops = sum(1 for node in reach_of(board, corp).nodes if node[1] in ("city", "town", "offboard"))
        reached.append((stops, rng.random(), (coord, tile_id, rotation), board))
    reached.sort(key=lambda entry: entry[:2], reverse=True)
    train = run_train(state, corp)
    valued = [(lay_revenue(state, corp, board, train), stops, tiebreak, lay)
              for stops, tiebreak, lay, board in reached[:LAYS_RUN]]
    coord, tile_id, rotation = max(valued)[3]
    choice = next(c for c in move["choices"] if c["hex"] == coord)
    tile = next(t for t in choice["tiles"] if t["tile"] == tile_id)
    return move | {"choices": [choice | {"tiles": [tile | {"rotations": [rotation]}]}]}


def run_train(state: BaseGame, corporation: str) -> Train:
    """The train a lay's runs are valued for: the company's longest up to RUN_TRAIN, or a 2-train."""
    runnable = [train for train in state.corporation(corporation).trains if 0 < train.distance]
    distance = min(RUN_TRAIN, max((train.distance for train in runnable), default=2))
    return Train("deep-player", str(distance), distance, 0, None)


def lay_revenue(state: BaseGame, corporation: str, board: Any, train: Train) -> int:
    """What `train` earns on `board` by the printed values (no title hooks: a guide, not a run)."""
    problem = RouteProblem(board, corporation, state.colors_available(), (train,), CoreRules())
    return solve_problem(problem, time_budget=0.05, method="listing").total

"""Helpers for the 18Texas rule tests: building positions by playing moves through the engine.

Positions are reached by playing legal actions through `Game.process` wherever that stays short.
Where a test needs a position that would take dozens of moves (a company with many trains, a
player short of cash, a late phase), `Setup` helpers change the state directly; each says what it
does, and money moved that way is taken from or given to the bank so that the total stays fixed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from game_pictures import canonical, position, snapshot  # noqa: F401 (used by the rule tests)
from optimizer_check import proposed_runs as checked_runs

from engine import GameError, given_most, new_game
from engine.core.entities import Corporation, Player, Share
from engine.core.game import BaseGame
from engine.core.operating_round import OperatingRound
from engine.core.rng import SetupRandom
from engine.core.steps.discard import crowded
from engine.core.stock_round import StockRound
from engine.log import Game
from engine.router import RouteResult

CORPORATIONS = ("T&P", "MKT", "SP", "MP", "SSW", "SAA")
PRIVATES = ("BBBCRC", "GRRRC", "JG", "IGN", "NOPR")
BANK_TOTAL = 8000


# --- games ---------------------------------------------------------------------------------
def players(count: int) -> list[dict[str, Any]]:
    """Players A, B, C, ... seated in that order."""
    return [{"id": name, "name": name} for name in "ABCDEFGH"[:count]]


def seed_for_jay_gould(corporation: str) -> int:
    """A seed whose random setup gives `corporation` as the Jay Gould company (rule 7)."""
    for seed in range(1, 10_000):
        if CORPORATIONS[SetupRandom(seed).draw() % len(CORPORATIONS)] == corporation:
            return seed
    raise AssertionError(f"no seed gives {corporation}")


def make_game(count: int = 3, jay_gould: str = "MKT", options: list[str] | None = None) -> Game:
    game = new_game("18Texas", players(count), seed_for_jay_gould(jay_gould), options or [])
    assert game.state.jay_gould_corporation == jay_gould
    return game


def state(game: Game) -> BaseGame:
    return game.state


def player(game: Game, key: str) -> Player:
    return game.state.player(key)


def corp(game: Game, key: str) -> Corporation:
    return game.state.corporation(key)


def price(game: Game, key: str) -> int:
    return game.state.share_price(game.state.corporation(key))


def cell(game: Game, key: str) -> tuple[int, int]:
    return game.state.market.position[key]


def total_money(state: BaseGame) -> int:
    return (state.bank.cash + sum(p.cash for p in state.players)
            + sum(c.cash for c in state.corporations.values()))


# --- actions -------------------------------------------------------------------------------
def action(kind: str, entity: Any, /, **fields: Any) -> dict[str, Any]:
    if isinstance(entity, str) and entity in CORPORATIONS:
        entity_type = "corporation"
    elif isinstance(entity, str) and entity in PRIVATES:
        entity_type = "company"
    else:
        entity_type = "player"
    return {"type": kind, "entity": entity, "entity_type": entity_type, **fields}


def play(game: Game, kind: str, entity: Any, /, **fields: Any) -> dict[str, Any]:
    """Process one action that must be legal; it must also be among the legal moves offered."""
    from engine.legal import is_offered

    move = action(kind, entity, **fields)
    assert is_offered(game.state, move), f"not offered: {move}\noffered: {game.legal_moves()}"
    game.process(move)
    return move


def refuse(game: Game, kind: str, entity: Any, match: str, /, **fields: Any) -> GameError:
    """The action is refused with a message matching `match`, and nothing changes."""
    from engine.legal import is_offered

    move = action(kind, entity, **fields)
    before = snapshot(game)
    log_before = list(game.state.log)
    result_before = game.result()
    with pytest.raises(GameError, match=match) as caught:
        game.process(move)
    assert "internal error" not in str(caught.value)
    assert snapshot(game) == before
    assert game.state.log == log_before
    assert game.result() == result_before
    # Runs are checked when played; the legal moves only say that a run is due.
    if kind != "run_routes":
        assert not is_offered(game.state, move), f"refused but offered: {move}"
    return caught.value


def moves_of(game: Game, kind: str) -> list[dict[str, Any]]:
    return [move for move in game.legal_moves() if move["type"] == kind]


def choices_of(game: Game, kind: str) -> list[dict[str, Any]]:
    return [choice for move in moves_of(game, kind) for choice in move.get("choices", [])]


def acting(game: Game) -> list[str]:
    return [p.key for p in game.state.acting_players()]


# --- the auction and the stock round ----------------------------------------------------------
def auction(game: Game, bids: list[tuple[str, int]] | None = None, par: str = "100,2,4") -> None:
    """Play the private auction: by default each player in turn bids face value on the next
    private (A the BB-B&C, B the G&RRRC, C Jay Gould, D the I&GN, E the NOPR), then the Jay
    Gould buyer sets the par price."""
    state = game.state
    if bids is None:
        bids = [(company, state.companies[company].value) for company in PRIVATES if company in state.companies]
    for company, amount in bids:
        bidder = state.round.acting_players(state)[0]
        play(game, "bid", bidder.id, company=company, price=amount)
    owner = state.companies["JG"].owner
    assert isinstance(owner, Player)
    play(game, "par", owner.id, corporation=state.jay_gould_corporation, share_price=par)


def current_player(game: Game) -> str:
    rnd = game.state.round
    assert isinstance(rnd, StockRound), f"not a stock round: {rnd}"
    return rnd.current(game.state).key


def stock_turn(game: Game, who: str, kind: str, /, **fields: Any) -> None:
    """`who` takes a stock-round action; it must be their turn."""
    assert current_player(game) == who, f"it is {current_player(game)}'s turn, not {who}'s"
    play(game, kind, who, **fields)


def next_share(game: Game, corporation: str, source: str = "treasury") -> str:
    corp_ = corp(game, corporation)
    holder = corp_ if source == "treasury" else game.state.pool
    shares = sorted((s for s in corp_.shares if s.owner is holder and not s.president), key=lambda s: s.id)
    assert shares, f"no {corporation} share in the {source}"
    return shares[0].id


def buy(game: Game, who: str, corporation: str, source: str = "treasury") -> None:
    stock_turn(game, who, "buy_shares", shares=[next_share(game, corporation, source)], percent=10)


def pass_turn(game: Game, who: str | None = None) -> None:
    who = who or current_player(game)
    stock_turn(game, who, "pass")


def finish_stock_round(game: Game) -> None:
    """Everyone passes until the stock round ends."""
    while isinstance(game.state.round, StockRound) and not game.finished:
        pass_turn(game)


def opening(count: int = 3, jay_gould: str = "MKT", options: list[str] | None = None,
            float_sp: bool = True) -> Game:
    """Auction at face value, then in stock round 1 A starts SP at $100 and A, B, C buy until
    it floats (A 30%, B 10%, C 10%).  Ends with A to act in the stock round (priority)."""
    game = make_game(count, jay_gould, options)
    auction(game)
    if not float_sp:
        return game
    order = [p["id"] for p in players(count)]
    assert current_player(game) == "A"
    stock_turn(game, "A", "par", corporation="SP", share_price="100,2,4")
    buy(game, "B", "SP")
    buy(game, "C", "SP")
    for name in order[3:]:
        pass_turn(game, name)
    buy(game, "A", "SP")
    assert corp(game, "SP").floated
    return game


def to_operating_round(game: Game) -> None:
    finish_stock_round(game)
    assert isinstance(game.state.round, OperatingRound)


def operating(game: Game) -> str:
    """The company whose turn it is (or which must discard)."""
    rnd = game.state.round
    assert isinstance(rnd, OperatingRound), f"not an operating round: {rnd}"
    entity = rnd.acting_entity(game.state)
    assert entity is not None
    return entity.id


def step_label(game: Game) -> str | None:
    rnd = game.state.round
    assert isinstance(rnd, OperatingRound)
    step = rnd.blocking_step(game.state)
    return step.key if step else None


def skip_to_step(game: Game, key: str) -> None:
    """The operating company passes its steps until it reaches the step `key`."""
    company = operating(game)
    for _ in range(10):
        if step_label(game) == key:
            return
        assert operating(game) == company, f"{company}'s turn ended before the {key} step"
        label = step_label(game)
        if label == "route":
            play(game, "run_routes", company, routes=best_routes(game, company))
        elif label == "dividend":
            play(game, "dividend", company, kind="withhold")
        else:
            play(game, "pass", company)
    raise AssertionError(f"never reached {key}")


def best_routes(game: Game, company: str) -> list[dict[str, Any]]:
    """The optimizer's best runs (rule 12.4: the company must run for the most)."""
    from engine.core.most_earnings import best_runs

    result = best_runs(game.state, company)
    assert result.proven_optimal
    return list(result.to_action()["routes"])


def finish_turn(game: Game) -> None:
    """The operating company passes (or withholds) everything left in its turn; when it must buy
    a train it buys the first one offered."""
    company = operating(game)
    rnd = game.state.round
    assert isinstance(rnd, OperatingRound)
    turn = rnd.turn
    while not game.finished and game.state.round is rnd and rnd.turn is turn:
        if crowded(game.state):
            raise AssertionError(f"{crowded(game.state)[0].id} must discard a train first")
        label = step_label(game)
        if label == "route":
            play(game, "run_routes", company, routes=best_routes(game, company))
        elif label == "dividend":
            play(game, "dividend", company, kind="withhold")
        elif not moves_of(game, "pass"):
            choice = choices_of(game, "buy_train")[0]
            play(game, "buy_train", company, train=choice["train"], price=choice.get("price", choice.get("min_price")))
        else:
            play(game, "pass", company)


def operate(game: Game, company: str) -> None:
    """Finish other companies' turns until `company` operates."""
    for _ in range(20):
        if operating(game) == company:
            return
        finish_turn(game)
    raise AssertionError(f"{company} never operated")


def or_game(count: int = 3, jay_gould: str = "MKT", options: list[str] | None = None,
            company: str = "SP", prepare: Any = None) -> Game:
    """The opening (SP floated by A), then `prepare(Setup)` makes direct changes during stock
    round 1, the round ends and the operating round runs until `company` operates."""
    game = opening(count, jay_gould, options)
    if prepare is not None:
        prepare(Setup(game))
    finish_stock_round(game)
    operate(game, company)
    return game


def rotation_for(game: Game, tile: str, exits: set[int]) -> int:
    """The rotation that puts a tile's track on exactly these sides."""
    definition = game.state.board.tiles[tile]
    return next(r for r in range(6) if definition.exits(r) == exits)


def ssw_network(phase: str = "2", trains: tuple[str, ...] = ("2", "2"), step: str = "route",
                extra: Any = None, options: list[str] | None = None) -> Game:
    """SSW (B president) at Marshall (D15, $20) with track built by direct setup:
    D15 - D17 - Shreveport (D19, red, $30/$50); D19 - C18 - Texarkana (C16, $20);
    D15 - E16 - Lufkin (F15, $20) - Palestine (F13, $20).  SSW owns the given trains and
    $300; it is SSW's turn at `step`.  `extra(Setup)` makes more direct changes."""
    def prepare(setup: Setup) -> None:
        game_ = setup.game
        setup.company("SSW", "100,0,2", {"B": 20}, operated=False)
        setup.cash("SSW", 300)
        for coord, tile, exits in (
            ("D15", "5-0", {4, 5}), ("D17", "9-0", {1, 4}), ("E16", "8-0", {2, 0}),
            ("F15", "6-0", {3, 1}), ("F13", "5-1", {4, 5}), ("C18", "8-1", {5, 1}), ("C16", "5-2", {4, 5}),
        ):
            setup.lay(coord, tile, rotation_for(game_, tile.rsplit("-", 1)[0], exits))
        for name in trains:
            setup.give_train("SSW", name)
        if phase != "2":
            setup.phase(phase)
        if extra is not None:
            extra(setup)
    game = or_game(options=options, company="SSW", prepare=prepare)
    skip_to_step(game, step)
    return game


# --- direct setup (documented state changes, money to/from the bank) -------------------------
class Setup:
    """Direct state changes for positions too long to reach by play. Money comes from the bank."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.state = game.state

    def cash(self, holder_key: str, amount: int) -> None:
        """Set a player's or company's cash, the difference going to or from the bank."""
        state = self.state
        holder = state.corporations.get(holder_key) or state.player(holder_key)
        state.bank.cash -= amount - holder.cash
        holder.cash = amount

    def give_share(self, corporation: str, to: str, president: bool = False) -> Share:
        """Move one certificate of `corporation` from its treasury (or the pool) to a player."""
        corp_ = self.state.corporation(corporation)
        target = self.state.player(to) if to not in ("pool", corporation) else (
            self.state.pool if to == "pool" else corp_)
        for source in (corp_, self.state.pool):
            for share in sorted(corp_.shares, key=lambda s: s.id):
                if share.owner is source and share.president == president and share.owner is not target:
                    self.state.ledger.move(share, target)
                    return share
        raise AssertionError(f"no {corporation} certificate to move")

    def company(self, corporation: str, engine_id: str, holdings: dict[str, int],
                operated: bool = True) -> Corporation:
        """Start a company at a market cell with the given player holdings in percent (the first
        player named gets the president's certificate), floated and, by default, having operated
        once.  Certificates come from its treasury; the home station is placed."""
        state = self.state
        corp_ = state.corporation(corporation)
        corp_.ipoed = True
        corp_.floated = True
        corp_.times_operated = 1 if operated else 0
        corp_.has_paid = operated
        self.price(corporation, engine_id)
        for index, (who, percent) in enumerate(holdings.items()):
            if index == 0:
                # The Jay Gould company's president already has the certificate.
                if corp_.president_share().owner is not state.player(who):
                    self.give_share(corporation, who, president=True)
                percent -= 20
            for _ in range(percent // 10):
                self.give_share(corporation, who)
        assert corp_.home_hex is not None
        home = state.board.hexes[corp_.home_hex]
        city = corp_.home_city if len(home.tokens) > corp_.home_city else 0
        if corporation not in home.corporations_here():
            self.token(corporation, corp_.home_hex, city)
        return corp_

    def price(self, corporation: str, engine_id: str) -> None:
        """Move a company's market token to a cell (to the bottom of any stack there)."""
        market = self.state.market
        market.remove(corporation)
        market.place(corporation, market.by_id[engine_id])

    def give_train(self, corporation: str, name: str) -> None:
        """Hand a company the next new train of that name, as if bought (no phase effects)."""
        state = self.state
        train = next(t for t in state.depot.trains if t.name == name)
        state.depot.take(train)
        corp_ = state.corporation(corporation)
        corp_.trains.append(train)
        train.owner = corp_

    def remove_depot_trains(self, name: str, keep: int = 0) -> None:
        """Take new trains of `name` out of the depot (as if sold to companies long gone)."""
        state = self.state
        for train in [t for t in state.depot.trains if t.name == name][: max(0, self._count(name) - keep)]:
            state.depot.take(train)

    def _count(self, name: str) -> int:
        return sum(1 for t in self.state.depot.trains if t.name == name)

    def phase(self, name: str) -> None:
        """Jump to a phase as its first train would (sold names recorded, no rusting)."""
        state = self.state
        index = next(i for i, p in enumerate(state.phases) if p.name == name)
        state.phase_index = index
        for phase in state.phases[1: index + 1]:
            if phase.on_train:
                state.depot.sold_names.add(phase.on_train)

    def lay(self, coord: str, tile: str, rotation: int) -> None:
        """Put a tile on the board without a company paying for it."""
        board = self.state.board
        name = tile.rsplit("-", 1)[0]
        board.place_tile(coord, board.tiles[name], tile, rotation)

    def token(self, corporation: str, coord: str, city: int = 0) -> None:
        slots = self.state.board.hexes[coord].tokens[city]
        slots[slots.index(None)] = corporation


# --- runs ----------------------------------------------------------------------------------
def proposed_runs(state: BaseGame, corporation: Corporation) -> RouteResult:
    """The route optimizer's runs (engine/core/most_earnings.py best_runs). An optimizer error is raised, not
    papered over: the property games exercise the optimizer as much as the rules. Checked
    against a longer search or the brute force when a bench switched the check on
    (`optimizer_check`)."""
    return checked_runs(state, corporation, time_budget=1.0)


# The run_routes actions `random_action` made, by id, with the optimizer's answer they come from
# (the action itself is kept, so that its id is not reused while the entry lives).
_PROPOSED: dict[int, tuple[dict[str, Any], RouteResult]] = {}


def process_random(game: Game, action: dict[str, Any]) -> None:
    """`game.process` as the bot moves: runs the optimizer proposed are checked against the answer
    they come from (engine.given_most), not against a second search of their own, which under load
    can find more in its time than the first did (12.4; random play, 3 players, seed 19101: SP's
    $470 refused for $490)."""
    made = _PROPOSED.pop(id(action), None)
    with given_most(game.state, made[1] if made is not None and made[0] is action else None):
        game.process(action)


# --- random legal play (property tests) --------------------------------------------------------
def random_action(game: Game, move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One concrete action for a legal move, with a random choice and a random free amount."""
    kind = move["type"]
    base = {"type": kind, "entity": move["entity"], "entity_type": move["entity_type"]}
    if "tokener" in move:
        base["tokener"] = move["tokener"]
    choices = move.get("choices")
    if kind == "run_routes":
        corporation = game.state.corporation(move["entity"])
        lazy = rng.random() >= 0.9  # drawn either way, so both readings see the same random stream
        if lazy and not game.state.must_run_for_the_most():  # printed 12.4: only the best runs stand
            return dict(base, routes=[])
        proposal = proposed_runs(game.state, corporation)
        action = dict(base, routes=list(proposal.to_action(corporation.id)["routes"]))
        _PROPOSED[id(action)] = (action, proposal)
        return action
    if not choices:
        return base
    choice = rng.choice(choices)
    if kind == "bid":
        steps = (choice["max"] - choice["min"]) // choice["step"]
        extra = min(steps, int(rng.expovariate(0.7)))
        return dict(base, company=choice["company"], price=choice["min"] + extra * choice["step"])
    if kind == "par":
        return dict(base, corporation=choice["corporation"], share_price=choice["share_price"])
    if kind in ("buy_shares", "sell_shares"):
        shares = choice["shares"] if "shares" in choice else [choice["share"]]
        return dict(base, shares=list(shares), percent=choice["percent"])
    if kind == "lay_tile":
        tile = rng.choice(choice["tiles"])
        return dict(base, hex=choice["hex"], tile=tile["tile"], rotation=rng.choice(tile["rotations"]))
    if kind == "place_token":
        return dict(base, city=choice["city"], slot=0)
    if kind == "dividend":
        return dict(base, kind=choice["kind"])
    if kind == "buy_train":
        amount = choice["price"] if "price" in choice else rng.randint(choice["min_price"], choice["max_price"])
        return dict(base, train=choice["train"], price=amount)
    if kind == "discard_train":
        return dict(base, train=choice["train"])
    raise AssertionError(f"unknown move {move}")

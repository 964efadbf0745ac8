"""Random legal play for 18USA (the property tests and `bench/usa_properties.py`).

A game is played only with moves the legal-moves query offers, each made concrete with random
choices and amounts; after every action the invariants below are checked, and now and then an
action that cannot be legal is tried, which must be refused and change nothing.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from game_pictures import canonical
from optimizer_check import proposed_runs
from usa_conservation import TrainLedger, broken_loans, broken_out_of_play
from usa_deep_policy import deep_pick, paid_from_cash
from usa_paths import before, paths_of
from usa_rare_policy import rare_pick

from engine import GameError, given_most, new_game
from engine.attachments import attachment_actions
from engine.core.entities import Player
from engine.core.family1817.market import LIQUIDATION, area
from engine.core.family1817.tokens import crowded_stations
from engine.core.game import BaseGame
from engine.core.steps.discard import crowded
from engine.legal import legal_moves
from engine.log import Game
from engine.router import RouteResult
from engine.titles.g18usa.usa_map import _SHARED_BY_COPIES

# How often each kind of move is picked: starting and buying companies and laying track often,
# the 1817 family's financial moves now and then, passing seldom enough that rounds get played.
WEIGHTS = {"bid": 3.0, "buy_shares": 4.0, "sell_shares": 0.5, "short": 0.3, "pass": 1.0, "lay_tile": 4.0,
           "place_token": 3.0, "buy_train": 4.0, "take_loan": 0.7, "payoff_loan": 1.0, "convert": 0.5,
           "merge": 0.5, "scrap_train": 0.2, "bankrupt": 0.05}


SET_ASIDE = " (set aside)"
# The steps during which a player or a company may be below $0: a new company's winner owes the
# price until their privates are contributed and the company is funded (11.6, as on the site),
# and a debtor in a cash crisis (15).
DEBT_STEPS = frozenset({"ipo_size", "home_token", "contribute", "cash_crisis"})


def players(count: int) -> list[dict[str, Any]]:
    # Numeric ids, as Discord's users: never the same as a private company's id.
    return [{"id": 1000 + n, "name": f"Player {n}"} for n in range(1, count + 1)]


def total_money(state: BaseGame) -> int:
    """Every dollar in the game: the bank's cash counts what it paid and received (it is unlimited
    in 18USA and goes below zero)."""
    return (state.bank.cash + state.pool.cash + sum(p.cash for p in state.players)
            + sum(c.cash for c in state.corporations.values()) + sum(c.cash for c in state.companies.values()))


def choose_move(moves: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    weights = [WEIGHTS.get(move["type"], 1.0) for move in moves]
    return rng.choices(moves, weights=weights)[0]


def pick(state: BaseGame, moves: list[dict[str, Any]], rng: random.Random, policy: str = "weighted") -> dict[str, Any]:
    """A move as a sensible random player picks it: a train bought with money at hand, a loan
    taken first when the company has too little. `policy`: "weighted" (the property tests'),
    "deep" (`deep_pick`) or "rare" (`rare_pick`)."""
    if policy == "deep":
        return deep_pick(state, moves, rng)
    if policy == "rare":
        return rare_pick(state, moves, rng)
    if policy != "weighted":
        raise ValueError(f"unknown policy {policy!r}: weighted, deep or rare")
    if len(moves) > 1 and rng.random() < 0.95:
        # Going bankrupt while something else is possible ends most games in the first rounds.
        moves = [m for m in moves if m["type"] != "bankrupt"] or moves
    move = choose_move(moves, rng)
    if move["type"] != "buy_train":
        return move
    affordable = paid_from_cash(state, move)
    if affordable is not None:
        return affordable
    loan = next((m for m in moves if m["type"] == "take_loan"), None)
    return loan or move


# The run_routes actions `concrete` made, by id, with the optimizer's answer they come from (the
# action itself is kept, so that its id is not reused while the entry lives).
_PROPOSED: dict[int, tuple[dict[str, Any], RouteResult]] = {}


def process(game: Game, action: dict[str, Any]) -> None:
    """`game.process` as the bot moves: runs the optimizer proposed are checked against the answer
    they come from (engine.given_most), not against a second search of their own, which under load
    can find more in its time than the first did (rule 12.4)."""
    made = _PROPOSED.pop(id(action), None)
    with given_most(game.state, made[1] if made is not None and made[0] is action else None):
        game.process(action)


def concrete(state: BaseGame, move: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One action for a legal move, with a random choice and a random free amount."""
    kind = move["type"]
    base = {"type": kind, "entity": move["entity"], "entity_type": move["entity_type"]}
    if "tokener" in move:
        base["tokener"] = move["tokener"]
    if kind == "run_routes":
        # As the bot's run button does: first put on its trains what the proposal counted
        # (a Pullman, a switcher, an extender), one choice per action, then run.
        proposal = proposed_runs(state, str(move["entity"]), time_budget=1.0)
        attaching = attachment_actions(state, str(move["entity"]), proposal.runs)
        if attaching:
            return attaching[0]
        action = proposal.to_action(str(move["entity"])) | {"entity_type": "corporation"}
        _PROPOSED[id(action)] = (action, proposal)
        return action
    choices = move.get("choices")
    if not choices:
        return base
    choice = dict(rng.choice(choices))
    if kind == "bid":
        low, high = choice.get("min", choice.get("min_price")), choice.get("max", choice.get("max_price"))
        step = choice.get("step", 5)
        extra = min((high - low) // step, int(rng.expovariate(0.5)))
        price = low + extra * step
        fields = {key: value for key, value in choice.items()
                  if key not in ("min", "max", "min_price", "max_price", "step")}
        return base | fields | {"price": price}
    if kind in ("buy_shares", "sell_shares"):
        shares = choice["shares"] if "shares" in choice else [choice["share"]]
        return base | {"shares": list(shares), "percent": choice["percent"]}
    if kind == "lay_tile":
        tile = rng.choice(choice["tiles"])
        return base | {"hex": choice["hex"], "tile": tile["tile"], "rotation": rng.choice(tile["rotations"])}
    if kind == "place_token":
        return base | {"city": choice["city"], "slot": choice.get("slot", 0)}
    if kind == "buy_train":
        low, high = choice.get("min_price"), choice.get("max_price")
        price = choice["price"] if "price" in choice else rng.randint(int(low), int(high))
        return base | {key: value for key, value in choice.items()
                       if key in ("train", "variant")} | {"price": price}
    if kind == "remove_token":
        return base | {"city": choice["city"], "slot": choice["slot"]}
    # The other moves' choices name the action's own fields (corporation, kind, train, choice,
    # target and target_type); a price shown beside them is information only.
    return base | {key: value for key, value in choice.items() if key not in ("price", "hex", "revenue")}


def certificate_counts(state: BaseGame) -> dict[Any, int]:
    return {player.id: state.certificate_count(player) for player in state.players}


def broken_invariants(state: BaseGame, money: int, counts_before: dict[Any, int] | None = None,
                      bought_by: Any = None) -> list[str]:
    """What no action may break, each as a sentence (empty when all hold). `counts_before`: the
    players' certificate counts before the action; `bought_by`: the player whose action it was."""
    counts_before = counts_before or {}
    broken: list[str] = []
    if total_money(state) != money:
        broken.append(f"money is not conserved: ${total_money(state) - money:+} in total "
                      f"(bank ${state.bank.cash}, players {[p.cash for p in state.players]})")
    waiting = state.round.blocking_step(state)
    for holder in [*state.players, *state.corporations.values(), *state.companies.values(), state.pool]:
        if holder.cash < 0 and (waiting is None or waiting.key not in DEBT_STEPS):
            broken.append(f"{state.describe(holder)} has ${holder.cash}")
    for corp in state.corporations.values():
        ids = [share.id for share in corp.shares]
        if len(ids) != len(set(ids)):
            broken.append(f"{corp.id} has two certificates with one id: {sorted(ids)}")
        if sum(share.percent for share in corp.shares) != 100:
            broken.append(f"{corp.id}'s certificates make {sum(s.percent for s in corp.shares)}%, not 100% "
                          f"(short certificates count below zero)")
        for share in corp.shares:
            if share.owner is corp or share.owner is state.pool:
                continue
            if not isinstance(share.owner, Player):
                broken.append(f"{share.id} is held by {state.describe(share.owner)}")
            elif share.percent < 0 and not corp.ipoed:
                broken.append(f"{state.describe(share.owner)} is short {corp.id}, which is not in play")
        # A bankrupt president's companies go on without one into liquidation (15, 14.2.1). With
        # the site's dealing dumps the president's certificate may lie in the market while its
        # seller presides (`president()` names them).
        if corp.ipoed and corp.president() is None and \
                area(state, corp) != LIQUIDATION and corp.id not in state.former_presidents:  # type: ignore[attr-defined]
            broken.append(f"{corp.id} is in play without a president")
        for train in corp.trains:
            if train.owner is not corp:
                broken.append(f"{corp.id}'s train {train.id} names {state.describe(train.owner)} as owner")
    loans = state.loans
    for holder, count in loans.held.items():
        # A liquidated company's loans wait under "<id> (set aside)" while it is sold (14.2).
        set_aside = holder.endswith(SET_ASIDE)
        corp = state.corporations.get(holder.removesuffix(SET_ASIDE))
        if corp is None or (not corp.ipoed and not set_aside):
            broken.append(f"{holder} holds {count} loans and is not a company in play")
        elif set_aside:
            continue
        elif count > state.max_loans(corp):  # type: ignore[attr-defined]
            broken.append(f"{holder} holds {count} loans, more than its {state.max_loans(corp)}")  # type: ignore[attr-defined]
    if loans.total is not None and loans.outstanding() > loans.total:
        broken.append(f"{loans.outstanding()} loans taken of the {loans.total} there are")
    trains = [t.id for c in state.corporations.values() for t in c.trains]
    if len(trains) != len(set(trains)):
        broken.append("a train has two owners")
    if set(trains) & {t.id for t in state.depot.trains}:
        broken.append(f"trains both owned and in the depot: {sorted(set(trains) & {t.id for t in state.depot.trains})}")
    if not state.finished and not crowded(state):
        for corp in state.corporations.values():
            if state.counted_trains(corp) > state.train_limit(corp):
                broken.append(f"{corp.id} is over its train limit with no discard pending")
    if not crowded_stations(state):
        for corp in state.corporations.values():
            placed = state.board.token_hexes(corp.id)
            if len({coord for coord, _ in placed}) != len(placed):
                broken.append(f"{corp.id} has two stations in one hex with no removal pending")
    for player in state.players:
        for corp in state.corporations.values():
            # A 2-share company's president's certificate is the whole company.
            # The rule 17 variant lets a president hold more.
            size = state.company_size(corp)  # type: ignore[attr-defined]
            if size > 2 and corp.percent_owned_by(player) > 60 and not state.option("president_above_60"):
                broken.append(f"{player.name} holds {corp.percent_owned_by(player)}% of {corp.id}, over 60% (11.4)")
        # Losing a presidency or a merger may put a player over the limit, until they can sell
        # (11.4); a share they bought may not.
        count = state.certificate_count(player)
        if not player.bankrupt and count > state.cert_limit and count > counts_before.get(player.id, count) \
                and bought_by == player.id:
            broken.append(f"{player.name} bought a certificate to {count}, over the limit of {state.cert_limit}")
    return broken


def refusal_probes(state: BaseGame, rng: random.Random) -> list[dict[str, Any]]:
    """Actions that cannot be legal now: a player who is not acting, a company that is not in
    play or not operating, things that do not exist."""
    acting = {p.key for p in state.acting_players()}
    idle = [p for p in state.players if p.key not in acting]
    outside = [c.id for c in state.corporations.values() if not c.ipoed]
    probes: list[dict[str, Any]] = [
        {"type": "buy_shares", "entity": state.players[0].id, "entity_type": "player", "shares": ["XX_9"],
         "percent": 10},
        {"type": "lay_tile", "entity": rng.choice(list(state.corporations)), "entity_type": "corporation",
         "hex": "Z99", "tile": "9-0", "rotation": 0},
        {"type": "dividend", "entity": rng.choice(list(state.corporations)), "entity_type": "corporation",
         "kind": "everything"},
    ]
    if outside:
        company = rng.choice(outside)
        probes += [{"type": "take_loan", "entity": company, "entity_type": "corporation"},
                   {"type": "convert", "entity": company, "entity_type": "corporation"}]
    if idle:
        player = rng.choice(idle)
        probes += [{"type": "pass", "entity": player.id, "entity_type": "player"},
                   {"type": "short", "entity": player.id, "entity_type": "player",
                    "corporation": rng.choice(list(state.corporations))}]
    return probes + rare_path_probes(state, rng, idle)


def rare_path_probes(state: BaseGame, rng: random.Random, idle: list[Player]) -> list[dict[str, Any]]:
    """Section 14's and rule 11.2's moves by those who may not make them now: a short of a company
    the player holds shares of, a conversion, merger or loan by a company with no move now, a bid
    for or an offer of a company in play by a player who is not acting."""
    moving = {str(move["entity"]) for move in legal_moves(state)}
    in_play = [corp.id for corp in state.corporations.values() if corp.ipoed]
    probes: list[dict[str, Any]] = []
    for player in state.acting_players():
        held = [corp.id for corp in state.corporations.values()
                if any(share.percent > 0 for share in corp.shares_of(player))]
        if held:
            probes.append({"type": "short", "entity": player.id, "entity_type": "player",
                           "corporation": rng.choice(held)})
    waiting = [corp_id for corp_id in in_play if corp_id not in moving]
    if waiting and len(in_play) > 1:
        company = rng.choice(waiting)
        other = rng.choice([corp_id for corp_id in in_play if corp_id != company])
        probes += [{"type": "merge", "entity": company, "entity_type": "corporation", "corporation": other},
                   {"type": "convert", "entity": company, "entity_type": "corporation"},
                   {"type": "take_loan", "entity": company, "entity_type": "corporation"}]
    if idle and in_play:
        player, target = rng.choice(idle), rng.choice(in_play)
        probes += [{"type": "bid", "entity": player.id, "entity_type": "player", "corporation": target, "price": 10},
                   {"type": "assign", "entity": player.id, "entity_type": "player", "target": target,
                    "target_type": "corporation"}]
    return probes


@dataclass
class Played:
    game: Game
    actions: int = 0
    failure: str | None = None  # the first broken property, with where it broke
    stopped: bool = False  # the caller's `stop` said the position was the one it looked for
    kinds: dict[str, int] = field(default_factory=dict)
    paths: Counter[str] = field(default_factory=Counter)  # the rare paths met (`usa_paths.PATHS`)
    # The slowest legal-moves query and action processed, in wall seconds, with what they were
    # (the bot answers within Discord's 3 s).
    slowest_moves: tuple[float, str] = (0.0, "")
    slowest_action: tuple[float, str] = (0.0, "")

    def timed(self, moves_took: float, action_took: float, action: dict[str, Any]) -> None:
        if moves_took > self.slowest_moves[0]:
            self.slowest_moves = (moves_took, self.where())
        if action_took > self.slowest_action[0]:
            self.slowest_action = (action_took, f"{self.where()}: {action['type']} {action['entity']}")

    @property
    def ending(self) -> str:
        if self.failure:
            return "broken"
        if self.stopped:
            return "stopped"
        return str(self.game.state.end_reason) if self.game.finished else "cap"

    def where(self) -> str:
        state = self.game.state
        return f"action {self.actions}, {state.round_title()}, phase {state.phase.name}"


def new_random_game(count: int, seed: int, options: Sequence[str] = ()) -> Game:
    return new_game("18USA", players(count), seed, list(options))


def play_random_game(count: int, seed: int, cap: int, probe_rate: float = 0.03,
                     options: Sequence[str] = (), policy: str = "weighted",
                     stop: Callable[[Game, dict[str, Any]], bool] | None = None,
                     steer: Callable[[BaseGame, list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
                     ) -> Played:
    """Play until the game ends, `cap` actions, or the first broken property (recorded, with
    the action, in `failure`: the caller reports it). `stop`, asked after each action with the
    game and that action, ends the play when it answers True (`bench/keep_positions.py` looks
    for a position to keep that way). `steer` narrows the legal moves offered (some of them, or
    some of a move's choices) before the policy picks: a position to keep is led toward that way,
    by legal moves only."""
    rng = random.Random(seed)
    game = new_random_game(count, seed, options)
    played = Played(game)
    money = total_money(game.state)
    trains = TrainLedger(game.state)
    for step in range(cap):
        played.actions = step
        if game.finished:
            return played
        began = time.perf_counter()
        moves = legal_moves(game.state)
        moves_took = time.perf_counter() - began
        if not moves:
            played.failure = f"nobody can move at {played.where()}"
            return played
        offered = (steer(game.state, moves) or moves) if steer is not None else moves
        action = concrete(game.state, pick(game.state, offered, rng, policy), rng)
        played.kinds[action["type"]] = played.kinds.get(action["type"], 0) + 1
        counts = certificate_counts(game.state)
        was = before(game.state)
        try:
            began = time.perf_counter()
            process(game, action)
            played.timed(moves_took, time.perf_counter() - began, action)
        except GameError as error:
            what = ("the route optimizer's runs (engine/core/most_earnings.py best_runs) refused"
                    if action["type"] == "run_routes" else "offered move refused")
            played.failure = f"{what} at {played.where()}: {action}: {error}"
            return played
        mover = action["entity"] if action["entity_type"] == "player" else None
        played.paths.update(paths_of(was, action, game.state))
        broken = broken_invariants(game.state, money, counts, mover) + broken_loans(game.state)
        broken += broken_out_of_play(game.state)
        broken += trains.broken(game.state, action)
        if broken:
            played.failure = f"after {action} at {played.where()}: " + "; ".join(broken)
            return played
        if stop is not None and stop(game, action):
            played.actions, played.stopped = step + 1, True
            return played
        if rng.random() < probe_rate:
            failure = probe_refusal(game, rng)
            if failure:
                played.failure = f"at {played.where()}: {failure}"
                return played
    played.actions = cap
    return played


def snapshot(game: Game) -> Any:
    """A deep picture of the position and the log. The map's read-only data, which copies of a
    game share (and a refused move's restored copy shares differently), is left out."""
    state = {key: value for key, value in game.state.__dict__.items() if key != "data"}
    umap = state.pop("umap")
    state["umap"] = {key: value for key, value in vars(umap).items() if key not in _SHARED_BY_COPIES}
    return canonical((state, game.raw_actions))


def probe_refusal(game: Game, rng: random.Random) -> str | None:
    """Try an action that cannot be legal: it must be refused with a GameError (not an internal
    error) and change nothing."""
    probe = rng.choice(refusal_probes(game.state, rng))
    before = snapshot(game)
    try:
        game.process(probe)
    except GameError as error:
        if "internal error" in str(error):
            return f"{probe} raised {error}"
        if snapshot(game) != before:
            return f"the refused {probe} changed the game"
        return None
    return f"{probe} was accepted"

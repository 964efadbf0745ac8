"""Regenerate the kept 18USA random-play positions a rules change made stop replaying (run by
hand, not a test).

A kept position (tests/data/positions/NAME.json) is the log of a random legal game up to a
situation a test relies on: a company whose president went bankrupt during its turn, a player
pushed over the certificate limit by losing a presidency, the extender and a Pullman on a
company's one train, a switcher position for the route optimizer. When a rule changes what is legal, the log
stops replaying (`bench/mend_kept_position.py` mends a log that only lacks a few passes). This
plays random games with the current engine (`usa_random_play.play_random_game`, the seeds and
policy below, the first seed the original's) until the position's predicate holds, and saves the
game's document there, as the originals were saved:

    python bench/keep_positions.py NAME [NAME ...] [--seeds 20] [--first-seed N] [--policy P]
                                   [--players N] [--options A,B] [--write]
    python bench/keep_positions.py --check      # which kept positions still replay

A position random players seldom reach has a steer: before the policy picks, it narrows the
legal moves offered (to some of them, or to some of a move's choices) toward the position, so the
game is still played by legal moves only; the document names the steer. Positions that need a
private company skip the seeds that do not deal it.

Several names share one search when their settings agree (two switcher positions come from one
deep game). Random play asks the route optimizer with a 1 s budget, so a game is the same
only while every proposal is proven: a seed may reach another position on another day. After a
new position is written, the tests that use it need their specifics (companies, trains,
revenues, the proven most from a long search: `--prove NAME`) rewritten to it: each test's
docstring says what it proves.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "engine" / "titles" / "g18usa")]

from usa_deep_policy import is_pullman, paid_from_cash  # noqa: E402
from usa_random_play import new_random_game, play_random_game  # noqa: E402

from engine import GameError  # noqa: E402
from engine.core.entities import Corporation, Player  # noqa: E402
from engine.core.game import BaseGame  # noqa: E402
from engine.core.most_earnings import best_runs, problem_from_game  # noqa: E402
from engine.legal import legal_moves, make_unattended_moves, move_decider  # noqa: E402
from engine.log import Game, load_game  # noqa: E402
from engine.titles.g18usa import phases as usa_phases  # noqa: E402
from engine.titles.g18usa.operating import UsaOperatingRound  # noqa: E402
from engine.titles.g18usa.revenue import EXTENDABLE  # noqa: E402

KEPT = ROOT / "tests" / "data" / "positions"
HARNESS = "tests/engine/titles/g18usa/usa_random_play.py"

# What a finder says of the position it found (the document's description), or None.
Finder = Callable[[Game, dict[str, Any]], str | None]
# The legal moves narrowed toward a position (`play_random_game`'s steer): some of them, or some
# of a move's choices; an empty list leaves them all.
Steer = Callable[[BaseGame, list[dict[str, Any]]], list[dict[str, Any]]]


def operating_company(state: BaseGame) -> tuple[UsaOperatingRound, Corporation] | None:
    rnd = state.round
    entity = rnd.current_entity(state) if isinstance(rnd, UsaOperatingRound) else None
    return (rnd, entity) if isinstance(rnd, UsaOperatingRound) and isinstance(entity, Corporation) else None


def runnable(corp: Corporation) -> list[str]:
    return [train.id for train in corp.trains if not usa_phases.is_pullman(train)]


def at_run_step(state: BaseGame, corp: Corporation) -> bool:
    return any(m["type"] == "run_routes" and str(m["entity"]) == corp.id for m in legal_moves(state))


def model_edges(state: BaseGame, corp: Corporation) -> int:
    """The track edges of the whole-network model of the company's trains (router.model_input)."""
    from engine.router.model_input import model_input

    problem = problem_from_game(state, corp)
    return len(model_input(problem, list(problem.trains), problem.rules.attachments()).graph.edges)


# --- the finders: each is asked after every action ----------------------------------------------
def presidentless_turn() -> Finder:
    """A bankruptcy during the bankrupt president's company's operating turn: the company, which
    nobody presides now, is the only one that can act; after its passes a presided company acts."""
    def found(game: Game, action: dict[str, Any]) -> str | None:
        state = game.state
        turn = operating_company(state) if action["type"] == "bankrupt" else None
        if turn is None or turn[1].president() is not None:
            return None
        corp = turn[1]
        moves = legal_moves(state)
        if not moves or any(str(m["entity"]) != corp.id or move_decider(state, m) is not None for m in moves):
            return None
        trial = state.snapshot()
        passes = make_unattended_moves(trial)
        after = legal_moves(trial)
        if not passes or not after or any(move_decider(trial, m) is None for m in after):
            return None
        bankrupt = state.players[[str(p.id) for p in state.players].index(str(action["entity"]))]
        return (f"up to {corp.id}'s operating turn in {state.round_title()}, after its president "
                f"{bankrupt.name} went bankrupt during it: only {corp.id} can act "
                f"({', '.join(sorted({m['type'] for m in moves}))}), and nobody presides it")
    return found


def presidency_lost_over_limit() -> Finder:
    """A player's share purchase makes them a company's president; the former president, at the
    certificate limit, gets smaller certificates for the president's one and goes over it (11.4).
    They act next, and must sell first: selling is their only move of their own (11.1). The log
    ends with that purchase."""
    memory: dict[str, Any] = {}

    def found(game: Game, action: dict[str, Any]) -> str | None:
        state = game.state
        counts = {p.id: state.certificate_count(p) for p in state.players}
        presidents = {c.id: c.president() for c in state.corporations.values() if c.ipoed}
        before_counts, before_presidents = memory.get("counts", counts), memory.get("presidents", presidents)
        memory.update(counts=counts, presidents=presidents)
        if action["type"] != "buy_shares" or not action.get("shares"):
            return None
        corp_id = str(action["shares"][0]).rsplit("_", 1)[0]
        buyer, former = presidents.get(corp_id), before_presidents.get(corp_id)
        if not isinstance(buyer, Player) or str(buyer.id) != str(action["entity"]) or not isinstance(former, Player) \
                or former is buyer or counts[former.id] <= state.cert_limit or before_counts[former.id] != state.cert_limit:
            return None
        own = {m["type"] for m in legal_moves(state) if m["entity"] == former.id}
        if own != {"sell_shares"}:
            return None
        return (f"up to {buyer.name}'s purchase in {state.round_title()} (the log ends before it): {buyer.name} "
                f"buys {action['shares'][0]} and presides {corp_id}; {former.name}, its president at the "
                f"certificate limit of {state.cert_limit}, gets smaller certificates for the president's one "
                f"({before_counts[former.id]} to {counts[former.id]} certificates, over the limit, 11.4), acts "
                f"next and must sell first (11.1)")
    return found


def extender_then_pullman() -> Finder:
    """A company at its run step with one train, on which the extender (P30) is attached, and a
    Pullman: the Pullman cannot ride the extended train."""
    def found(game: Game, action: dict[str, Any]) -> str | None:
        turn = operating_company(game.state)
        if turn is None or action["type"] != "choose" or set(turn[0].attachments) != {"P30"}:
            return None
        rnd, corp = turn
        trains = runnable(corp)
        if len(trains) != 1 or len(trains) == len(corp.trains) or not at_run_step(game.state, corp):
            return None
        return (f"up to {corp.id}'s run in {game.state.round_title()}: it owns one train, {trains[0]}, which "
                f"carries the extender (P30), and a Pullman")
    return found


# --- the steers: each leads random play toward a position its finder then recognises ----------
def toward_extender_and_pullman() -> Steer:
    """A company owning P30's extender and one train it may extend (and no more) buys a Pullman
    as soon as it can pay for one from its cash, and then no other train while that one runs:
    random companies seldom keep to one train."""
    def steer(state: BaseGame, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        kept = []
        for move in moves:
            corp = state.corporation(str(move["entity"])) if move["type"] == "buy_train" else None
            trains = [t for t in corp.trains if not usa_phases.is_pullman(t)] if corp is not None else []
            extender = state.companies.get("P30")
            if corp is None or extender is None or extender.owner is not corp or extender.closed \
                    or len(trains) != 1 or trains[0].name not in EXTENDABLE:
                kept.append(move)
                continue
            affordable = paid_from_cash(state, move)
            pullmans = [c for c in (affordable or {"choices": []})["choices"] if is_pullman(c.get("train"))]
            if pullmans and len(trains) == len(corp.trains):
                return [move | {"choices": pullmans}]
        return kept
    return steer


def toward_presidency_from_the_limit() -> Steer:
    """Random players seldom come near the certificate limit (they run out of money first), nor
    aim at a presidency. So in a stock round a player who can pay for a share from their cash
    buys one rather than make another move: one that takes the presidency of a company from the
    next player, at the limit, who then may only pass (tried on a copy), if one does; else one of
    a company presided by another player within NEAR_LIMIT certificates of the limit, where the
    buyer comes closest to the president's holding without passing it; else the cheapest. (The
    steer aims at a former president with nothing to sell, whom the finder once wanted; the
    purchases it leads to meanwhile made the kept position, a former president who must sell.)"""
    def steer(state: BaseGame, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        step = state.round.blocking_step(state)
        move = next((m for m in moves if m["type"] == "buy_shares" and m["entity_type"] == "player"), None)
        if move is None or step is None or step.key != "stock":
            return []
        buyer = state.player(move["entity"])
        paid = [c for c in move["choices"] if c["price"] <= buyer.cash]
        taking = [c for c in paid if leaves_the_former_only_a_pass(state, buyer, c)]
        if taking:
            return [move | {"choices": taking}]
        aimed = [c for c in paid if (corp := bought_company(state, c)) is not None
                 and isinstance(president := corp.president(), Player) and president is not buyer
                 and state.certificate_count(president) >= state.cert_limit - NEAR_LIMIT
                 and gap_to_president(state, buyer, c) >= 0]
        if aimed:
            closest = min(gap_to_president(state, buyer, c) for c in aimed)
            return [move | {"choices": [c for c in aimed if gap_to_president(state, buyer, c) == closest]}]
        if paid:
            cheapest = min(c["price"] for c in paid)
            return [move | {"choices": [c for c in paid if c["price"] == cheapest]}]
        return []
    return steer


NEAR_LIMIT = 3


def bought_company(state: BaseGame, choice: dict[str, Any]) -> Corporation | None:
    return state.corporations.get(str((choice.get("shares") or [choice.get("share")])[0]).rsplit("_", 1)[0])


def gap_to_president(state: BaseGame, buyer: Player, choice: dict[str, Any]) -> int:
    """How much less than the company's president the buyer holds after buying `choice`."""
    corp = bought_company(state, choice)
    assert corp is not None
    return corp.percent_owned_by(corp.president()) - corp.percent_owned_by(buyer) - int(choice["percent"])


def leaves_the_former_only_a_pass(state: BaseGame, buyer: Player, choice: dict[str, Any]) -> bool:
    """Whether buying `choice` takes the presidency from the next player, at the certificate
    limit, who then may only pass (tried on a copy of the game)."""
    corp = bought_company(state, choice)
    former = corp.president() if corp is not None else None
    if corp is None or not isinstance(former, Player) or former is buyer \
            or state.next_player_in(state.player_left_of(buyer)) is not former \
            or state.certificate_count(former) != state.cert_limit or gap_to_president(state, buyer, choice) >= 0:
        return False
    trial = state.snapshot()
    shares = choice["shares"] if "shares" in choice else [choice["share"]]
    try:
        trial.process({"type": "buy_shares", "entity": buyer.id, "entity_type": "player", "shares": list(shares),
                       "percent": choice["percent"]})
    except GameError:
        return False
    return [(m["type"], m["entity"]) for m in legal_moves(trial) if m["entity"] == former.id] == [("pass", former.id)]


def switcher(label: str, trains: tuple[int, int], edges: tuple[int, int], attached: bool | None,
             great_northern: bool) -> Finder:
    """A company at its run step owning P19's switcher (`attached`: on a train already, or not yet;
    None: either), with `trains` runnable trains at least and at most, whose whole-network model
    has `edges` track edges at least and at most (and P17, if `great_northern`)."""
    def found(game: Game, action: dict[str, Any]) -> str | None:
        state = game.state
        turn = operating_company(state)
        if turn is None:
            return None
        rnd, corp = turn
        owned = {c.id for c in state.companies.values() if c.owner is corp}
        count = len(runnable(corp))
        if "P19" not in owned or not trains[0] <= count <= trains[1] or (great_northern and "P17" not in owned) \
                or (attached is not None and ("P19" in rnd.attachments) != attached) \
                or not at_run_step(state, corp):
            return None
        size = model_edges(state, corp)
        if not edges[0] <= size <= edges[1]:
            return None
        names = ", ".join(t.name for t in corp.trains if not usa_phases.is_pullman(t))
        on = f"P19's switcher on {rnd.attachments['P19']}" if "P19" in rnd.attachments else "P19's switcher to attach"
        return (f"up to {corp.id}'s run in {state.round_title()} ({label}): trains {names}, {on}"
                f"{', P17' if 'P17' in owned else ''}; a model of {size} track edges")
    return found


@dataclass
class Wanted:
    players: int
    seed: int  # the original's; the search goes on from it
    policy: str
    options: tuple[str, ...]
    finder: Callable[[], Finder]
    cap: int = 1500
    drop_last: bool = False  # the log ends before the action found: the test makes it
    steer: Callable[[], Steer] | None = None  # leads play toward the position
    needs: tuple[str, ...] = ()  # private companies the position needs: games dealt without one are skipped


SWITCHER_GAME = {"players": 4, "seed": 20700, "policy": "deep", "options": (), "cap": 1500}
WANTED: dict[str, Wanted] = {
    "usa_presidentless_company_turn": Wanted(5, 8005, "weighted", (), presidentless_turn),
    "usa_presidency_lost_over_cert_limit": Wanted(7, 33041, "rare", (), presidency_lost_over_limit, cap=2500,
                                                  drop_last=True,
                                                  steer=toward_presidency_from_the_limit),
    "usa_extender_then_pullman": Wanted(5, 31010, "rare", (), extender_then_pullman,
                                        steer=toward_extender_and_pullman, needs=("P30",)),
    "usa_switcher_drop_revalued": Wanted(**SWITCHER_GAME, finder=lambda: switcher(  # type: ignore[arg-type]
        "several trains, the switcher on one", (3, 4), (0, 999), True, False)),
    "usa_switcher_sixty_edges": Wanted(**SWITCHER_GAME, finder=lambda: switcher(  # type: ignore[arg-type]
        "one train, the switcher, a model of 55-64 edges", (1, 1), (55, 64), None, True)),
    "usa_three_trains_switcher_open": Wanted(5, 30017, "rare", (), lambda: switcher(
        "three trains, the switcher not yet attached, P17", (3, 3), (15, 40), False, True)),
}


@dataclass
class Search:
    """The positions wanted from one game, and the documents found so far."""

    names: list[str]
    write: bool = False  # save each document as soon as it is found
    finders: dict[str, Finder] = field(default_factory=dict)
    found: dict[str, dict[str, Any]] = field(default_factory=dict)

    steers: list[Steer] = field(default_factory=list)

    def start(self) -> None:
        self.finders = {name: WANTED[name].finder() for name in self.names if name not in self.found}
        self.steers = [make() for name in self.finders if (make := WANTED[name].steer) is not None]

    def steer(self, state: BaseGame, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for steer in self.steers:
            moves = steer(state, moves) or moves
        return moves

    def stop(self, game: Game, action: dict[str, Any]) -> bool:
        for name, finder in list(self.finders.items()):
            said = finder(game, action)
            if said is not None:
                self.found[name] = document(game, WANTED[name], said)
                del self.finders[name]
                print(f"    found {name} at action {len(game.raw_actions)}: {said}", flush=True)
                if self.write:
                    (KEPT / f"{name}.json").write_text(json.dumps(self.found[name], separators=(",", ":")))
                    print(f"    wrote {KEPT / name}.json", flush=True)
        return not self.finders


def document(game: Game, wanted: Wanted, said: str) -> dict[str, Any]:
    state = game.state
    how = f"{HARNESS}{', policy ' + wanted.policy if wanted.policy != 'weighted' else ''}, " \
          f"{len(state.players)} players, seed {state.seed}" \
          f"{', options ' + ', '.join(wanted.options) if wanted.options else ''}" \
          f"{', steered by ' + wanted.steer.__name__ if wanted.steer is not None else ''}"
    return {
        "title": "18USA",
        "players": [{"id": p.id, "name": p.name} for p in state.players],
        "settings": {"seed": state.seed},
        "stationmaster": {"rule_options": list(wanted.options)},
        "description": f"Random legal play ({how}; bench/keep_positions.py) {said}.",
        "actions": [dict(action) for action in game.raw_actions[:-1 if wanted.drop_last else None]],
    }


def search(names: list[str], first_seed: int | None, seeds: int, policy: str | None = None,
           players: int | None = None, write: bool = False,
           options: tuple[str, ...] | None = None) -> dict[str, dict[str, Any]]:
    for name in names:  # another policy, player count or rule options than the original's, when asked
        WANTED[name] = replace(WANTED[name], policy=policy or WANTED[name].policy,
                               players=players or WANTED[name].players,
                               options=WANTED[name].options if options is None else options)
    settings = {(WANTED[n].players, WANTED[n].policy, WANTED[n].options, WANTED[n].cap) for n in names}
    if len(settings) != 1:
        raise SystemExit(f"{names} are played with different settings: search them one at a time")
    wanted = WANTED[names[0]]
    start = wanted.seed if first_seed is None else first_seed
    found = Search(names, write)
    needs = {company for name in names for company in WANTED[name].needs}
    for seed in range(start, start + seeds):
        dealt = new_random_game(wanted.players, seed, wanted.options).state.companies
        if missing := sorted(needs - set(dealt)):
            print(f"seed {seed}: skipped, {', '.join(missing)} not dealt", flush=True)
            continue
        found.start()
        began = time.process_time()
        played = play_random_game(wanted.players, seed, wanted.cap, options=wanted.options,
                                  policy=wanted.policy, stop=found.stop, steer=found.steer)
        print(f"seed {seed}: {played.ending} at {played.where()} ({time.process_time() - began:.0f} s CPU)"
              + (f"\n    {played.failure}" if played.failure else ""), flush=True)
        if len(found.found) == len(names):
            break
    return found.found


def check() -> None:
    for path in sorted(KEPT.glob("*.json")):
        try:
            load_game(json.loads(path.read_text()))
            print(f"replays  {path.stem}")
        except Exception as error:  # noqa: BLE001 - a report of every kept position
            print(f"REFUSED  {path.stem}: {str(error)[:200]}")


def prove(name: str, budget: float) -> None:
    """The most of the kept position's running company, by the whole-network model with a long
    budget and by the listing search: the oracle the router tests' expected totals come from."""
    state = load_game(json.loads((KEPT / f"{name}.json").read_text())).state
    state.importing = False
    turn = operating_company(state)
    if turn is None:
        raise SystemExit(f"{name}: no company operates")
    for method in ("model", "listing"):
        began = time.process_time()
        result = best_runs(state, turn[1].id, time_budget=budget, method=method)
        print(f"{name} {turn[1].id} {method}: ${result.total} proven {result.proven_optimal} "
              f"({time.process_time() - began:.2f} s CPU) {[(r.train, r.revenue, r.attachments) for r in result.runs]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", choices=[*sorted(WANTED), []], help="kept positions to regenerate")
    parser.add_argument("--first-seed", type=int, default=None, help="default: the original's seed")
    parser.add_argument("--seeds", type=int, default=20, help="seeds to try at most")
    parser.add_argument("--policy", choices=["weighted", "deep", "rare"], help="default: the original's")
    parser.add_argument("--players", type=int, help="default: the original's")
    parser.add_argument("--options", help="rule options, comma-separated ('' for none); default: the original's")
    parser.add_argument("--write", action="store_true", help="save the documents found")
    parser.add_argument("--check", action="store_true", help="say which kept positions replay")
    parser.add_argument("--prove", metavar="NAME", help="the most of a kept position, by two searches")
    parser.add_argument("--budget", type=float, default=60.0, help="seconds for --prove's searches")
    args = parser.parse_args()
    if args.check:
        check()
    if args.prove:
        prove(args.prove, args.budget)
    if not args.names:
        return
    options = None if args.options is None else tuple(o for o in args.options.split(",") if o)
    found = search(args.names, args.first_seed, args.seeds, args.policy, args.players, args.write, options)
    for name in sorted(set(args.names) - set(found)):
        print(f"not found: {name}")


if __name__ == "__main__":
    main()

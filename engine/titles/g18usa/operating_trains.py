"""18USA runs and trains (rules 12.4, 12.6, 12.7): attachments for a run (Pullman, P19's
switcher, P30's extender), and buying trains and Pullmans. Earnings, interest and scrapping a
Pullman are the 1817 family's steps."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from engine.core.actions import Action, BuyTrain, Pass, RunRoutes
from engine.core.entities import Corporation, Holder, Train
from engine.core.family1817.game import SITE_TRAINS_LEFT_PLAY_WAIT
from engine.core.round import Round
from engine.core.routes import Run, rebuild_run
from engine.core.step import Handler, Move
from engine.core.steps.discard import crowded
from engine.core.steps.operating import OperatingStep
from engine.core.steps.route import check_most
from engine.errors import GameError
from engine.titles.g18usa import phases as usa_phases
from engine.titles.g18usa.actions import Choose
from engine.titles.g18usa.operating import UsaOperatingRound, _round, budget
from engine.titles.g18usa.phases import SITE_DISCARD_AFTER_BUYING
from engine.titles.g18usa.revenue import (
    RunTrain,
    check_run_set,
    checked_stops,
    great_northern_bonus,
    run_value,
)
from engine.titles.g18usa.usa_game import usa_game as _usa

if TYPE_CHECKING:
    from engine.core.game import BaseGame
    from engine.titles.g18usa.game import G18USA

SWITCHER, EXTENDER, PULLMAN = "P19", "P30", "P"
EXTENDABLE = ("2", "2+", "3", "3+", "4", "4+")
PULLMAN_PRICE = 200
PULLMAN_PHASE = "5"  # Pullman cars are sold from this phase on (12.7)
LOCOMOTIVE = "P25"


# --- attachments (12.7, P19, P30) --------------------------------------------------------------
def upgrades(game: G18USA, corporation: Corporation, rnd: UsaOperatingRound) -> list[str]:
    """The upgrades still to attach this run, in the site's order: switcher, extender, Pullman."""
    found = []
    if game.owns(corporation, SWITCHER):
        found.append(SWITCHER)
    if game.owns(corporation, EXTENDER):
        found.append(EXTENDER)
    if any(usa_phases.is_pullman(train) for train in corporation.trains):
        found.append(PULLMAN)
    return [u for u in found if u not in rnd.attachments]


def eligible_trains(corporation: Corporation, upgrade: str, rnd: UsaOperatingRound) -> list[Train]:
    taken = set(rnd.attachments.values())
    trains = [t for t in corporation.trains if not usa_phases.is_pullman(t) and t.id not in taken]
    if upgrade == EXTENDER:
        trains = [t for t in trains if t.name in EXTENDABLE]
    return trains


def shown_name(game: G18USA, train: Train) -> str:
    """The train as the site lists it: `5P` with a Pullman, `2+1` extended, `2/1` switched."""
    rnd = game.round
    if not isinstance(rnd, UsaOperatingRound) or rnd.turn is None or train.owner is not rnd.turn.corporation:
        return train.name
    for upgrade, train_id in rnd.attachments.items():
        if train_id == train.id:
            return train.name + {SWITCHER: "/1", EXTENDER: "+1", PULLMAN: "P"}[upgrade]
    return train.name


UPGRADE_WORDS = {SWITCHER: "switcher", EXTENDER: "extender", PULLMAN: "Pullman"}


def attachment_choice(game: G18USA, upgrade: str, upgrade_index: int, train: Train, train_index: int) -> Move:
    """One offered attachment: the site's `<train>-<upgrade>` code, and what it means for front
    ends (the attachment, the train it goes on, their names)."""
    company = game.companies.get(upgrade)
    what = f"{company.name} ({UPGRADE_WORDS[upgrade]})" if company is not None else UPGRADE_WORDS[upgrade]
    return {"choice": f"{train_index}-{upgrade_index}", "attachment": upgrade, "attaches_to": train.id,
            "label": f"{what} on the {train.name}-train {train.id}"}


class UsaRouteStep(OperatingStep):
    key = "route"
    label = "run trains"

    def handlers(self) -> Mapping[str, Handler]:
        return {"choose": self.process_choose, "run_routes": self.process_run}

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        orr = _round(rnd)
        corp = orr.corporation
        runnable = [t for t in corp.trains if not usa_phases.is_pullman(t)]
        if not runnable or not game.route_available(corp):
            return []
        kinds = ["run_routes"]
        if any(eligible_trains(corp, u, orr) for u in upgrades(usa, corp, orr)):
            kinds.insert(0, "choose")
        return kinds

    def skip(self, game: BaseGame, rnd: Round) -> None:
        turn = self.turn(rnd)
        if turn.revenue is None:
            turn.revenue = 0
        self.done(rnd)

    def process_choose(self, game: BaseGame, rnd: Round, entity: Holder, action: Choose) -> None:
        usa = _usa(game)
        orr = _round(rnd)
        corp = self.operator(rnd, entity)
        train_index, _, upgrade_index = str(action.choice).partition("-")
        open_upgrades = upgrades(usa, corp, orr)
        try:
            upgrade = open_upgrades[int(upgrade_index)]
            train = eligible_trains(corp, upgrade, orr)[int(train_index)]
        except (ValueError, IndexError):
            raise GameError(f"choose '<train>-<upgrade>' from the offered attachments, not {action.choice!r}") from None
        orr.attachments[upgrade] = train.id
        game.log.append(f"{corp.id} puts {upgrade_name(usa, upgrade)} on its {train.name}-train {train.id} for this run")

    def process_run(self, game: BaseGame, rnd: Round, entity: Holder, action: RunRoutes) -> None:
        usa = _usa(game)
        orr = _round(rnd)
        corp = self.operator(rnd, entity)
        runs = check_runs(usa, corp, orr, action.routes)
        if usa.must_run_for_the_most() and not usa.trust_logged_revenue():
            check_most(usa, corp, sum(run.revenue for run in runs))
        turn = self.turn(rnd)
        turn.runs = runs
        turn.revenue = sum(run.revenue for run in runs) + action.extra_revenue
        game.last_runs = runs
        orr.attachments = {}
        game.log.append(f"{corp.id} runs for ${turn.revenue}")
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        orr = _round(rnd)
        corp = orr.corporation
        kinds = self.own_actions(game, rnd)
        moves: list[Move] = []
        if "choose" in kinds:
            choices = [attachment_choice(usa, upgrade, u, train, t)
                       for u, upgrade in enumerate(upgrades(usa, corp, orr))
                       for t, train in enumerate(eligible_trains(corp, upgrade, orr))]
            moves.append({"type": "choose", "entity": corp.id, "choices": choices})
        if "run_routes" in kinds:
            moves.append({"type": "run_routes", "entity": corp.id})
        return moves

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Choose):
            return str(choice["choice"]) == str(action.choice)
        return super().matches(game, choice, action)


def check_one_upgrade_each(game: G18USA, rnd: UsaOperatingRound) -> None:
    """A train takes one upgrade a run (the switcher, the extender and the Pullman each go on
    "one train"): the `choose` offer keeps to that, and a run is refused whatever handed a
    train a second one (the rule stays the engine's, not the offer's)."""
    carried: dict[str, list[str]] = {}
    for upgrade, train_id in rnd.attachments.items():
        carried.setdefault(train_id, []).append(upgrade)
    for train_id, on_it in carried.items():
        if len(on_it) > 1:
            names = " and ".join(upgrade_name(game, upgrade) for upgrade in on_it)
            raise GameError(f"train {train_id} carries {names}; a train takes one upgrade a run")


def upgrade_name(game: G18USA, upgrade: str) -> str:
    company = game.companies.get(upgrade)
    return f"{company.name} ({UPGRADE_WORDS[upgrade]})" if company is not None else f"the {UPGRADE_WORDS[upgrade]}"


def check_runs(game: G18USA, corp: Corporation, rnd: UsaOperatingRound,
               routes: tuple[Mapping[str, Any], ...]) -> list[Run]:
    check_one_upgrade_each(game, rnd)
    used: set[tuple[str, int]] = set()
    built = []
    seen: set[str] = set()
    owned = frozenset(company.id for company in game.companies_of(corp))
    for route in routes:
        train = next((t for t in corp.trains if t.id == route.get("train")), None)
        if train is None or usa_phases.is_pullman(train):
            raise GameError(f"{corp.id} has no train {route.get('train')!r} to run")
        if train.id in seen:
            raise GameError(f"train {train.id} can run only once")
        seen.add(train.id)
        chains = route.get("connections")
        if not isinstance(chains, list):
            raise GameError("each route needs its connections")
        stops, paths = rebuild_run(game.board, chains, used)
        used.update(paths)
        built.append((route, train, stops, paths))
    check_run_set(game.umap, [stops for _, _, stops, _ in built])
    runs = []
    values = []
    # While a log imports, its stored revenues stand: those runs are checked, not valued.
    trusted = [game.trust_logged_revenue() and isinstance(route.get("revenue"), int) for route, *_ in built]
    for (_route, train, stops, paths), stands in zip(built, trusted, strict=True):
        attached = {u for u, t in rnd.attachments.items() if t == train.id}
        distance = train.distance + (1 if attached & {SWITCHER, EXTENDER} else 0)
        run_train = RunTrain(train.id, distance, PULLMAN in attached, SWITCHER in attached)
        if stands:
            checked_stops(game.umap, corp.id, game.phase.name, run_train, stops)
            values.append(0)
        else:
            values.append(run_value(game.umap, corp.id, game.phase.name, run_train, stops, paths, owned))
    if "P17" in owned and not all(trusted):
        bonus = great_northern_bonus(game.umap, [(t.id, stops) for _, t, stops, _ in built])
        values = [v + bonus.get(t.id, 0) for v, (_, t, _, _) in zip(values, built, strict=True)]
    for value, (route, train, stops, paths), stands in zip(values, built, trusted, strict=True):
        declared = route.get("revenue")
        if stands:
            assert isinstance(declared, int)
            value = declared
        elif isinstance(declared, int) and declared != value:
            raise GameError(f"the run of train {train.id} is worth ${value}, not ${declared}")
        runs.append(Run(train.id, tuple(stops), tuple(paths), tuple(tuple(c) for c in route["connections"]), value))
    return runs


# --- trains (12.6, 12.7) -------------------------------------------------------------------------
def train_price(game: G18USA, corporation: Corporation, train: Train) -> int:
    """P25: 10% off 2- to 6-trains from the bank, rounded in the company's favour."""
    if game.owns(corporation, LOCOMOTIVE) and train.name in ("2", "2+", "3", "3+", "4", "4+", "5", "6"):
        return train.price - train.price // 10
    return train.price


def bank_prices(game: G18USA, corporation: Corporation, train: Train) -> list[int]:
    """What the company may pay the bank for `train`. P25's card: the owning company "pays 10%
    less"; with `site_p25_full_price` it may pay the full price too, as on the site."""
    if game.option(usa_phases.SITE_P25_FULL_PRICE):
        return sorted({train_price(game, corporation, train), train.price})
    return [train_price(game, corporation, train)]


def pullman_allowed(game: G18USA, corporation: Corporation) -> str | None:
    if not game.phase_at_least(PULLMAN_PHASE):
        return f"Pullman cars are sold from phase {PULLMAN_PHASE} (12.7)"
    if any(usa_phases.is_pullman(t) for t in corporation.trains):
        return f"{corporation.id} already has a Pullman car (12.7)"
    return None


def room_for_train(game: G18USA, corporation: Corporation) -> bool:
    return game.counted_trains(corporation) < game.train_limit(corporation)


def short_of_cash(game: G18USA, corporation: Corporation, costs: str, cost: int) -> str:
    """The refusal of a purchase the treasury cannot pay: how much more, and to take loans first
    where loans would pay for it (rule 9: loans may be taken at any time of the turn)."""
    hint = f"; take loans first (${game.loans.value} each)" if budget(game, corporation) >= cost else ""
    return f"{corporation.id} has ${corporation.cash}; {costs} ${cost}, ${cost - corporation.cash} more{hint}"


def buy_pullman(game: G18USA, corporation: Corporation, price: int) -> None:
    reason = pullman_allowed(game, corporation)
    if reason:
        raise GameError(reason)
    if price != PULLMAN_PRICE:
        raise GameError(f"a Pullman car from the bank costs ${PULLMAN_PRICE}")
    if not room_for_train(game, corporation):
        raise GameError(f"{corporation.id} is at its train limit")
    if corporation.cash < PULLMAN_PRICE:
        # Offered while loans would pay for it (as on the site): the loans come first.
        raise GameError(short_of_cash(game, corporation, "a Pullman car costs", PULLMAN_PRICE))
    train = usa_phases.new_pullman(game)
    game.transfer(corporation, game.bank, PULLMAN_PRICE)
    game.pullmans_made += 1
    train.owner = corporation
    corporation.trains.append(train)
    game.log.append(f"{corporation.id} buys a Pullman car")


def buy_train(game: G18USA, corporation: Corporation, action: BuyTrain) -> None:
    price = action.price
    if price is None:
        raise GameError("a train purchase needs a price")
    if action.train.split("-")[0] == PULLMAN and not game.train_of(action.train):
        buy_pullman(game, corporation, price)
        return
    if not room_for_train(game, corporation):
        raise GameError(f"{corporation.id} already has {game.counted_trains(corporation)} trains, the limit")
    upcoming = game.depot.next_train()
    used = next((t for t in game.depot.discarded if t.id == action.train), None)
    if upcoming is not None and upcoming.id == action.train or used is not None:
        train = upcoming if used is None else used
        assert train is not None
        prices = bank_prices(game, corporation, train)
        if price not in prices:
            raise GameError(f"a {train.name}-train from the bank costs "
                            + " or ".join(f"${amount}" for amount in prices))
        cost = price
        if corporation.cash < cost:
            raise GameError(short_of_cash(game, corporation, f"the {train.name}-train costs", cost))
        game.transfer(corporation, game.bank, cost)
        game.depot.take(train)
        corporation.trains.append(train)
        train.owner = corporation
        game.log.append(f"{corporation.id} buys a {train.name}-train for ${cost}")
        if used is None:
            usa_phases.first_train(game, train)
        return
    train = game.train_of(action.train)
    if train is None or not isinstance(train.owner, Corporation) or train.owner is corporation:
        hint = f"the next new train is {upcoming.id}" if upcoming else "the bank has no trains"
        raise GameError(f"train {action.train!r} cannot be bought now; {hint}")
    seller = train.owner
    refused = pullman_allowed(game, corporation) if usa_phases.is_pullman(train) else None
    if refused:
        raise GameError(refused)
    if usa_phases.is_obsolete(game, train):
        raise GameError("an obsolete train cannot be sold (8)")
    if price < 1 or price > corporation.cash:
        raise GameError(f"a train from another company costs from $1 to {corporation.id}'s ${corporation.cash}")
    game.transfer(corporation, seller, price)
    seller.trains.remove(train)
    corporation.trains.append(train)
    train.owner = corporation
    game.log.append(f"{corporation.id} buys a {train.name}-train from {seller.id} for ${price}")


class EndedByAnAttachment(OperatingStep):
    """A step that choosing an attachment for the run (P30's extender) also ends, as on the site
    (109372 at 969: PRR lays, chooses, runs)."""

    def step_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        raise NotImplementedError

    def own_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        kinds = self.step_actions(game, rnd)
        if kinds and "choose" in _route_step(rnd).own_actions(game, rnd):
            kinds = [*kinds, "choose"]
        return kinds

    def process_choose(self, game: BaseGame, rnd: Round, entity: Holder, action: Choose) -> None:
        self.operator(rnd, entity)
        _route_step(rnd).process_choose(game, rnd, entity, action)
        self.done(rnd)


class PullmanStep(EndedByAnAttachment):
    """Rule 12.7: a Pullman may be bought before the trains run."""

    key = "pullman"
    label = "buy a Pullman"

    def handlers(self) -> Mapping[str, Handler]:
        return {"buy_train": self.process_buy, "pass": self.process_pass, "choose": self.process_choose}

    def step_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        corp = _round(rnd).corporation
        # The Pullman is offered when cash and the loans the company could still take pay for it.
        # The site keeps the step open (a pass ends it) for a company with less, from $1 (109372
        # at 750 and 787, s8401 at 517), with no train too (s8401 at 554).
        if pullman_allowed(usa, corp) or not room_for_train(usa, corp):
            return []
        money = budget(usa, corp)
        if money >= PULLMAN_PRICE:
            return ["buy_train", "pass"]
        return ["pass"] if usa.option(usa_phases.SITE_PULLMAN_STEP_WAITS) and money >= 1 else []

    def process_buy(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyTrain) -> None:
        corp = self.operator(rnd, entity)
        buy_pullman(_usa(game), corp, action.price or 0)
        self.done(rnd)

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        corp = _round(rnd).corporation
        kinds = self.own_actions(game, rnd)
        moves: list[Move] = []
        if "buy_train" in kinds:
            moves.append({"type": "buy_train", "entity": corp.id,
                          "choices": [{"train": f"P-{usa.pullmans_made}", "price": PULLMAN_PRICE, "from": "depot"}]})
        if "choose" in kinds:
            moves += [move for move in _route_step(rnd).legal_moves(game, rnd) if move["type"] == "choose"]
        return moves + [{"type": "pass", "entity": corp.id}] if kinds else []

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, Choose):
            return _route_step(game.round).matches(game, choice, action)
        return isinstance(action, BuyTrain) and action.train.startswith("P-") and action.price == PULLMAN_PRICE


def _route_step(rnd: Round) -> UsaRouteStep:
    step = rnd.step("route")
    assert isinstance(step, UsaRouteStep)
    return step


class UsaBuyTrainStep(EndedByAnAttachment):
    key = "buy_train"
    label = "buy trains"

    def handlers(self) -> Mapping[str, Handler]:
        return {"buy_train": self.process_buy, "pass": self.process_pass, "choose": self.process_choose}

    def step_actions(self, game: BaseGame, rnd: Round) -> list[str]:
        usa = _usa(game)
        corp = _round(rnd).corporation
        if not room_for_train(usa, corp):
            return []
        if not any(buyable_offers(usa, corp)):
            money = budget(usa, corp)
            # The site counts such trains among other companies' at $1: a company with $1 waits.
            waits = usa.option(SITE_TRAINS_LEFT_PLAY_WAIT) and usa.depot.left_play and money >= 1
            # And from phase 5 it counts the bank's Pullman as one the company could buy even when
            # it has one already (12.7 allows one a company).
            waits = waits or (usa.option(usa_phases.SITE_SECOND_PULLMAN_WAIT) and money >= PULLMAN_PRICE
                              and usa.phase_at_least(PULLMAN_PHASE))
            return ["pass"] if waits else []
        return ["buy_train", "pass"]

    def process_buy(self, game: BaseGame, rnd: Round, entity: Holder, action: BuyTrain) -> None:
        usa = _usa(game)
        buy_train(usa, self.operator(rnd, entity), action)
        if usa.option(SITE_DISCARD_AFTER_BUYING) and crowded(usa):
            _round(rnd).discards_held = True

    def process_pass(self, game: BaseGame, rnd: Round, entity: Holder, action: Pass) -> None:
        self.operator(rnd, entity)
        self.done(rnd)

    def legal_moves(self, game: BaseGame, rnd: Round) -> list[Move]:
        usa = _usa(game)
        corp = _round(rnd).corporation
        if not self.own_actions(game, rnd):
            return []
        # Offered are the purchases the treasury pays now; one that needs loans is offered once
        # they are taken (the step stays open while loans could pay, as on the site).
        choices = buyable(usa, corp, corp.cash)
        if pullman_allowed(usa, corp) is not None:
            # The open market's Pullmans keep the step open as on the site (s8401 801: WP, with
            # its Pullman, scraps it in this step), but buying one is refused (12.7): not offered.
            market = {train.id for train in usa.depot.discarded if usa_phases.is_pullman(train)}
            choices = [c for c in choices if not (c["from"] == "market" and c["train"] in market)]
        moves: list[Move] = [{"type": "buy_train", "entity": corp.id, "choices": choices}] if choices else []
        return moves + [{"type": "pass", "entity": corp.id}]

    def matches(self, game: BaseGame, choice: Mapping[str, Any], action: Action) -> bool:
        if isinstance(action, BuyTrain):
            if choice["train"] != action.train and not (
                    choice["train"].startswith("P-") and action.train.startswith("P-")):
                return False
            if "price" in choice:
                return bool(choice["price"] == action.price)
            return action.price is not None and choice["min_price"] <= action.price <= choice["max_price"]
        return super().matches(game, choice, action)


def buyable(game: G18USA, corp: Corporation, money: int | None = None) -> list[dict[str, Any]]:
    """What the company can buy with `money`: the next new train, the open market's, other
    companies', a Pullman. By default the money it could borrow is counted in (loans may be
    taken first), which is what keeps the step open."""
    return list(buyable_offers(game, corp, money))


def buyable_offers(game: G18USA, corp: Corporation, money: int | None = None) -> Iterator[dict[str, Any]]:
    """`buyable` one at a time, each worked out when asked for (whether the step waits is
    answered by the first)."""
    if money is None:
        money = budget(game, corp)
    upcoming = game.depot.next_train()
    bank = [(upcoming, "depot")] if upcoming is not None else []
    for train, source in bank + [(train, "market") for train in game.depot.discarded]:
        for price in bank_prices(game, corp, train):
            if money >= price:
                yield {"train": train.id, "price": price, "from": source}
    if pullman_allowed(game, corp) is None and money >= PULLMAN_PRICE:
        yield {"train": f"P-{game.pullmans_made}", "price": PULLMAN_PRICE, "from": "depot"}
    if money >= 1:
        pullman_refused = pullman_allowed(game, corp) is not None  # one a company, from phase 5 (12.7)
        for other in game.corporations.values():
            if other is corp or not other.trains:
                continue
            for train in other.trains:
                if not usa_phases.is_obsolete(game, train) and not (pullman_refused and usa_phases.is_pullman(train)):
                    yield {"train": train.id, "from": other.id, "min_price": 1, "max_price": money}

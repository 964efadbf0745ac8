"""18USA trains, phases and exports (rules 8, 12.6, 12.10, 16): what a new phase does, obsolete
trains, the exports after each operating round and the end of the game they trigger."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core.entities import Corporation, Train
from engine.core.phases import Phase, apply_first_train
from engine.titles.g18usa.setup import UsaSetup

# Rule 6.3 has companies over a lowered train limit discard at once; the site lets the company
# whose purchase lowered it finish its turn before anyone discards.
SITE_DISCARD_AFTER_BUYING = "site_discard_after_buying"
# From phase 5 the site keeps a company's buy-trains step open while it could pay for the bank's
# Pullman, even with one already (a step with nothing to buy is passed over).
SITE_SECOND_PULLMAN_WAIT = "site_second_pullman_wait"
# The site asks a company with room for a Pullman at the Pullman step even when it cannot pay for
# one, from $1 (rule 12.7: nothing to decide, so nothing is asked).
SITE_PULLMAN_STEP_WAITS = "site_pullman_step_waits"
# P25's card: the owning company pays 10% less for a train from the bank; the site offers the
# full price too.
SITE_P25_FULL_PRICE = "site_p25_full_price"

if TYPE_CHECKING:
    from engine.titles.g18usa.game import G18USA

PULLMAN = "P"
EIGHT = "8"
FINAL_ROUNDS = 3  # rule 16: three more operating rounds after the first 8-train


def depot_trains(usa: UsaSetup) -> list[dict[str, Any]]:
    """The roster as depot data; Pullmans are kept apart (bought in any number from phase 5)."""
    return [{"name": card.name, "distance": card.distance, "price": card.price,
             "count": "unlimited" if card.count is None else card.count,
             "rusts_on": card.rusts_on, "obsolete_on": card.obsolete_on,
             "available_on": card.available_on, "events": list(card.events)}
            for card in usa.trains if not card.pullman]


def is_pullman(train: Train) -> bool:
    return train.name == PULLMAN


def is_obsolete(game: G18USA, train: Train) -> bool:
    return train.id in game.obsolete_trains


def new_pullman(game: G18USA) -> Train:
    train = Train(id=f"{PULLMAN}-{game.pullmans_made}", name=PULLMAN, distance=0, price=200, rusts_on=None)
    return train


def depot_listing(game: G18USA) -> list[list[Any]]:
    """The bank's new trains as the site lists them: the stack with one card of the unlimited
    kind always at its end, then one Pullman card."""
    listing = game.depot.run_length()
    unlimited = next((kind.name for kind in reversed(game.depot.kinds) if kind.count is None), None)
    if unlimited is not None and (not listing or listing[-1][0] != unlimited):
        listing.append([unlimited, 1])
    return [*listing, [PULLMAN, 1]]


def first_train(game: G18USA, train: Train) -> None:
    """A train bought from the bank or exported: the first of its kind may start a phase, rust
    trains and make others obsolete (they run once more, rule 8)."""
    first = game.depot.first_of_kind(train)
    apply_first_train(game, train)
    if not first:
        return
    for corp in game.corporations.values():
        for held in corp.trains:
            if held.obsolete_on == train.name:
                game.obsolete_trains.add(held.id)
    for held in game.depot.discarded[:]:
        if held.obsolete_on == train.name or held.rusts_on == train.name:
            game.depot.discarded.remove(held)
    if train.name == EIGHT and game.final_turn is None:
        signal_end(game)


def signal_end(game: G18USA) -> None:
    """Rule 16: three more operating rounds: the rest of this set, then a stock round and a set
    long enough to make three."""
    left_in_set = game.operating_rounds - game.round_num
    game.final_turn = game.turn + 1
    game.final_operating_rounds = FINAL_ROUNDS - left_in_set
    game.log.append("The first 8-train: the game ends after three more operating rounds")


def phase_started(game: G18USA, phase: Phase) -> None:
    raw = game.data["entities"]["phases"][game.phase_index]
    for company_id in raw.get("closes") or ():
        company = game.companies.get(company_id)
        if company is not None and not company.closed:
            company.closed = True
            game.log.append(f"{company_id} closes")


def export(game: G18USA, train: Train) -> None:
    game.depot.take(train)
    train.owner = None
    game.log.append(f"A {train.name}-train is exported")
    first_train(game, train)


def end_of_operating_round(game: G18USA) -> None:
    """Rule 12.10: exports after each operating round; phase 3 at the end of the second."""
    game.operating_rounds_done += 1
    done = game.operating_rounds_done
    if game.option("seventeen_trains"):
        # Rule 17 (1817's exports): every 2-train while the next bank train is a 2, else the next.
        upcoming = game.depot.next_train()
        if upcoming is not None and upcoming.name == "2":
            while (upcoming := game.depot.next_train()) is not None and upcoming.name == "2":
                export(game, upcoming)
        elif upcoming is not None:
            export(game, upcoming)
        return
    kinds = {1: "2", 2: "2+", 4: "3"}
    if done in kinds:
        name = kinds[done]
        if game.depot.unlimited(name):  # rule 12.6: the unlimited 2-trains leave all at once
            if game.depot.retire(name):
                game.log.append(f"The bank's {name}-trains are discarded")
        while (upcoming := game.depot.next_train()) is not None and upcoming.name == name:
            export(game, upcoming)
        if done == 2 and game.phase_index < phase_index(game, "3"):
            game.phase_index = phase_index(game, "3")
            game.log.append("Phase 3 begins")
            game.on_phase_change(game.phase)
        return
    if done == 3:
        return
    upcoming = game.depot.next_train()
    if upcoming is not None:
        export(game, upcoming)


def phase_index(game: G18USA, name: str) -> int:
    return next(index for index, phase in enumerate(game.phases) if phase.name == name)


def obsolete_runs_done(game: G18USA, corporation: Corporation) -> None:
    """An obsolete train is removed once its company has run and paid its earnings (rule 8)."""
    for train in corporation.trains[:]:
        if train.id in game.obsolete_trains:
            corporation.trains.remove(train)
            train.owner = None
            game.obsolete_trains.discard(train.id)
            game.log.append(f"{corporation.id}'s obsolete {train.name}-train is removed")

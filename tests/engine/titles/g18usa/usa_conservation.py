"""Loans and trains conserved, and nothing left with those out of play, after every action of
an 18USA random game (`usa_random_play`).

Loans: every loan the bank has given is held by a company of the game (in play, or set aside
while its liquidation is sold, 14.2), and those plus the loans the bank has left make the Bank of
New York's total.

Trains: every train the depot ever made is in exactly one place (the depot's stack, the open
market, a company, or out of play with a company nobody bought) or has left the game for a
reason the rules give: rusted or made obsolete by a later train's first purchase, scrapped or
discarded by the action just played, or an unlimited kind the bank stopped making. A train that
left the game never comes back, and a new one is one the depot made.

Out of play: a company not in play holds nothing, and a bankrupt player neither.
"""

from __future__ import annotations

from typing import Any

from engine.core.entities import Train
from engine.core.family1817.tokens import crowded_stations
from engine.core.game import BaseGame

SET_ASIDE = " (set aside)"


def broken_loans(state: BaseGame) -> list[str]:
    """The loan book against the companies: what is wrong, each as a sentence."""
    loans = state.loans
    if loans.total is None or not loans.enabled:
        return []
    in_companies = sum(loans.count(corp_id) + loans.count(corp_id + SET_ASIDE) for corp_id in state.corporations)
    left = loans.available()
    broken = []
    if left is None or left < 0 or in_companies + left != loans.total:
        broken.append(f"loans are not conserved: {in_companies} in companies and {left} left in the bank "
                      f"make {in_companies + (left or 0)}, not the {loans.total} there are (held: {loans.held})")
    broken += [f"{holder} holds {count} loans" for holder, count in loans.held.items() if count <= 0]
    return broken


DEPOT = "the depot"


def train_places(state: BaseGame) -> tuple[dict[str, tuple[Train, str]], list[str]]:
    """Every train in play by id, with where it is, and a sentence for each train found in two
    places."""
    places: dict[str, tuple[Train, str]] = {}
    doubled: list[str] = []
    holders: list[tuple[str, list[Train]]] = [(DEPOT, state.depot.trains),
                                              ("the open market", state.depot.discarded),
                                              ("out of play", state.depot.left_play)]
    holders += [(corp.id, corp.trains) for corp in state.corporations.values()]
    for where, trains in holders:
        for train in trains:
            if train.id in places:
                doubled.append(f"train {train.id} is both in {places[train.id][1]} and in {where}")
            places[train.id] = (train, where)
    return places, doubled


class TrainLedger:
    """The trains seen after the last action, where they were, and those that left the game."""

    def __init__(self, state: BaseGame) -> None:
        self.places, _ = train_places(state)
        self.stack = [train.id for train in state.depot.trains]
        self.gone: set[str] = set()

    def broken(self, state: BaseGame, action: dict[str, Any]) -> list[str]:
        """What the action did to the trains that no rule allows, each as a sentence."""
        places, broken = train_places(state)
        depot = state.depot
        for train_id in sorted(self.places.keys() - places.keys()):
            train, where = self.places[train_id]
            if not self.may_leave(state, train, where, action, places):
                broken.append(f"train {train_id} left the game from {where} (not exported, rusted, obsolete, "
                              f"scrapped, discarded or retired)")
            self.gone.add(train_id)
        for train_id in sorted(places.keys() - self.places.keys()):
            train = places[train_id][0]
            if train_id in self.gone:
                broken.append(f"train {train_id} came back after leaving the game")
            index = train_id.rsplit("-", 1)[-1]
            # Pullman cars (12.7) are made by the game as they are bought, the trains by the depot.
            made = state.pullmans_made if train_id.startswith("P-") else depot.made.get(train.name, 0)  # type: ignore[attr-defined]
            if not index.isdigit() or int(index) >= made:
                broken.append(f"train {train_id} appeared without the depot making it")
        for kind in depot.kinds:
            if kind.count is not None and depot.made.get(kind.name, 0) != kind.count:
                broken.append(f"the depot made {depot.made.get(kind.name, 0)} {kind.name}-trains of {kind.count}")
        self.places = places
        self.stack = [train.id for train in depot.trains]
        return broken

    def may_leave(self, state: BaseGame, train: Train, where: str, action: dict[str, Any],
                  places: dict[str, tuple[Train, str]]) -> bool:
        sold = state.depot.sold_names
        if train.rusts_on in sold or train.obsolete_on in sold or train.name in state.depot.retired:
            return True
        if where == DEPOT:
            # The bank exports its next trains in order (12.10): none before it stayed.
            ahead = self.stack[:self.stack.index(train.id)]
            return not any(places.get(train_id, ("", ""))[1] == DEPOT for train_id in ahead)
        return action["type"] in ("scrap_train", "discard_train") and action.get("train") == train.id


def broken_out_of_play(state: BaseGame) -> list[str]:
    """A company out of play (never started, merged, acquired or liquidated: 7.2, 14) holds
    nothing: no place on the market, money, trains, loans, private companies or certificates in
    anyone's hands, and no station once the survivor's removals are done (14.3); a bankrupt player
    holds no money and no shares (15)."""
    broken: list[str] = []
    stations = state.board.stations()
    ipo = getattr(state.round, "ipo", None)
    starting = getattr(ipo, "corporation", None)  # its home station comes before its start (11.6)
    for corp in state.corporations.values():
        if corp.ipoed or corp is starting:
            continue
        held = {
            "a place on the market": corp.id in state.market.position,
            f"${corp.cash}": corp.cash != 0,
            f"trains {[t.id for t in corp.trains]}": bool(corp.trains),
            f"{state.loans.count(corp.id)} loans": state.loans.count(corp.id) > 0,
            "private companies " + ", ".join(sorted(c.id for c in state.companies.values()
                                                    if c.owner is corp and not c.closed)):
                any(c.owner is corp and not c.closed for c in state.companies.values()),
            "certificates in others' hands " + ", ".join(sorted(share.id for share in corp.shares
                                                                if share.owner is not corp)):
                any(share.owner is not corp for share in corp.shares),
            f"stations {stations.get(corp.id)}": bool(stations.get(corp.id)) and not crowded_stations(state),
        }
        broken += [f"{corp.id} is out of play and holds {what}" for what, holds in held.items() if holds]
    for player in state.players:
        if not player.bankrupt:
            continue
        shares = [share.id for corp in state.corporations.values() for share in corp.shares_of(player)]
        if player.cash or shares:
            broken.append(f"{player.name} is bankrupt and holds ${player.cash} and shares {shares}")
    return broken

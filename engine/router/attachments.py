"""The optimizer's words for what a title adds to runs: stops with a part to play (`StopRole`),
limits on where runs end (`EndLimit`), and what a company attaches to a train for one run
(`Attachment`: a Pullman, a switcher, an extender, a route bonus), with what an attachment adds
to a run and how value-only ones are handed out. The rules (engine.core.route_hooks) state their
hooks in these words, and their run check hands attachments out with these same functions, so
the optimizer and the engine agree.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import product

from engine.router.network import Node

EndLimit = tuple[frozenset[str], int]  # (hexes, most runs that may start or end in them)


@dataclass(frozen=True)
class StopRole:
    """What a title says about one stop beyond its tile."""

    never_end: bool = False  # may not be a run's first or last stop (rural junction)
    area: str | None = None  # stops with the same area are one location (a red area of hexes)


@dataclass(frozen=True)
class Attachment:
    """Something the company attaches to one of its trains for one run.

    `trains`: ids of the trains it may go on (None: any). `stop_bonus`: added for every stop the
    train counts (stops that take no distance earn none). `distance_bonus`: stops added to the
    train's distance. `skips`: stops the train may pass without counting or earning them; a
    skipped city may be full of other companies' stations. `distance_per_skip`: distance added
    for each skip used (18USA's switcher: +1 distance, but only with one stop left out).
    `run_bonuses`: (hexes, amount) pairs: the train earns the largest amount whose hexes its run
    all stops in. `no_stop_bonus`: stops that earn no `stop_bonus` although they take distance
    (18USA: a Pullman adds nothing at a rural junction). `exclusive`: a train carries at most one
    exclusive attachment (18USA's upgrades: a train already carrying one is not offered another).
    `attached`: already put on its one train for this run (chosen before running): it rides there
    whatever the run, and takes that train's exclusive place.
    """

    id: str
    trains: frozenset[str] | None = None
    stop_bonus: int = 0
    distance_bonus: int = 0
    skips: int = 0
    run_bonuses: tuple[tuple[frozenset[str], int], ...] = ()
    distance_per_skip: int = 0
    no_stop_bonus: frozenset[Node] = frozenset()
    exclusive: bool = False
    attached: bool = False

    @property
    def changes_distance(self) -> bool:
        return bool(self.distance_bonus or self.skips)

    def earns_stop_bonus(self, stop: Node, cost: int) -> bool:
        return cost > 0 and stop not in self.no_stop_bonus


def attachment_credit(attachment: Attachment, stops: Sequence[Node],
                      costs: Sequence[int]) -> int:
    """What `attachment` adds to a run through `stops` (each taking `costs` distance)."""
    credit = attachment.stop_bonus * sum(1 for stop, cost in zip(stops, costs, strict=True)
                                         if attachment.earns_stop_bonus(stop, cost))
    hexes = {coord for coord, _, _ in stops}
    credit += max((amount for needed, amount in attachment.run_bonuses if needed <= hexes), default=0)
    return credit


def assign_attachments(attachments: Sequence[Attachment],
                       runs: Sequence[tuple[str, Sequence[Node], Sequence[int]]],
                       occupied: Collection[str] = ()) -> dict[str, str]:
    """The best way to hand the value-only attachments to these runs: attachment id -> train id.

    `runs` are (train id, stops, their distance costs); `occupied` are trains that already carry
    an exclusive attachment (one that changes distance, placed with the run). Each attachment
    goes to at most one eligible train, and no train gets a second exclusive one; the company
    takes the assignment that earns the most (the first such in a fixed order, so the engine and
    the optimizer agree on ties).
    """
    usable = [a for a in attachments if not a.changes_distance]
    if not usable or not runs:
        return {}
    best: dict[str, str] = {}
    best_total = 0
    choices = [[None] + [i for i, (train, _, _) in enumerate(runs)
                         if (a.trains is None or train in a.trains) and not (a.exclusive and train in occupied)]
               for a in usable]
    for pick in product(*choices):
        exclusive_holders = [holder for attachment, holder in zip(usable, pick, strict=True)
                             if attachment.exclusive and holder is not None]
        if len(exclusive_holders) != len(set(exclusive_holders)):
            continue
        total = 0
        holders: dict[str, str] = {}
        for attachment, holder in zip(usable, pick, strict=True):
            if holder is None:
                continue
            train, stops, costs = runs[holder]
            gain = attachment_credit(attachment, stops, costs)
            if gain:
                total += gain
                holders[attachment.id] = train
        if total > best_total:
            best_total, best = total, holders
    return best


def best_attachment_credit(attachments: Sequence[Attachment],
                           runs: Sequence[tuple[str, Sequence[Node], Sequence[int]]],
                           occupied: Collection[str] = ()) -> dict[str, int]:
    """Train id -> what the value-only attachments add to its run, handed out as
    `assign_attachments` does."""
    holders = assign_attachments(attachments, runs, occupied)
    described = {train: (stops, costs) for train, stops, costs in runs}
    credit: dict[str, int] = {}
    for attachment in attachments:
        train = holders.get(attachment.id)
        if train is not None:
            credit[train] = credit.get(train, 0) + attachment_credit(attachment, *described[train])
    return credit


def occupied_trains(attachments: Sequence[Attachment], carried: Mapping[str, Sequence[str]]) -> frozenset[str]:
    """The trains that carry an exclusive attachment: those among `carried` (train id ->
    attachment ids it carries), and those an `attached` one that changes distance is on."""
    exclusive = {attachment.id for attachment in attachments if attachment.exclusive}
    taken = {train for train, names in carried.items() if exclusive.intersection(names)}
    # One that changes distance, already put on its train for the run, holds that train's place,
    # used or not (a value-only one is handed out with the others, to its own train).
    taken.update(train for attachment in attachments
                 if attachment.exclusive and attachment.attached and attachment.changes_distance
                 for train in attachment.trains or ())
    return frozenset(taken)

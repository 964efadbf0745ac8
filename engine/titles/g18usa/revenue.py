"""18USA runs (12.4): what a stop, a resource hex and a run are worth, and the limits over a
company's runs; the title's run step values runs with `run_value`.

The same rules, stated for the route optimizer through the core route hooks
(engine/core/route_hooks.py), are the `hook_*` functions the game class returns:
* `hook_stop_value`: printed value in the phase (red areas by their value token, P6's token),
  bridge and city-value (subsidy) markers, the Company Town's penalty;
* `hook_track_bonuses`: coal, oil and ore tokens, once per train, costing no distance; and P8's
  +$10 "for each train which runs to that red area" (the rulebook's P8): a track bonus on the
  hexes of its red area, because every path of a red hex leads to its stop, so a train uses
  that track exactly when its run stops there, and a stop P19's switcher leaves out of the count
  still earns it, as `run_value` (through `run_bonus`) says; a run visits Mexico, the one area of
  several hexes, once, and only by one of its hexes;
* `hook_end_limits`: at most two runs into Mexico; Mexico, Montreal and the Port of New Orleans
  end runs and rural junctions never do, which the tiles print (core board flags);
* `hook_attachments`: the Pullman (+$20 a counted stop but rural junctions), P17's route bonus
  to the best run, P19's switcher and P30's extender, each on one train of the optimizer's
  choice unless the company has already chosen it for this run; a train takes one of the
  Pullman, the switcher and the extender at most (`operating_trains.eligible_trains`), so those
  three are exclusive attachments. P17's bonus is not an upgrade and goes with any of them.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from engine.core.graph import Node
from engine.core.route_hooks import Attachment
from engine.core.routes import check_run
from engine.errors import GameError
from engine.titles.g18usa.resources import track_bonus
from engine.titles.g18usa.stations import BRIDGE, city_bonus, freight_area
from engine.titles.g18usa.usa_map import UsaMap

PULLMAN_BONUS = 20
FREIGHT_BONUS = 10
EXPRESS_FREIGHT = "P8"
GREAT_NORTHERN = "P17"
DISTANCE_PRIVATES = ("P19", "P30")  # switcher and extender: one train +1 distance a run
PULLMAN = "P"  # the Pullman's train name and its upgrade name in a `choose`
EXTENDABLE = ("2", "2+", "3", "3+", "4", "4+")  # trains P30's extender may go on


@dataclass(frozen=True)
class RunTrain:
    """A train as the run rules see it."""

    id: str
    distance: int
    pullman: bool = False
    switcher: bool = False  # P19: one more stop of distance, and one stop dropped from the count


def stop_extras(umap: UsaMap, corporation: str, node: Node, phase: str) -> int:
    """What a stop earns beyond its printed value in the phase: bridge and city-value markers,
    and the Company Town's $10 less for outsiders."""
    coord = node[0]
    state = umap.board.hexes[coord]
    value = sum(marker.value for marker in state.markers_of(BRIDGE))
    value += city_bonus(umap, coord, phase)
    if state.tile.kind == "company_town" and corporation not in state.corporations_here():
        value -= int(umap.raw_tiles[state.tile.name].get("other_corporations_revenue_penalty") or 0)
    return value


def stop_value(umap: UsaMap, corporation: str, node: Node, phase: str, pullman: bool = False) -> int:
    """A stop's value on one train's run: printed value in the phase, bridge and city-value
    markers, the Company Town's $10 less for outsiders, and the Pullman's $20."""
    coord, kind, index = node
    state = umap.board.hexes[coord]
    stop = state.tile.stop(kind, index)
    value = stop.revenue_in(umap.phase(phase).colors) + stop_extras(umap, corporation, node, phase)
    if pullman and stop.distance_cost and state.tile.kind != "rural_junction":
        # 12.4: each city, small city and red area counts $20 more; rural junctions do not.
        value += PULLMAN_BONUS
    return value


def track_bonuses(umap: UsaMap, phase: str) -> dict[str, int]:
    """Hex -> what a run earns once for passing through its resource tokens."""
    phase_5 = umap.phase(phase).at_least("5", umap.phase_order)
    bonuses = {}
    for coord, state in umap.board.hexes.items():
        if state.tile_laid and umap.tile_resources(state.tile):
            bonuses[coord] = track_bonus(umap, state, phase_5)
    return bonuses


def run_bonus(umap: UsaMap, corporation: str, owned: Collection[str], stops: Sequence[Node]) -> int:
    """P8: $10 for a run to the red area holding the company's marker."""
    if EXPRESS_FREIGHT not in owned:
        return 0
    area = freight_area(umap)
    return FREIGHT_BONUS if any(node[0] in area for node in stops) else 0


def great_northern_bonus(umap: UsaMap, runs: Sequence[tuple[str, Sequence[Node]]]) -> dict[str, int]:
    """P17: the one run with the biggest Great Northern bonus earns it (+60 for Seattle, Helena,
    Fargo and Chicago; +30 for Helena and Fargo). `runs` are (train id, stops)."""
    bonus = umap.map_data["great_northern"]["bonus"]
    best: tuple[int, str] | None = None
    for train, stops in runs:
        hexes = {node[0] for node in stops}
        value = 0
        if set(bonus["full"]["stops"]) <= hexes:
            value = int(bonus["full"]["bonus"])
        elif set(bonus["half"]["stops"]) <= hexes:
            value = int(bonus["half"]["bonus"])
        if value and (best is None or value > best[0]):
            best = (value, train)
    return {best[1]: best[0]} if best else {}


def run_value(umap: UsaMap, corporation: str, phase: str, train: RunTrain, stops: Sequence[Node],
              paths: Sequence[tuple[str, int]], owned: Collection[str] = ()) -> int:
    """Check one run by the core rules (12.1, 12.4) and return its 18USA value."""
    counted = checked_stops(umap, corporation, phase, train, stops)
    value = sum(stop_value(umap, corporation, node, phase, train.pullman) for node in counted)
    bonuses = track_bonuses(umap, phase)
    value += sum(bonuses.get(coord, 0) for coord in {coord for coord, _ in paths})
    return value + run_bonus(umap, corporation, owned, stops)


def checked_stops(umap: UsaMap, corporation: str, phase: str, train: RunTrain, stops: Sequence[Node]) -> list[Node]:
    """Check one run by the core rules (12.1, 12.4); the stops that count (P19's Switcher drops one)."""
    counted = list(stops)
    if train.switcher:
        drop = switcher_drop(umap, corporation, counted, phase, train.distance)
        if drop is not None:
            counted.pop(drop)
    check_run(umap.board, corporation, counted, train.distance, umap.phase(phase).colors)
    return counted


def switcher_drop(umap: UsaMap, corporation: str, stops: Sequence[Node], phase: str,
                  distance: int) -> int | None:
    """P19: which stop the Switcher drops from the count, if any. A city full of other
    companies' stations in the middle of the run goes first; otherwise, once the run's stops
    reach the train's (increased) distance, the stop whose loss costs least and leaves the run
    within that distance, never the run's only own-station city."""
    board = umap.board
    for position, (coord, kind, index) in enumerate(stops):
        inner = 0 < position < len(stops) - 1
        if inner and kind == "city" and board.city_is_blocked_for(coord, index, corporation):
            return position
    costs = [board.hexes[c].tile.stop(k, i).distance_cost for c, k, i in stops]
    if sum(costs) < distance:
        return None
    own = [p for p, (c, k, i) in enumerate(stops) if k == "city" and corporation in board.hexes[c].tokens[i]]
    choices = [p for p in range(len(stops)) if own != [p]]
    # Of the drops that leave the run within the distance (dropping a rural junction, which takes
    # none, does not shorten it), the one that costs least.
    fitting = [p for p in choices if sum(costs) - costs[p] <= distance] or choices
    return min(fitting, key=lambda p: stop_value(umap, corporation, stops[p], phase), default=None)


def check_run_set(umap: UsaMap, runs: Sequence[Sequence[Node]]) -> None:
    """Limits over all of a company's runs: at most two start or end in Mexico (12.4.1)."""
    hexes, most = umap.mexico_limit()
    count = sum(1 for stops in runs if stops[0][0] in hexes or stops[-1][0] in hexes)
    if count > most:
        raise GameError(f"at most {most} of a company's runs may start or end in Mexico; {count} do (12.4.1)")


# --- the same rules as core route hooks, for the route optimizer -----------------------------------
def hook_stop_value(umap: UsaMap, corporation: str, owned: Collection[str], phase: str, node: Node,
                    printed: int) -> int:
    """`route_stop_revenue`: the stop's value on any train (the Pullman is an attachment, P8's
    bonus a track bonus)."""
    return printed + stop_extras(umap, corporation, node, phase)


def hook_track_bonuses(umap: UsaMap, owned: Collection[str], phase: str) -> dict[str, int]:
    """`route_track_bonuses`: the resource tokens, and P8's bonus on its red area's hexes."""
    bonuses = track_bonuses(umap, phase)
    if EXPRESS_FREIGHT in owned:
        for coord in freight_area(umap):
            bonuses[coord] = bonuses.get(coord, 0) + FREIGHT_BONUS
    return bonuses


def hook_end_limits(umap: UsaMap) -> tuple[tuple[frozenset[str], int], ...]:
    return (umap.mexico_limit(),)


def hook_attachments(umap: UsaMap, owned: Collection[str], trains: Sequence[tuple[str, str]],
                     pullman: bool, chosen: Mapping[str, str]) -> tuple[Attachment, ...]:
    """`route_attachments`: what the company may put on one train for this run. `trains` are
    (id, name) of the trains that run; `chosen` is upgrade -> train id already chosen (12.7,
    P19, P30: chosen before running, so the optimizer keeps those)."""
    found = []

    def on(upgrade: str, names: Collection[str] | None = None) -> frozenset[str] | None:
        if upgrade in chosen:
            return frozenset({chosen[upgrade]})
        if names is None:
            return None
        return frozenset(train_id for train_id, name in trains if name in names)

    if DISTANCE_PRIVATES[0] in owned:
        found.append(Attachment(DISTANCE_PRIVATES[0], trains=on(DISTANCE_PRIVATES[0]), skips=1,
                                distance_per_skip=1, exclusive=True, attached=DISTANCE_PRIVATES[0] in chosen))
    if DISTANCE_PRIVATES[1] in owned:
        found.append(Attachment(DISTANCE_PRIVATES[1], trains=on(DISTANCE_PRIVATES[1], EXTENDABLE),
                                distance_bonus=1, exclusive=True, attached=DISTANCE_PRIVATES[1] in chosen))
    if pullman:
        junctions = frozenset((coord, stop.kind, stop.index) for coord, state in umap.board.hexes.items()
                              if state.tile.kind == "rural_junction" for stop in state.tile.stops)
        found.append(Attachment(PULLMAN, trains=on(PULLMAN), stop_bonus=PULLMAN_BONUS, no_stop_bonus=junctions,
                                exclusive=True, attached=PULLMAN in chosen))
    if GREAT_NORTHERN in owned:
        bonus = umap.map_data["great_northern"]["bonus"]
        found.append(Attachment(GREAT_NORTHERN, run_bonuses=(
            (frozenset(bonus["full"]["stops"]), int(bonus["full"]["bonus"])),
            (frozenset(bonus["half"]["stops"]), int(bonus["half"]["bonus"])))))
    return tuple(found)

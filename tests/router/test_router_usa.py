"""The route optimizer on 18USA positions, with every 18USA run rule through the route hooks.

Positions are random regions of the real 18USA map around a company's home: every hex within
reach tiled (cities with city tiles, resource hexes with their resource tiles, the rest plain
track), stations of the company and of others (some cities full), a random late phase, short
trains (so the brute force stays small), and the things 18USA adds to runs: bridge and
city-value markers, P8's red-area marker, a Pullman.

Two independent computations are compared with the optimizer:
* the brute-force reference (tests/engine/test_router_reference.py), which walks the printed
  track and values runs through the title's route hooks;
* the title's own run rules (`revenue.run_value`, `great_northern_bonus`), which the 18USA run
  step uses and which share no code with the hooks' valuation: for every run the reference
  lists, its value through the hooks equals the title's value.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import pytest
from test_router_reference import PrintedBoard, _breaks_roles, reference_best, reference_runs
from test_router_reference import run_value as hooked_value

from engine import GameError, new_game
from engine.core.board import Board, Marker
from engine.core.entities import Company, Corporation, Train
from engine.core.graph import Node
from engine.core.most_earnings import best_runs
from engine.core.route_hooks import PathKey, attachment_credit
from engine.titles.g18usa.board_setup import map_with_red_area_values
from engine.titles.g18usa.game import G18USA
from engine.titles.g18usa.operating_trains import check_runs as usa_check_runs
from engine.titles.g18usa.revenue import RunTrain, great_northern_bonus, hook_attachments, run_value
from engine.titles.g18usa.stations import BRIDGE, CITY_BONUS, place_freight_marker
from engine.titles.g18usa.usa_map import rural_junction_tiles

PLAYERS = [{"id": n, "name": f"p{n}"} for n in range(1, 5)]
COMPANY = "PRR"
OTHERS = ("B&O", "NYC", "ATSF", "SP")
CITY_TILES = ("57", "15", "63", "611", "448", "14", "619")
PLAIN = ("7", "8", "9", "80", "81", "82", "83", "544", "545", "546", "60", "X17")
TRAINS = ("2", "2+", "3", "3+", "4")
LATE_PHASES = ("3", "4", "5", "6", "7", "8")
JUNCTIONS = ("60", "X17", "544", "545", "546", "60", "80", "83")  # plain tiles with a centre junction


def _lay(board: Board, rng: random.Random, coord: str, names: list[str]) -> None:
    state = board.hexes[coord]
    rng.shuffle(names)
    for name in names:
        tile = board.tiles.get(name)
        if tile is None:
            continue
        rotations = board.legal_rotations(state, tile)
        if rotations and board.free_copy(name) is not None:
            board.place_tile(coord, tile, f"{name}-{board.free_copy(name)}", rng.choice(rotations))
            return


def usa_position(seed: int, radius: int = 2, plain: tuple[str, ...] = PLAIN) -> G18USA:
    """A region of the 18USA map around PRR's home, tiled and tokened (see the module docstring)."""
    rng = random.Random(seed)
    state = new_game("18USA", PLAYERS, seed).state
    assert isinstance(state, G18USA)
    umap, board = state.umap, state.board
    homes = sorted(coord for coord, here in board.hexes.items()
                   if here.tile.cities and here.hexdef.accepts_tiles and not here.tile_laid)
    home = rng.choice(homes)
    region = {home}
    edge = {home}
    for _ in range(radius + rng.randrange(2)):
        edge = {n for coord in edge for n in board.hexes[coord].hexdef.neighbors.values() if n in board.hexes} - region
        region |= edge
    for coord in sorted(region):
        here = board.hexes[coord]
        if not here.hexdef.accepts_tiles or here.tile_laid:
            continue
        if here.tile.cities:
            _lay(board, rng, coord, list(CITY_TILES))
        elif umap.resources_printed(coord) and rng.random() < 0.7:
            resources = tuple(umap.resources_printed(coord)[:1])
            _lay(board, rng, coord, [name for color in ("yellow", "green", "brown")
                                     for name in umap.plain_tiles(color, resources)])
        elif not here.tile.stops and rng.random() < 0.85:
            _lay(board, rng, coord, list(plain))
    cities = [(coord, index) for coord in sorted(region) for index in range(len(board.hexes[coord].tokens))
              if board.hexes[coord].tile.paths]
    rng.shuffle(cities)
    board.hexes[home].tokens[0][0] = COMPANY
    for coord, index in cities[:4]:
        slots = board.hexes[coord].tokens[index]
        if coord == home or None not in slots:
            continue
        if rng.random() < 0.3 and COMPANY not in board.hexes[coord].corporations_here():
            slots[slots.index(None)] = COMPANY
        else:
            for position, slot in enumerate(slots):
                if slot is None:
                    slots[position] = OTHERS[(position + seed) % len(OTHERS)]
    state.phase_index = [phase.name for phase in state.phases].index(rng.choice(LATE_PHASES))
    corp = state.corporations[COMPANY]
    corp.trains = [Train(f"{name}-{i}", name, int(name[0]), 0, None)
                   for i, name in enumerate(sorted(rng.choices(TRAINS, k=rng.randint(1, 2))))]
    if rng.random() < 0.6:
        corp.trains.append(Train("P-0", "P", 0, 0, None))
    _markers(state, rng, sorted(region))
    # Red areas and rural junctions as the title's data print them after setup, for the reference.
    state.data = {**state.data, "map": map_with_red_area_values(state.data["map"], state.usa),
                  "tiles": rural_junction_tiles(state.data["tiles"], state.options)}
    return state


def _markers(state: G18USA, rng: random.Random, region: list[str]) -> None:
    """Bridges on river cities, a city-value subsidy marker, and P8's marker in a red area."""
    umap, board = state.umap, state.board
    corp = state.corporations[COMPANY]
    for coord in region:
        here = board.hexes[coord]
        if umap.is_river_hex(coord) and here.tile.stops and rng.random() < 0.6:
            here.markers.append(Marker(BRIDGE, None, 10, "P2"))
    stops = [coord for coord in region if board.hexes[coord].tile.cities]
    city_values = [raw["id"] for raw in umap.setup_subsidy_tiles() if raw["kind"] == CITY_BONUS]
    if stops and city_values:
        board.hexes[rng.choice(stops)].markers.append(Marker(CITY_BONUS, None, 0, rng.choice(city_values)))
    reds = [coord for coord in region if umap.red_area_hexes(coord)]
    if reds and rng.random() < 0.7:
        state.companies["P8"] = Company(id="P8", name="Express Freight Service", value=40, revenue=0, owner=corp)
        place_freight_marker(umap, COMPANY, rng.choice(reds))


def title_value(state: G18USA, corp: Corporation, picked: list[tuple[Train, tuple[Node, ...], frozenset[PathKey]]]) -> int:
    """What the title's own run rules give these runs, with the Pullman on its best train."""
    owned = [company.id for company in state.companies_of(corp)]
    phase = state.phase.name
    pullman = any(train.name == "P" for train in corp.trains)
    best = 0
    for holder in [None, *range(len(picked))] if pullman else [None]:
        total = 0
        for position, (train, stops, paths) in enumerate(picked):
            run_train = RunTrain(train.id, train.distance, pullman=position == holder)
            total += run_value(state.umap, corp.id, phase, run_train, list(stops), sorted(paths), owned)
        if "P17" in owned:
            total += sum(great_northern_bonus(state.umap, [(t.id, s) for t, s, _ in picked]).values())
        best = max(best, total)
    return best


@pytest.mark.parametrize("seed", range(30))
def test_optimizer_equals_brute_force_on_18usa_regions(seed: int) -> None:
    state = usa_position(seed)
    corp = state.corporations[COMPANY]
    runners = [train for train in corp.trains if train.distance > 0]
    expected = reference_best(state, corp, runners)
    for method in ("listing", "model"):
        result = best_runs(state, corp, method=method, time_budget=20.0)
        assert result.proven_optimal and result.engine_disagreements == 0, method
        assert result.total == expected, method


def test_every_run_is_worth_through_the_hooks_what_the_title_rules_say() -> None:
    """Hooks (stop values, resource bonuses, Pullman attachment) against `revenue.run_value`,
    for every run the brute force lists on the positions above."""
    checked = 0
    for seed in range(30):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        board = PrintedBoard(state)
        attachments = state.route_attachments(corp)
        for train in {t.distance: t for t in corp.trains if t.distance > 0}.values():
            for stops, paths, sides in reference_runs(board, corp.id, train.distance):
                if _breaks_roles(state, board, corp, stops):
                    continue  # not a legal run (Mexico twice, a rural junction at an end)
                value = hooked_value(state, board, corp, train, (stops, paths, sides))
                costs = [board.stops[node].cost for node in stops]
                value += max((attachment_credit(a, stops, costs) for a in attachments), default=0)
                assert value == title_value(state, corp, [(train, stops, paths)]), (seed, stops)
                checked += 1
    assert checked > 300


def test_the_positions_use_every_kind_of_hook() -> None:
    """The random regions above are not idle: they hold each thing the hooks value."""
    seen = set()
    for seed in range(30):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        answer = best_runs(state, corp)
        hexes = {coord for run in answer.runs for coord in run.hexes}
        through = {coord for run in answer.runs for coord, _ in run.paths}
        board = state.board
        if any(board.hexes[c].markers_of(BRIDGE) for c in hexes):
            seen.add("bridge")
        if any(board.hexes[c].markers_of(CITY_BONUS) for c in hexes):
            seen.add("city value")
        if set(state.route_track_bonuses(corp, corp.trains[0])) & through:
            seen.add("resource")
        if any("P" in run.attachments for run in answer.runs):
            seen.add("pullman")
        if "P8" in state.companies and any(state.umap.red_area_hexes(c) for c in hexes):
            seen.add("P8")
        if any(board.hexes[c].tile.kind == "rural_junction" for c in hexes):
            seen.add("rural junction")
    assert seen >= {"bridge", "city value", "resource", "pullman", "P8"}, seen


def test_the_title_run_step_accepts_the_optimizers_runs_at_their_value() -> None:
    """The 18USA run step's own check (operating_trains.check_runs) takes the answer as it is,
    with the Pullman on the train the optimizer chose."""
    checked = 0
    for seed in range(30):
        state = usa_position(seed)
        state.importing = False
        corp = state.corporations[COMPANY]
        answer = best_runs(state, corp)
        if not answer.runs:
            continue
        holders = {name: run.train for run in answer.runs for name in run.attachments}
        rnd = SimpleNamespace(attachments=holders)
        runs = usa_check_runs(state, corp, rnd, tuple(answer.to_action(corp.id)["routes"]))  # type: ignore[arg-type]
        assert sum(run.revenue for run in runs) == answer.total
        checked += 1
    assert checked >= 20


def test_attachments_chosen_before_the_run_stay_on_their_train() -> None:
    trains = [("4-0", "4"), ("2-1", "2")]
    free = hook_attachments(usa_position(0).umap, ["P19", "P30"], trains, True, {})
    by_id = {a.id: a for a in free}
    assert by_id["P"].trains is None and by_id["P"].stop_bonus == 20
    assert by_id["P30"].trains == frozenset({"4-0", "2-1"}) and by_id["P30"].distance_bonus == 1
    assert by_id["P19"].skips == 1 and by_id["P19"].distance_per_skip == 1
    chosen = {a.id: a for a in hook_attachments(usa_position(0).umap, ["P19"], trains, True, {"P": "2-1"})}
    assert chosen["P"].trains == frozenset({"2-1"}) and "P30" not in chosen


def test_great_northern_bonus_as_an_attachment_equals_the_title_rule() -> None:
    state = usa_position(0)
    (attachment,) = hook_attachments(state.umap, ["P17"], [("8-0", "8")], False, {})
    full = [("B2", "town", 0), ("B8", "city", 0), ("B14", "city", 0), ("D20", "city", 0)]
    half = [("B8", "city", 0), ("B14", "city", 0)]
    for stops in (full, half, half[:1], [*half, ("C19", "city", 0)]):
        expected = great_northern_bonus(state.umap, [("8-0", stops)]).get("8-0", 0)
        assert attachment_credit(attachment, stops, [1] * len(stops)) == expected


def test_a_pullman_adds_nothing_at_a_rural_junction() -> None:
    state = usa_position(0)
    board = state.board
    board.place_tile("E23", board.tiles["X07"], "X07-0", 0)
    (pullman,) = hook_attachments(state.umap, [], [("4-0", "4")], True, {})
    junction = ("E23", "town", 0)
    assert junction in pullman.no_stop_bonus
    assert attachment_credit(pullman, [("D24", "city", 0), junction], [1, 1]) == 20
    again = replace(pullman, no_stop_bonus=frozenset())
    assert attachment_credit(again, [("D24", "city", 0), junction], [1, 1]) == 40


class SwitcherBoard(PrintedBoard):
    """The printed board on which a run may also go on through a city others fill (P19 lets the
    train leave that city out of its count)."""

    def passable(self, corporation: str, node: Node) -> bool:
        return not self.stops[node].ends_runs


@pytest.mark.parametrize("private", ["P19", "P30"])
def test_a_switcher_or_an_extender_equals_brute_force_by_the_title_rules(private: str) -> None:
    """One train and P19 (or P30): the optimizer equals the best of running without it and of
    every run a longer train could make, valued by the title's own switcher rule. P8 stays in
    play: its $10 goes to "each train which runs to that red area" (the rulebook's P8), so also
    to a run whose switcher leaves that red area out of the count (fails if the hooks tie the
    bonus to the stop's counted value)."""
    checked = 0
    for seed in range(24):
        state = usa_position(seed)
        corp = state.corporations[COMPANY]
        corp.trains = [train for train in corp.trains if train.distance > 0][:1]
        (train,) = corp.trains
        plain = reference_best(state, corp)
        state.companies[private] = Company(id=private, name=private, value=0, revenue=0, owner=corp)
        board = SwitcherBoard(state) if private == "P19" else PrintedBoard(state)
        owned = [company.id for company in state.companies_of(corp)]
        best = plain
        for stops, paths, _ in reference_runs(board, corp.id, train.distance + 2):
            if _breaks_roles(state, board, corp, stops):
                continue
            run_train = RunTrain(train.id, train.distance + 1, switcher=private == "P19")
            try:
                best = max(best, run_value(state.umap, corp.id, state.phase.name, run_train, list(stops),
                                           sorted(paths), owned))
            except GameError:
                continue
        result = best_runs(state, corp, time_budget=20.0)
        assert result.proven_optimal and result.total == best, seed
        checked += best > plain
    assert checked >= 5


def test_a_run_may_pass_a_junction_twice_as_the_site_allows() -> None:
    """Tile 60's six paths meet at its centre; a run may pass there twice by other paths (the
    reference site's logs of game 109372 hold such runs). On regions tiled with junctions the
    model equals the brute force, and some best runs do pass a junction twice."""
    twice = 0
    for seed in range(30, 45):
        state = usa_position(seed, plain=JUNCTIONS)
        corp = state.corporations[COMPANY]
        expected = reference_best(state, corp, [train for train in corp.trains if train.distance > 0])
        result = best_runs(state, corp, method="model", time_budget=20.0)
        assert result.proven_optimal and result.total == expected, seed
        for run in result.runs:
            centre = Counter(coord for coord, index in run.paths
                             if any(end[0] == "junction" for end in state.board.hexes[coord].paths()[index]))
            twice += any(count > 2 for count in centre.values())
    assert twice >= 1

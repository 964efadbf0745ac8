"""Replays the map part of an 18USA log: every tile lay, station, bridge, marker and run.

Independent of the game flow: the board is dealt from the log's seed, and the reference trace
says, at each action, who owns what (privates, subsidies, trains, Pullmans), the phase and the
money. Each lay and token is checked with the 18USA map rules and applied; the laying company's
cash change in the trace must equal the cost the rules charge. Stations that move without a map
action (mergers, acquisitions, closing companies) are taken from the trace.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from usa_logs import read_log, trace_lines

from engine.core.graph import reach_of
from engine.core.routes import rebuild_run
from engine.errors import GameError
from engine.titles.g18usa.data import load_data
from engine.titles.g18usa.revenue import (
    GREAT_NORTHERN,
    RunTrain,
    check_run_set,
    great_northern_bonus,
    run_value,
)
from engine.titles.g18usa.setup import SETUP_OPTIONS, setup_from_seed
from engine.titles.g18usa.stations import (
    check_bridge,
    check_red_area,
    check_station,
    city_of,
    claim_subsidy,
    company_town_token,
    place_bridge,
    place_freight_marker,
    place_station,
    revalue_red_area,
)
from engine.titles.g18usa.track import LayRecord, TrackTurn, apply_lay, check_lay
from engine.titles.g18usa.usa_map import MAP_OPTIONS, UsaMap

SITE_OPTIONS = frozenset(SETUP_OPTIONS) | frozenset(MAP_OPTIONS)
DISTANCES = {raw["name"]: int(raw["distance"]) for raw in load_data()["entities"]["trains"]}


@dataclass
class MapReplayReport:
    lays: int = 0
    stations: int = 0
    markers: int = 0
    runs: int = 0
    runs_explained: int = 0
    problems: list[str] = field(default_factory=list)
    unexplained: list[str] = field(default_factory=list)  # logged revenues we cannot account for


def attachment(shown: str) -> tuple[str, bool, bool, bool]:
    """A train as the trace shows it: (name, Pullman, extender, switcher); `5P` carries a
    Pullman, `2++1` is a 2+ with P30's extender, `2/1` a 2 with P19's switcher."""
    if shown.endswith("/1"):
        return shown[:-2], False, False, True
    if shown.endswith("+1"):
        return shown[:-2], False, True, False
    if shown.endswith("P"):
        return shown[:-1], True, False, False
    return shown, False, False, False


class MapReplay:
    def __init__(self, log_path: Path, trace_path: Path, options: frozenset[str] = SITE_OPTIONS) -> None:
        self.log = read_log(log_path)
        self.trace = list(trace_lines(trace_path))
        head = self.trace[0]["setup"]
        self.setup = setup_from_seed(head["seed"], head["players"], options)
        self.umap = UsaMap(self.setup, options)
        self.report = MapReplayReport()
        self.turn_key: tuple[Any, ...] | None = None
        self.turn_lays: list[LayRecord] = []
        self.last_home: str | None = None

    # --- trace lookups ---------------------------------------------------------------------
    @staticmethod
    def corp(line: dict[str, Any], corp_id: str) -> dict[str, Any] | None:
        return next((c for c in line["corps"] if c["id"] == corp_id), None)

    def owner_of(self, line: dict[str, Any], company: str) -> str:
        for corp in line["corps"]:
            if company in corp["companies"]:
                return str(corp["id"])
        raise GameError(f"no company owns {company}")

    def track_turn(self, line: dict[str, Any], corp_id: str) -> TrackTurn:
        corp = self.corp(line, corp_id) or {"companies": [], "operated": False}
        key = (corp_id, line["round"], line["turn"], line["round_num"])
        if key != self.turn_key:
            self.turn_key, self.turn_lays = key, []
        home = next((coord for coord, state in self.umap.board.hexes.items()
                     if any(state.tokens[c] and state.tokens[c][0] == corp_id
                            for c in range(len(state.tokens)))), None)
        return TrackTurn(corp_id, line["phase"], frozenset(corp["companies"]), self.home.get(corp_id, home),
                         not corp["operated"], tuple(self.turn_lays))

    home: dict[str, str] = {}

    # --- replay ------------------------------------------------------------------------------
    def run(self) -> MapReplayReport:
        self.home = {}
        self.traced = set()
        self.previous: set[str] = set()
        self.vacated = {}
        for index, action in enumerate(self.log["actions"]):
            # trace[0] is the setup line; trace[k] is the state after action k - 1.
            before, after = self.trace[max(index, 1)], self.trace[index + 1]
            try:
                self.step(action, before, after)
            except GameError as error:
                self.report.problems.append(f"action {action['id']} {action['type']}: {error}")
            if (before["round"] == "Stock Round" and before["turn"] == 1
                    and after["round"] != "Stock Round"):
                self.umap.drop_unclaimed_subsidies()
            self.sync_tokens(action, after)
        return self.report

    def step(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        kind = action["type"]
        if kind == "lay_tile":
            self.lay(action, before, after)
        elif kind == "place_token":
            self.station(action, before)
        elif kind == "remove_token":
            coord, city = city_of(self.umap, action["city"])
            self.umap.board.remove_token(coord, city, int(action["slot"]))
        elif kind == "assign" and action.get("target_type") == "hex":
            self.marker(action, before)
        elif kind == "assign" and action.get("target") == "P10" and self.last_home:
            self.umap.carnegie_metropolis(self.last_home)
        elif kind == "run_routes":
            self.runs(action, before)

    def lay(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        entity = str(action["entity"])
        corp_id = entity if action["entity_type"] == "corporation" else self.owner_of(before, entity)
        turn = self.track_turn(before, corp_id)
        lay = check_lay(self.umap, turn, entity, action["hex"], action["tile"], int(action["rotation"]))
        apply_lay(self.umap, lay)
        self.turn_lays.append(lay.record(self.umap, entity))
        self.report.lays += 1
        corp_before, corp_after = self.corp(before, corp_id), self.corp(after, corp_id)
        if corp_before and corp_after and "auto_actions" not in action:
            paid = corp_before["cash"] - corp_after["cash"]
            if paid != lay.cost:
                self.report.problems.append(
                    f"action {action['id']}: {corp_id} paid ${paid} for {action['tile']} in {action['hex']}, "
                    f"the rules charge ${lay.cost} ({lay.nature})")
        if lay.tile.kind == "company_town" and corp_after and action["hex"] in corp_after["tokens"]:
            company_town_token(self.umap, corp_id, action["hex"])

    def station(self, action: dict[str, Any], before: dict[str, Any]) -> None:
        corp_id = str(action.get("tokener") or action["entity"])
        coord, city = city_of(self.umap, action["city"])
        corp = self.corp(before, corp_id)
        home = before["round"] != "Operating Round" and not (corp and corp["tokens"])
        source = str(action["entity"]) if action["entity_type"] == "company" else None
        reach = None if home else reach_of(self.umap.board, corp_id)
        place = check_station(self.umap, corp_id, coord, city, reach, source)
        place_station(self.umap, corp_id, place)
        self.report.stations += 1
        if home:
            self.home[corp_id] = coord
            self.last_home = coord
            claim_subsidy(self.umap, coord)

    def marker(self, action: dict[str, Any], before: dict[str, Any]) -> None:
        source, coord = str(action["entity"]), str(action["target"])
        corp_id = self.owner_of(before, source)
        reach = reach_of(self.umap.board, corp_id)
        if source == "P6":
            check_red_area(self.umap, corp_id, coord, reach)
            revalue_red_area(self.umap, coord)
        elif source == "P8":
            check_red_area(self.umap, corp_id, coord, reach)
            place_freight_marker(self.umap, corp_id, coord)
        else:
            check_bridge(self.umap, corp_id, source, coord, reach)
            place_bridge(self.umap, source, coord)
        self.report.markers += 1

    def runs(self, action: dict[str, Any], before: dict[str, Any]) -> None:
        corp_id = str(action["entity"])
        corp = self.corp(before, corp_id) or {"companies": [], "trains": []}
        owned = frozenset(corp["companies"])
        attached = [attachment(name) for name in corp["trains"] if name != "P"]
        used: set[tuple[str, int]] = set()
        built = []
        for route in action["routes"]:
            stops, paths = rebuild_run(self.umap.board, route["connections"], used)
            used.update(paths)
            built.append((route, stops, paths))
        check_run_set(self.umap, [stops for _, stops, _ in built])
        values = []
        for route, stops, paths in built:
            values.append(self.run_with_attachment(corp_id, before["phase"], owned, attached, route, stops, paths))
        if GREAT_NORTHERN in owned:
            bonus = great_northern_bonus(self.umap, [(r["train"], stops) for r, stops, _ in built])
            values = [v + bonus.get(r["train"], 0) for v, (r, _, _) in zip(values, built, strict=True)]
        for value, (route, _, _) in zip(values, built, strict=True):
            self.report.runs += 1
            if value == route["revenue"]:
                self.report.runs_explained += 1
            else:
                self.report.unexplained.append(
                    f"action {action['id']} {corp_id} {route['train']} {route['revenue_str']}: logged "
                    f"{route['revenue']}, computed {value} (owns {sorted(owned)}, trains {corp['trains']})")

    def run_with_attachment(self, corp_id: str, phase: str, owned: frozenset[str],
                            attached: list[tuple[str, bool, bool, bool]], route: dict[str, Any],
                            stops: list[Any], paths: list[Any]) -> int:
        """The run's value, with the Pullman, extender or switcher the trace shows on a train of
        its name. The trace does not say which of two same-named trains has it, so the one
        whose logged run it fits gets it."""
        name = route["train"].rsplit("-", 1)[0]
        options = [(name, False, False, False)] + [a for a in attached if a[0] == name and any(a[1:])]
        found: int | None = None
        error: GameError | None = None
        for option in options:
            _, pullman, extender, switcher = option
            train = RunTrain(route["train"], DISTANCES[name] + (extender or switcher), pullman, switcher)
            try:
                value = run_value(self.umap, corp_id, phase, train, stops, paths, owned)
            except GameError as refused:
                error = error or refused
                continue
            if found is None:
                found = value
            if value == route["revenue"]:
                if any(option[1:]):
                    attached.remove(option)
                return value
        if found is None:
            raise error or GameError("no train for this run")
        return found

    # --- stations moved by the game flow ----------------------------------------------------
    def board_tokens(self) -> Counter[tuple[str, str]]:
        found: Counter[tuple[str, str]] = Counter()
        for coord, state in self.umap.board.hexes.items():
            for slots in state.tokens:
                for token in slots:
                    if token and token in self.traced:
                        found[(token, coord)] += 1
        return found

    traced: set[str] = set()
    vacated: dict[str, list[int]] = {}
    previous: set[str] = set()

    def sync_tokens(self, action: dict[str, Any], after: dict[str, Any]) -> None:
        # Companies in the trace after the action, and those it just dropped (no stations left);
        # a company not yet (or no longer) in the trace is not judged.
        self.traced = {c["id"] for c in after["corps"]} | self.previous
        self.previous = {c["id"] for c in after["corps"]}
        wanted: Counter[tuple[str, str]] = Counter(
            (c["id"], coord) for c in after["corps"] for coord in c["tokens"])
        have = self.board_tokens()
        if wanted == have:
            return
        # A merger's stations change owner only after its remove_token choices, so those are
        # judged by the renames that follow, not at once.
        map_action = action["type"] in ("place_token", "lay_tile")
        missing = wanted - have
        extra = have - wanted
        if map_action:
            self.report.problems.append(f"action {action['id']} {action['type']}: stations differ from the "
                                        f"trace: missing {dict(missing)}, extra {dict(extra)}")
        for (corp_id, coord), count in extra.items():
            for _ in range(count):
                replacement = next((c for (c, h) in missing if h == coord and missing[(c, h)] > 0), None)
                self._retoken(coord, corp_id, replacement)
                if replacement:
                    missing[(replacement, coord)] -= 1
        for (corp_id, coord), count in (+missing).items():
            if map_action:
                self.report.problems.append(f"action {action['id']} {action['type']}: {corp_id} gains a "
                                            f"station in {coord} the map rules did not place ({count})")
            for _ in range(count):
                self._add_token(coord, corp_id)

    def _add_token(self, coord: str, corp_id: str) -> None:
        state = self.umap.board.hexes[coord]
        # A merged company's station reappears under the survivor in the city it left.
        cities = self.vacated.pop(coord, []) + list(range(len(state.tokens)))
        for city in cities:
            slots = state.tokens[city]
            if None in slots:
                slots[slots.index(None)] = corp_id
                return
        self.umap.board.add_extra_slot(coord, 0, corp_id)

    def _retoken(self, coord: str, old: str, new: str | None) -> None:
        state = self.umap.board.hexes[coord]
        for city, slots in enumerate(state.tokens):
            if old in slots:
                slot = slots.index(old)
                if new is None:
                    self.umap.board.remove_token(coord, city, slot)
                    self.vacated.setdefault(coord, []).append(city)
                else:
                    slots[slot] = new
                return

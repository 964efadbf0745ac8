"""18USA's legal lays and stations along the 13 logs: the fast answers are the slow ones.

The map part of each log is replayed on the board (`usa_map_replay.py`). Before every tile lay
of an operating company the legal lays must offer it, in its rotation, at what the company paid
in the reference trace; before every station placed by a company from its charter, the legal
stations must offer its city. At a spread of positions the answers must equal those of
`usa_legal_reference.py` (every tile in every rotation through `check_lay`, every city through
`check_station`, nothing grouped or kept), asked twice so the kept answer is checked too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from usa_legal_reference import reference_legal_lays, reference_legal_stations
from usa_logs import LOGS
from usa_map_replay import SITE_OPTIONS, MapReplay

from engine.titles.g18usa.stations import city_of, legal_stations
from engine.titles.g18usa.track import legal_lays

# Positions compared with the slow reference in each log: one or more, spread over the game.
REFERENCE_EVERY = 90


class CheckedReplay(MapReplay):
    def __init__(self, log: Path, trace: Path) -> None:
        super().__init__(log, trace, SITE_OPTIONS)
        self.positions = 0
        self.compared = 0
        self.offered_lays = 0
        self.offered_stations = 0
        self.failures: list[str] = []

    def step(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        if action["type"] in ("lay_tile", "place_token") and before["round"] == "Operating Round":
            self.check(action, before, after)
        super().step(action, before, after)

    def check(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> None:
        entity = str(action["entity"])
        corp_id = str(action.get("tokener") or (
            entity if action["entity_type"] == "corporation" else self.owner_of(before, entity)))
        turn = self.track_turn(before, corp_id)
        where = f"action {action['id']} {action['type']} by {entity}"
        self.positions += 1
        if self.positions % REFERENCE_EVERY == REFERENCE_EVERY // 2:
            self.compared += 1
            for laying in dict.fromkeys((corp_id, entity if action["type"] == "lay_tile" else corp_id)):
                expected = reference_legal_lays(self.umap, turn, laying)
                for _ in range(2):
                    if legal_lays(self.umap, turn, laying) != expected:
                        self.failures.append(f"{where}: legal lays of {laying} differ from the reference")
            for _ in range(2):
                if legal_stations(self.umap, corp_id) != reference_legal_stations(self.umap, corp_id):
                    self.failures.append(f"{where}: legal stations of {corp_id} differ from the reference")
        if action["type"] == "lay_tile":
            self.check_lay_offered(action, before, after, corp_id, turn, where)
        elif action["entity_type"] == "corporation":
            self.offered_stations += 1
            if city_of(self.umap, action["city"]) not in legal_stations(self.umap, corp_id):
                self.failures.append(f"{where}: the station in {action['city']} is not offered")

    def check_lay_offered(self, action: dict[str, Any], before: dict[str, Any], after: dict[str, Any],
                          corp_id: str, turn: Any, where: str) -> None:
        self.offered_lays += 1
        name = str(action["tile"]).rsplit("-", 1)[0]
        offered = [tile for choice in legal_lays(self.umap, turn, str(action["entity"]))
                   if choice["hex"] == action["hex"] for tile in choice["tiles"]  # type: ignore[attr-defined]
                   if tile["tile"].rsplit("-", 1)[0] == name and action["rotation"] in tile["rotations"]]
        if not offered:
            self.failures.append(f"{where}: {action['tile']} in {action['hex']} rotation "
                                 f"{action['rotation']} is not offered")
            return
        corp_before, corp_after = self.corp(before, corp_id), self.corp(after, corp_id)
        if corp_before and corp_after and "auto_actions" not in action:
            paid = corp_before["cash"] - corp_after["cash"]
            if offered[0]["cost"] != paid:
                self.failures.append(f"{where}: offered at ${offered[0]['cost']}, the company paid ${paid}")


@pytest.mark.parametrize(("log", "trace"), LOGS, ids=[log.stem for log, _ in LOGS])
def test_every_logged_lay_and_station_is_offered_and_answers_equal_the_reference(log: Path, trace: Path) -> None:
    replay = CheckedReplay(log, trace)
    report = replay.run()
    assert report.problems == []
    assert replay.failures == []
    assert replay.offered_lays > 20 and replay.offered_stations > 5
    assert replay.compared >= 1

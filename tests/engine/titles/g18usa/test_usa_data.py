"""18USA's packaged data checked against the rulebook, the map's own geometry and the 13 logs."""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import pytest
from usa_logs import LOGS, read_log, trace_lines

from engine.core.services.market import StockMarket
from engine.log import new_game
from engine.titles.g18usa.auction import minimum_opening_bid
from engine.titles.g18usa.data import load_data

# Section 1 of the map notes: edge e of a hex faces the neighbour at this (dx, dy).
EDGE_OFFSETS = {0: (-1, 1), 1: (-2, 0), 2: (-1, -1), 3: (1, -1), 4: (2, 0), 5: (1, 1)}
TILE_TAKING = {"white", "yellow"}


def hexes() -> dict[str, dict[str, Any]]:
    return {raw["coord"]: raw for raw in load_data()["map"]["hexes"]}


def tiles() -> dict[str, dict[str, Any]]:
    return {raw["name"]: raw for raw in load_data()["tiles"]["tiles"]}


def privates() -> dict[str, dict[str, Any]]:
    return {raw["id"]: raw for raw in load_data()["entities"]["privates"]["companies"]}


def printed_edges(raw: dict[str, Any]) -> set[int]:
    return {end["edge"] for path in raw["paths"] for end in (path["a"], path["b"]) if "edge" in end}


# --- map geometry ------------------------------------------------------------------------------
def test_map_has_114_hexes_with_coordinates_matching_their_names() -> None:
    board = hexes()
    assert len(board) == load_data()["map"]["hex_count"] == 114
    for coord, raw in board.items():
        row, number = ord(coord[0]) - ord("A"), int(coord[1:])
        assert (raw["x"], raw["y"]) == (number - 1, row), coord
        assert (raw["x"] + raw["y"]) % 2 == 0, f"{coord} breaks the map's parity"


def test_every_neighbour_is_symmetric_and_at_its_edge_offset() -> None:
    board = hexes()
    by_xy = {(raw["x"], raw["y"]): coord for coord, raw in board.items()}
    for coord, raw in board.items():
        expected = {}
        for edge, (dx, dy) in EDGE_OFFSETS.items():
            other = by_xy.get((raw["x"] + dx, raw["y"] + dy))
            if other:
                expected[str(edge)] = other
        assert raw["neighbors"] == expected, coord
        for edge, other in raw["neighbors"].items():
            assert board[other]["neighbors"][str((int(edge) + 3) % 6)] == coord


def test_connectable_neighbours_follow_printed_track() -> None:
    board = hexes()
    for coord, raw in board.items():
        if raw["color"] not in TILE_TAKING:
            continue
        for edge, other in raw["neighbors"].items():
            neighbour = board[other]
            facing = (int(edge) + 3) % 6
            connectable = neighbour["color"] in TILE_TAKING or facing in printed_edges(neighbour)
            assert (edge in raw["connectable_neighbors"]) == connectable, (coord, edge)
        # Printed track in a hex that takes tiles only points at hexes it can join.
        assert all(str(edge) in raw["connectable_neighbors"] for edge in printed_edges(raw)), coord


def test_printed_track_of_fixed_hexes_points_at_existing_hexes() -> None:
    for coord, raw in hexes().items():
        if raw["color"] in ("red", "gray", "blue"):
            assert printed_edges(raw) <= {int(edge) for edge in raw["neighbors"]}, coord
            assert not raw["accepts_tiles"]


# --- map features --------------------------------------------------------------------------------
def test_red_areas_take_their_value_from_the_token_dealt_to_their_slot() -> None:
    red = {coord: raw for coord, raw in hexes().items() if "red_area" in raw}
    assert {raw["value_token_slot"] for raw in red.values()} == set(range(7))
    assert len(red) == 12 and all(raw["color"] == "red" for raw in red.values())
    for coord, raw in red.items():
        stops = raw["towns"] + raw["offboards"]
        assert [stop["revenue"] for stop in stops] == ["from_value_token"], coord
    # Red towns may be passed through; red off-boards end a route (rule 12.4).
    assert sorted(c for c, raw in red.items() if raw["towns"]) == ["A15", "B2", "E1", "J24"]
    mexico = load_data()["map"]["mexico"]["hexes"]
    assert all(red[coord]["offboards"][0]["groups"] == ["Mexico"] for coord in mexico)
    assert all(raw["offboards"][0]["route_must_end_here"] for raw in red.values() if raw["offboards"])


def test_metropolis_candidates_carry_their_own_city_tile() -> None:
    board, catalogue = hexes(), tiles()
    metropolis = load_data()["map"]["randomized_setup"]["metropolis"]
    assert sorted(metropolis["tiles"]) == sorted(metropolis["candidates"])
    for coord, placed in metropolis["tiles"].items():
        tile = catalogue[placed["tile"]]
        assert board[coord]["metropolis_candidate"] == placed
        assert tile["kind"] == "metropolis" and tile["color"] == "yellow"
        assert tile["city_name"] == board[coord]["location_name"]
        assert tile["count"] == 1
    assert board["D28"]["metropolis_always"] and board["D28"]["label"] == "NY"
    # New York is a double city.
    assert [city["slots"] for city in board["D28"]["cities"]] == [1, 1]


def test_feature_hex_lists_match_the_hexes_and_the_privates_that_use_them() -> None:
    data, board, companies = load_data()["map"], hexes(), privates()
    subsidy_hexes = load_data()["entities"]["subsidies"]["hexes"]
    assert sorted(c for c, raw in board.items() if raw["subsidy_city"]) == sorted(subsidy_hexes)
    assert all("subsidy_city" in board[c]["icons"] for c in subsidy_hexes)
    for resource, listed in data["resource_hexes"].items():
        assert sorted(c for c, raw in board.items() if resource in raw["resources"]) == sorted(listed)
    assert companies["P1"]["ability"]["hexes"] == data["resource_hexes"]["coal"]
    assert companies["P3"]["ability"]["hexes"] == data["resource_hexes"]["oil"]
    assert companies["P4"]["ability"]["hexes"] == data["resource_hexes"]["ore"]
    assert sorted(companies["P21"]["ability"]["resource_hexes"]) == sorted(
        set(data["resource_hexes"]["coal"]) | set(data["resource_hexes"]["ore"]))
    assert sorted(c for c, raw in board.items() if raw["river_hex"]) == sorted(data["river_hexes"])
    assert companies["P2"]["ability"]["hexes"] == data["river_hexes"]
    assert sorted(c for c, raw in board.items() if raw["great_northern_hex"]) == sorted(
        data["great_northern"]["hexes"])
    assert companies["P17"]["ability"]["hexes"] == data["great_northern"]["hexes"]
    assert len(data["city_hexes"]) == 30
    for private in ("P9", "P16", "P26"):
        assert companies[private]["ability"]["hexes"] == data["city_hexes"]
    assert all(board[c]["cities"] for c in data["city_hexes"])


# --- tiles -------------------------------------------------------------------------------------
def test_every_tile_reference_resolves() -> None:
    catalogue, board = tiles(), hexes()
    assert len(catalogue) == load_data()["tiles"]["tile_count"] == 96
    for name, raw in catalogue.items():
        for target in raw["upgrades_to"] + raw.get("upgrades_to_special", []):
            assert target in catalogue, (name, target)
        if raw["kind"] == "resource":
            base = catalogue[raw["base_tile"]]
            assert (base["color"], base["paths"]) == (raw["color"], raw["paths"]), name
            assert set(raw["resources"]) <= {"coal", "ore", "oil"} and raw["engine_only"]
    for coord, names in load_data()["tiles"]["generic_tiles_for_preprinted_hex"].items():
        assert board[coord]["accepts_tiles"] and all(name in catalogue for name in names)


def manifest_count(text: str) -> int:
    return sum(int(part) for part in text.split("+"))


def test_tile_counts_match_the_rulebook_manifest_apart_from_the_noted_ones() -> None:
    for name, raw in tiles().items():
        if raw.get("engine_only"):
            assert "rulebook_physical_count" not in raw
            continue
        if raw["kind"] == "plain":
            # Rule 12.2: plain tiles are unlimited, whatever the manifest holds.
            assert raw["count"] == "unlimited", name
        elif raw["count"] == "unlimited":
            # The site's unlimited B tiles and X30; the manifest's count is the default
            # (site_tile_counts gives the site's).
            assert name in ("592", "593", "597", "X30") and "rulebook manifest" in raw["notes"]
            assert raw["rulebook_count"] == manifest_count(raw["rulebook_physical_count"]) == (
                1 if name == "X30" else 4)
        elif raw["rulebook_physical_count"][0].isdigit():
            assert raw["count"] == manifest_count(raw["rulebook_physical_count"]), name
        else:
            assert name in ("X08", "X09") and raw["count"] == 1 and "83-tile total" in raw["rulebook_physical_count"]
    assert sorted(name for name, raw in tiles().items() if "rulebook_count" in raw) == ["592", "593", "597", "X30"]


def test_private_only_tiles() -> None:
    catalogue = tiles()
    for name in ("X07", "X08", "X09"):
        town = catalogue[name]["towns"][0]
        assert (catalogue[name]["label"], town["revenue"], town["distance_cost"]) == ("R.J.", 10, 0)
    for name in ("X20", "X21", "X22"):
        tile = catalogue[name]
        assert tile["label"] == "C.T." and tile["cities"][0]["slots"] == 2
        assert tile["cities"][0]["revenue"] == {"yellow": 30, "green": 40, "brown": 50}
        assert (tile["neutral_token_in_slot"], tile["other_corporations_revenue_penalty"]) == (0, 10)
    hq = catalogue["X23"]
    assert (hq["label"], hq["color"], hq["cities"][0]["revenue"], hq["cities"][0]["slots"]) == ("RHQ", "gray", 50, 3)
    assert len({end["edge"] for path in hq["paths"] for end in (path["a"], path["b"]) if "edge" in end}) == 6
    assert catalogue["X04s"]["upgrades_to_special"] == ["X04"]
    assert [catalogue[f"{track}ore10"]["upgrades_to_special"] for track in "789"] == [
        ["7ore20"], ["8ore20"], ["9ore20"]]


# --- the logs use only what the data has ----------------------------------------------------------
def split_id(tile_id: str) -> tuple[str, int]:
    name, _, copy = tile_id.rpartition("-")
    return name, int(copy)


@pytest.mark.parametrize(("log_path", "trace_path"), LOGS, ids=[log.stem for log, _ in LOGS])
def test_every_tile_and_city_in_the_logs_resolves(log_path: Any, trace_path: Any) -> None:
    catalogue, board = tiles(), hexes()
    printed = {raw["engine_tile_id"]: raw for raw in board.values()}
    laid = 0
    for action in read_log(log_path)["actions"]:
        if action["type"] == "lay_tile":
            name, copy = split_id(action["tile"])
            assert name in catalogue, action
            assert action["hex"] in board and board[action["hex"]]["accepts_tiles"], action
            count = catalogue[name]["count"]
            assert count == "unlimited" or copy < count, action
            laid += 1
        if action["type"] == "place_token":
            tile_id, part = split_id(action["city"])
            source = printed.get(tile_id) or catalogue[split_id(tile_id)[0]]
            assert part in [city["part_index"] for city in source["cities"]], action
    assert laid > 50


# --- market ------------------------------------------------------------------------------------
def test_market_is_one_row_of_seventy_cells_from_liquidation_to_800() -> None:
    market = StockMarket(load_data()["market"])
    cells = [market.cells[(0, col)] for col in range(70)]
    assert len(market.cells) == 70
    assert [cell.types for cell in cells[:4]] == [("liquidation",), ("acquisition",), ("acquisition",),
                                                  ("acquisition",)]
    prices = [cell.price for cell in cells[4:]]
    assert (prices[0], prices[-1]) == (42, 800) and prices == sorted(set(prices))
    assert all(cell.engine_id == f"{cell.price},0,{cell.col}" for cell in cells)
    # Rule 11.6: a company may start at any price from 50 to 200.
    assert [cell.price for cell in market.par_cells()] == [p for p in prices if 50 <= p <= 200]
    assert [cell.price for cell in cells if "safe_par" in cell.types] == [53, 74, 120]
    # A normal move never enters liquidation, and stops at the last cell.
    assert cells[1].target("left") == (0, 1) and cells[69].target("right") == (0, 69)
    assert all(cells[col].target("right") == (0, col + 1) for col in range(69))


def test_dividend_thresholds_are_half_one_one_and_a_half_and_two_prices() -> None:
    for raw in load_data()["market"]["grid"][0][1:]:
        price = raw["price"] or 40
        assert raw["dividend_thresholds"] == [price // 2, price, price * 3 // 2, price * 2], raw


@cache
def trace_market_positions() -> set[tuple[int, int, int]]:
    seen = set()
    for _, trace_path in LOGS:
        for line in trace_lines(trace_path):
            for corp in line.get("corps") or ():
                seen.add((*corp["market"], corp["price"]))
    return seen


def test_every_market_position_in_the_traces_has_our_price() -> None:
    market = StockMarket(load_data()["market"])
    seen = trace_market_positions()
    assert len(seen) > 40
    for row, col, price in seen:
        assert market.cells[(row, col)].price == price


# --- entities ----------------------------------------------------------------------------------
APPENDIX = {"P1": ("Lehigh Coal Mine Co.", 30), "P2": ("Fox Bridge Works", 40),
            "P3": ("Reece Oil and Gas", 40), "P4": ("Hendrickson Iron", 40),
            "P5": ("Nobel's Blasting Powder", 30), "P6": ("Import / Export Hub", 30),
            "P7": ("Track Engineers", 40), "P8": ("Express Freight Service", 40), "P9": ("Boomtown", 40)}


def test_private_values_as_in_the_rulebook_with_p3_noted() -> None:
    companies = privates()
    assert list(companies) == [f"P{number}" for number in range(1, 31)]
    for private, (name, value) in APPENDIX.items():
        raw = companies[private]
        assert raw.get("rulebook_name", raw["name"]) == name
        assert raw.get("rulebook_value", raw["value"]) == value, private
    # The one discrepancy: the site has P3 at $30. The printed $40 is the game's default, the
    # site's $30 the option site_p3_value (rule 10: minimum bids $20 and $15).
    assert (companies["P3"]["value"], companies["P3"]["rulebook_value"]) == (30, 40)
    assert "$40 in the rulebook" in companies["P3"]["notes"]
    assert [c for c, raw in companies.items() if "rulebook_value" in raw] == ["P3"]
    players = [{"id": name, "name": name} for name in "ABCD"]
    for options, value, min_bid in (([], 40, 20), (["site_p3_value"], 30, 15)):
        p3 = new_game("18USA", players, 7, options).state.companies["P3"]
        assert (p3.value, minimum_opening_bid(p3)) == (value, min_bid), options
    # Rule 10: bids start at half the face value, $5 for the Pyramid Scheme.
    for private, raw in companies.items():
        assert raw["min_auction_bid"] == (5 if private == "P14" else raw["value"] // 2), private
    # Rule 2.3 draws from groups larger than what each keeps.
    selection = load_data()["entities"]["privates"]["selection"]
    fixed = set(selection["always"]) | set(selection["always_with_5_or_more_players"])
    groups = Counter(raw["value"] for c, raw in companies.items() if c not in fixed)
    assert groups == {30: 2, 40: 4, 60: 7, 80: 5, 90: 5, 120: 2}
    assert all(groups[int(value)] > kept for value, kept in selection["kept_per_face_value"].items())


def test_every_private_has_its_own_text_and_ability_data() -> None:
    for private, raw in privates().items():
        assert len(raw["text"]) > 30 and "summary" not in raw["ability"], private
        assert raw["ability"]["type"], private


def test_phases_follow_the_rulebook_table() -> None:
    phases = {raw["name"]: raw for raw in load_data()["entities"]["phases"]}
    table = {"2": (["yellow"], 4, [2]), "3": (["yellow", "green"], 4, [2, 5]), "4": (["yellow", "green"], 3, [5]),
             "5": (["yellow", "green", "brown"], 3, [5, 10]), "6": (["yellow", "green", "brown"], 2, [10]),
             "7": (["yellow", "green", "brown", "gray"], 2, [10]),
             "8": (["yellow", "green", "brown", "gray"], 2, [10])}
    for name, (colors, limit, sizes) in table.items():
        assert (phases[name]["tiles"], phases[name]["train_limit"], phases[name]["corporation_sizes"]) == (
            colors, limit, sizes), name
    assert phases["8"]["rulebook_corporation_sizes"] == []
    assert [(p["name"], p.get("rusts"), p.get("obsolete")) for p in phases.values() if p.get("rusts")] == [
        ("4", ["2"], ["2+"]), ("6", ["3"], ["3+"]), ("8", ["4"], ["4+"])]
    assert len(load_data()["entities"]["corporations"]) == 20

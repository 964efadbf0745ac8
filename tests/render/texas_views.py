"""Views of the 18Texas board built straight from the title's JSON data, for render tests.

This stands in for the engine adapter: it turns printed hexes, tiles.json geometry with a
rotation, and a few tokens into the plain view objects render/ draws.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from render.view import (
    CityView,
    CorpRow,
    DepotRow,
    HexView,
    MapView,
    MarketCellView,
    MarketView,
    OffboardView,
    PlayerRow,
    RouteSegment,
    RouteView,
    TableView,
    TokenView,
    TownView,
)

DATA = Path(__file__).resolve().parents[2] / "engine" / "titles" / "g18texas" / "data"
PHASE_ORDER = ["2", "3", "4", "5", "6", "8"]


def load(name: str) -> Any:
    return json.loads((DATA / f"{name}.json").read_text())


def corp_tokens() -> dict[str, TokenView]:
    text_on = {"orange": "black", "green": "white"}
    return {
        c["id"]: TokenView(c["id"], c["engine_color"], text_on.get(c["engine_color"], "white"))
        for c in load("entities")["corporations"]
    }


def _endpoint(d: dict[str, Any], rotation: int = 0) -> tuple[str, int]:
    (kind, value), = d.items()
    if kind == "edge":
        return ("edge", (int(value) + rotation) % 6)
    if kind == "junction":
        return ("junction", 0)
    return (kind, int(value))


def _values(revenue: Any, phase: str) -> tuple[tuple[tuple[str, int], ...], int]:
    """Printed {"yellow": a, "brown": b} -> (("2", a), ("5", b)) and the index in force."""
    if not isinstance(revenue, dict):
        return ((), 0)
    start = {"yellow": "2", "green": "3", "brown": "5", "gray": "8"}
    values = tuple((start[color], int(v)) for color, v in revenue.items())
    current = max(k for k, (label, _) in enumerate(values)
                  if PHASE_ORDER.index(label) <= PHASE_ORDER.index(phase))
    return values, current


def texas_map(
    laid: dict[str, tuple[str, int]] | None = None,
    tokens: dict[tuple[str, int], list[str]] | None = None,
    phase: str = "2",
    highlight: frozenset[str] = frozenset(),
    routes: tuple[RouteView, ...] = (),
) -> MapView:
    """The printed 18Texas map with `laid` tiles {coord: (tile name, rotation)} and
    `tokens` {(coord, city index): [corporation ids by slot]}."""
    laid = laid or {}
    tokens = tokens or {}
    tiles = {t["name"]: t for t in load("tiles")["tiles"]}
    colors = corp_tokens()
    blocked = {h: p for p, hexes in load("map")["private_blocked_hexes"].items() for h in hexes}
    hexes = []
    for h in load("map")["hexes"]:
        tile_name, rot = laid.get(h["coord"], (None, 0))
        src = tiles[tile_name] if tile_name else h
        reserved_by_city = {c["index"]: c.get("reserved_for", []) for c in h["cities"]}
        cities = []
        for c in src["cities"]:
            corp_ids = tokens.get((h["coord"], c["index"]), [])
            toks = tuple(colors[cid] for cid in corp_ids) + (None,) * (c["slots"] - len(corp_ids))
            reserved = tuple(reserved_by_city.get(c["index"], []))
            values, current = _values(c["revenue"], phase)
            revenue = c["revenue"] if isinstance(c["revenue"], int) else values[current][1]
            cities.append(CityView(revenue, c["slots"], toks[: c["slots"]], reserved, values, current))
        towns = []
        for t in src["towns"]:
            values, current = _values(t["revenue"], phase)
            revenue = t["revenue"] if isinstance(t["revenue"], int) else values[current][1]
            towns.append(TownView(revenue, values, current))
        offboard = None
        if h["offboards"]:
            values, current = _values(h["offboards"][0]["revenue"], phase)
            offboard = OffboardView(values, current)
        terrain = h["terrain"] or {"cost": 0, "types": []}
        hexes.append(HexView(
            coord=h["coord"], x=h["x"], y=h["y"],
            color=src["color"],
            location_name=h["location_name"],
            label=src["label"],
            terrain_cost=0 if tile_name else terrain["cost"],
            terrain_types=() if tile_name else tuple(terrain["types"]),
            tile_name=tile_name,
            paths=tuple((_endpoint(p["a"], rot), _endpoint(p["b"], rot)) for p in src["paths"]),
            cities=tuple(cities),
            towns=tuple(towns),
            offboard=offboard,
            blocked_by=blocked.get(h["coord"]),
        ))
    return MapView("18Texas", tuple(hexes), highlight, routes, caption=f"Phase {phase}")


# A small, connected mid-game position used by the tests and the sample pictures.
SAMPLE_LAID = {
    "I14": ("511", 1),  # Houston green Y, exits 1, 3, 5
    "I12": ("9", 1),  # straight W-E
    "I10": ("8", 2),  # gentle NW-E
    "H9": ("8", 3),  # gentle NE-SE
    "G10": ("57", 0),  # College Station, straight city SW-NE
    "C12": ("7", 2),  # sharp NW-NE
    "F9": ("14", 0),  # Waco green two-slot city
    "H7": ("202", 0),  # Austin yellow Y
    "J5": ("512", 0),  # San Antonio gray three-slot (not reachable this early; draws all sizes)
    "B11": ("5", 3),
}
SAMPLE_TOKENS = {
    ("I14", 0): ["SP"],
    ("D9", 1): ["T&P"],
    ("G10", 0): ["MP"],
    ("F9", 0): ["MP", "SP"],
    ("J5", 0): ["SAA", "T&P"],
    ("B11", 0): ["MKT"],
}


def sample_routes() -> tuple[RouteView, ...]:
    seg = RouteSegment
    return (
        RouteView("3", 60, (
            seg("I14", (("city", 0), ("edge", 1))),
            seg("I12", (("edge", 1), ("edge", 4))),
            seg("I10", (("edge", 4), ("edge", 2))),
            seg("H9", (("edge", 5), ("edge", 3))),
            seg("G10", (("edge", 0), ("city", 0))),
        ), corporation="SP"),
        RouteView("2", 60, (
            seg("I14", (("city", 0), ("edge", 5))),
            seg("J15", (("edge", 2), ("town", 0))),
        ), corporation="SP"),
    )


def sample_map(phase: str = "3") -> MapView:
    return texas_map(SAMPLE_LAID, SAMPLE_TOKENS, phase, frozenset({"I14", "I12"}), sample_routes())


def texas_market(tokens: dict[tuple[int, int], list[str]] | None = None) -> MarketView:
    tokens = tokens or {}
    colors = corp_tokens()
    cells = []
    for row in load("market")["grid"]:
        for c in row:
            cells.append(MarketCellView(
                row=c["row"], col=c["col"], price=c["price"], is_par="par" in c["types"],
                on_ledge=c["on_ledge"], up_arrow=c["right_move_goes_up"],
                down_arrow=c["left_move_goes_down"],
                tokens=tuple(colors[t] for t in tokens.get((c["row"], c["col"]), [])),
            ))
    return MarketView("18Texas stock market", tuple(cells), "2d")


SAMPLE_MARKET_TOKENS = {(2, 4): ["SP", "MP", "T&P"], (3, 3): ["SAA"], (1, 6): ["MKT"], (6, 0): ["SSW"]}


def sample_table() -> TableView:
    ent = load("entities")
    players = (
        PlayerRow("Alice", 212, ("SP 30%P", "MP 10%"), 5, 12, 640, True, ("GRRRC",), is_active=True),
        PlayerRow("Bob", 87, ("MP 40%P", "T&P 10%"), 6, 12, 702, False, ("IGN",)),
        PlayerRow("Charlotte-Anne", 405, ("T&P 30%P", "SP 20%"), 5, 12, 655, False, ("BBBCRC",)),
        PlayerRow("Dmitri", 1250, (), 1, 12, 1250, False, ("JG",)),
    )
    corps = []
    for c in ent["corporations"]:
        floated = c["id"] in ("SP", "MP", "T&P")
        corps.append(CorpRow(
            id=c["id"], name=c["name"], color=c["engine_color"],
            text_color="black" if c["engine_color"] == "orange" else "white",
            president={"SP": "Alice", "MP": "Bob", "T&P": "Charlotte-Anne"}.get(c["id"]),
            cash=340 if floated else 0, share_price=100 if floated else None,
            trains=("3", "2") if c["id"] == "SP" else (("2",) if floated else ()),
            tokens_left=c["tokens"] - (1 if floated else 0),
            treasury_pct=20 if floated else 100, pool_pct=10 if c["id"] == "MP" else 0,
            floated=floated, operated=c["id"] == "SP",
        ))
    depot = tuple(DepotRow(t["name"], t["count"], t["price"], t.get("rusts_on")) for t in ent["trains"])
    return TableView("18Texas", "Operating Round 2.1", "3", players, tuple(corps), 5731, depot, ("2",))

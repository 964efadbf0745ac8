"""18USA market and table views built from reference trace states, for the render tests.

The 18USA game class is not written yet; until it is, a trace line (the reference engine's state
after an action, tests/data/traces/README) stands in for the engine's state. The views are built
through the same adapter functions the game will use where those take plain engine pieces (the
market view from a `StockMarket` of 18USA's data); the table rows are read from the trace.
"""

from __future__ import annotations

from typing import Any

from engine.core.services.market import StockMarket
from engine.titles.g18usa.data import load_data
from render.from_engine_table import rusts_or_obsolete
from render.from_market import market_view_of
from render.from_usa_map import company_tokens
from render.view import CorpRow, DepotRow, LoanBank, MarketView, PlayerRow, PrivateRow, TableView


def round_name(line: dict[str, Any]) -> str:
    number = f"{line['turn']}.{line['round_num']}" if line["round"] == "Operating Round" else str(line["turn"])
    return f"{line['round']} {number}"


def trace_market(line: dict[str, Any]) -> StockMarket:
    """18USA's market with every company's token where the trace has it. The trace does not
    give the order within a stack, so tokens sharing a space are stacked in the trace's order."""
    market = StockMarket(load_data()["market"])
    for corp in line["corps"]:
        if corp.get("market") and not corp.get("closed"):
            row, col = corp["market"]
            market.place(corp["id"], market.cells[(row, col)])
    return market


def usa_market_view(line: dict[str, Any]) -> MarketView:
    return market_view_of(trace_market(line), load_data()["market"], company_tokens(),
                          f"18USA stock market \u2014 {round_name(line)}")


def usa_table_view(line: dict[str, Any]) -> TableView:
    """The table as the 18USA game will show it, from a trace line and 18USA's data."""
    entities = load_data()["entities"]
    names = {player["id"]: player["name"] for player in line["players"]}
    tokens = company_tokens()
    corp_names = {raw["id"]: raw["name"] for raw in entities["corporations"]}
    privates = {raw["id"]: raw for raw in entities["privates"]["companies"]}
    players = []
    for player in line["players"]:
        held: dict[str, int] = {}
        shorts: dict[str, int] = {}
        presides = {corp for corp, _, president in player["certs"] if president}
        for corp, percent, _ in player["certs"]:
            if percent > 0:
                held[corp] = held.get(corp, 0) + percent
            else:
                shorts[corp] = shorts.get(corp, 0) + 1
        players.append(PlayerRow(
            name=player["name"], cash=player["cash"],
            certs=tuple(f"{corp} {pct}%" + ("P" if corp in presides else "") for corp, pct in held.items()),
            cert_count=sum(1 for _, percent, _ in player["certs"] if percent > 0),
            cert_limit=int(entities["constants"]["certificate_limit"][str(len(line["players"]))]),
            value=player["value"], has_priority=bool(line["order"]) and line["order"][0] == player["id"],
            companies=tuple(player["companies"]), is_active=player["id"] in line["acting"],
            shorts=tuple(f"{corp} \u00d7{count}" for corp, count in shorts.items()),
        ))
    corps = []
    for corp in line["corps"]:
        if corp.get("closed"):
            continue
        token = tokens[corp["id"]]
        corps.append(CorpRow(
            id=corp["id"], name=corp_names[corp["id"]], color=token.fill_color, text_color=token.text_color,
            president=names.get(corp["president"]), cash=corp["cash"], share_price=corp["price"],
            trains=tuple(_train(name) for name in corp["trains"]), tokens_left=corp["tokens_unplaced"],
            treasury_pct=corp["ipo_pct"], pool_pct=corp["market_pct"], floated=corp["floated"],
            operated=corp["operated"], companies=tuple(corp["companies"]), loans=corp["loans"],
            size=corp["total_shares"], area=corp["area"],
        ))
    trains = {raw["name"]: raw for raw in entities["trains"]}
    phase_on = {raw["on_train"]: raw["name"] for raw in entities["phases"] if raw.get("on_train")}
    # The trace counts an unlimited kind as one card left; the data says it is unlimited.
    depot = tuple(DepotRow(name, None if trains[name]["count"]["2-4"] == "unlimited" else count,
                           int(trains[name]["price"]),
                           rusts_or_obsolete(trains[name].get("rusts_on"), trains[name].get("obsolete_on")),
                           (f"phase {phase_on[name]}",) if name in phase_on else ())
                  for name, count in line["depot"])
    holders = {company: names[p["id"]] for p in line["players"] for company in p["companies"]}
    holders |= {company: corp["id"] for corp in line["corps"] for company in corp["companies"]}
    open_privates = tuple(PrivateRow(cid, privates[cid]["name"], holder, int(privates[cid]["value"]),
                                     int(privates[cid].get("revenue") or 0))
                          for cid, holder in sorted(holders.items(), key=lambda kv: int(kv[0][1:])))
    phase = next(raw for raw in entities["phases"] if raw["name"] == line["phase"])
    notes = (f"Train limit {phase['train_limit']} \u2014 P: Pullman",)
    return TableView("18USA", round_name(line), line["phase"], tuple(players), tuple(corps), None, depot,
                     tuple(_train(name) for name in line["pool_trains"]), notes, open_privates,
                     LoanBank("Bank of New York", line["loans_left"], line["interest_rate"]))


def _train(shown: str) -> str:
    """The trace writes a train carrying a Pullman as "5P"; the table writes "5+P"."""
    return f"{shown[:-1]}+P" if len(shown) > 1 and shown.endswith("P") else shown

"""Compare our engine with the reference engine's state after every action of a log."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

from trace_diff import differences

from engine import GameError, new_game
from engine.core.game import BaseGame
from engine.log import SITE_RULES

DATA = Path(__file__).resolve().parents[3] / "data"


def read_trace(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt") as handle:
        return [json.loads(line) for line in handle]


def snapshot(game: BaseGame) -> dict[str, Any]:
    """Our state in the trace's vocabulary."""
    players = []
    for player in game.players:
        certs = sorted(
            ([corp.id, share.percent, share.president]
             for corp in game.corporations.values() for share in corp.shares if share.owner is player),
            key=lambda cert: (cert[0], -cert[1]),
        )
        companies = sorted(c.id for c in game.companies.values() if c.owner is player and not c.closed)
        players.append({"id": player.id, "cash": player.cash, "certs": certs, "companies": companies,
                        "value": game.player_value(player), "bankrupt": player.bankrupt})
    corps = {}
    for corp in game.corporations.values():
        if corp.id not in game.market.position:
            continue
        cell = game.market.cell_of(corp.id)
        president = corp.president()
        corps[corp.id] = {
            "cash": corp.cash, "price": cell.price, "market": [cell.row, cell.col],
            "ipo_pct": corp.percent_owned_by(corp), "market_pct": corp.percent_owned_by(game.pool),
            "trains": [t.name for t in corp.trains],
            "tokens": sorted(coord for coord, _ in game.board.token_hexes(corp.id)),
            "president": president.id if president else "share_pool",
            "floated": corp.floated,
        }
    return {
        "round": game.round.name if not game.finished else None,
        "phase": game.phase.name,
        "acting": [p.id for p in game.acting_players()],
        "players": players,
        "corps": corps,
        "bank": game.bank.cash,
        "depot": game.depot.run_length(),
        "finished": game.finished,
    }


def expected(line: dict[str, Any]) -> dict[str, Any]:
    corps = {}
    for corp in line["corps"]:
        corps[corp["id"]] = {key: corp[key] for key in
                             ("cash", "price", "market", "ipo_pct", "market_pct", "trains", "tokens",
                              "president", "floated")}
    return {
        "round": line["round"] if not line["finished"] else None,
        "phase": line["phase"],
        "acting": line["acting"],
        "players": [{key: p[key] for key in ("id", "cash", "certs", "companies", "value", "bankrupt")}
                    for p in line["players"]],
        "corps": corps,
        "bank": line["bank"],
        "depot": line["depot"],
        "finished": line["finished"],
    }


def first_divergence(log: dict[str, Any], trace: list[dict[str, Any]]) -> str | None:
    """Replay `log` action by action; describe the first action whose state differs."""
    game = new_game(log["title"], log["players"], log["settings"]["seed"], [SITE_RULES])
    state = game.state
    state.importing = True
    actions = log["actions"]
    for line in trace[1:]:
        if "result" in line:
            ours = state.result()
            if {str(k): v for k, v in ours.items()} != {str(k): v for k, v in line["result"].items()}:
                return f"final result: ours {ours}, reference {line['result']}"
            return None
        if line["status"] != "applied":
            raise AssertionError("traces with undo are compared through the effective log")
        action = actions[line["i"]]
        try:
            state.apply(action)
        except GameError as error:
            return f"action {line['i']} (id {action.get('id')}, {action['type']}): refused: {error}"
        ours, theirs = snapshot(state), expected(line)
        # Equal states have no differences: the field-by-field walk only names them.
        diff = differences(ours, theirs) if ours != theirs else []
        if diff:
            return f"action {line['i']} (id {action.get('id')}, {action['type']} by {action.get('entity')}): " + \
                "; ".join(diff[:6])
    return None

"""Compare our 18USA engine with the reference engine's state after every action of a log.

A sibling of the 18Texas checker: the same walk through the trace, with 18USA's fields (shorts in
the certificates, loans and the interest rate, market cells and areas, trains with their
attachments, privates held by companies, the depot with its Pullman card).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trace_diff import differences
from usa_logs import read_log, trace_lines
from usa_positions import log_named

from engine import GameError, new_game
from engine.core.game import BaseGame
from engine.legal import accepted_only_on_import, is_offered, legal_moves
from engine.log import SITE_RULES, document_options

CORP_FIELDS = ("cash", "price", "market", "ipo_pct", "market_pct", "loans", "trains", "tokens",
               "president", "area", "companies", "total_shares")
# The fields of an action named when it was not offered.
DESCRIBED = ("hex", "tile", "rotation", "city", "company", "corporation", "shares", "price", "target")


def snapshot(game: BaseGame, with_values: bool = True) -> dict[str, Any]:
    """Our state in the trace's vocabulary; without players' values (they follow from their cash,
    certificates and the prices, all compared) where speed matters."""
    from engine.titles.g18usa.operating_trains import shown_name
    from engine.titles.g18usa.phases import depot_listing

    usa: Any = game
    # Taken at every action of every log (a third of a replay's time): one pass over the
    # certificates and the companies, each grouped by holder.
    held: dict[int, list[list[Any]]] = {}
    percents: dict[tuple[str, int], int] = {}
    for corp in game.corporations.values():
        corp_id = corp.id
        for share in corp.shares:
            owner = id(share.owner)
            held.setdefault(owner, []).append([corp_id, share.percent, share.president])
            percents[corp_id, owner] = percents.get((corp_id, owner), 0) + share.percent
    owned: dict[int, list[str]] = {}  # `companies_of` each holder
    for company in game.companies.values():
        if not company.closed:
            owned.setdefault(id(company.owner), []).append(company.id)
    players = []
    for player in game.players:
        certs = held.get(id(player), [])
        certs.sort(key=_cert_order)
        players.append({"id": player.id, "cash": player.cash, "certs": certs,
                        "companies": sorted(owned.get(id(player), ())),
                        "value": game.player_value(player) if with_values else None,
                        "bankrupt": player.bankrupt})
    corps = {}
    position = game.market.position
    pool = id(game.pool)
    for corp in game.corporations.values():
        corp_id = corp.id
        if corp_id not in position:
            continue
        cell = game.market.cell_of(corp_id)
        president = corp.president()
        corps[corp_id] = {
            "cash": corp.cash, "price": cell.price, "market": [cell.row, cell.col],
            "ipo_pct": percents.get((corp_id, id(corp)), 0), "market_pct": percents.get((corp_id, pool), 0),
            "loans": game.loans.count(corp_id),
            "trains": sorted(shown_name(usa, t) for t in corp.trains),
            "tokens": sorted(coord for coord, _ in game.board.token_hexes(corp_id)),
            "president": president.id if president else "share_pool",
            "area": usa.market_area(corp),
            "companies": sorted(owned.get(id(corp), ())),
            "total_shares": usa.company_size(corp),
        }
    return {
        "round": game.round.name if not game.finished else None,
        "phase": game.phase.name,
        "acting": [p.id for p in game.acting_players()],
        "players": players,
        "corps": corps,
        "depot": depot_listing(usa),
        "loans_left": game.loans.available(),
        "interest_rate": game.loans.current_rate(),
        "finished": game.finished,
    }


def _cert_order(cert: list[Any]) -> tuple[str, int, bool]:
    return cert[0], -cert[1], not cert[2]


def expected(line: dict[str, Any], with_values: bool = True) -> dict[str, Any]:
    corps = {}
    for corp in line["corps"]:
        if corp.get("closed"):
            continue
        entry = {key: corp[key] for key in CORP_FIELDS}
        entry["trains"] = sorted(entry["trains"])
        entry["companies"] = sorted(entry["companies"])
        corps[corp["id"]] = entry
    players = []
    for p in line["players"]:
        entry = {key: p[key] for key in ("id", "cash", "certs", "value", "bankrupt")}
        if not with_values:
            entry["value"] = None
        entry["certs"] = sorted(p["certs"], key=lambda cert: (cert[0], -cert[1], not cert[2]))
        entry["companies"] = sorted(p["companies"])
        players.append(entry)
    return {
        "round": line["round"] if not line["finished"] else None,
        "phase": line["phase"],
        "acting": line["acting"],
        "players": players,
        "corps": corps,
        "depot": line["depot"],
        "loans_left": line["loans_left"],
        "interest_rate": line["interest_rate"],
        "finished": line["finished"],
    }


def start(log: dict[str, Any]) -> BaseGame:
    options = document_options(log) or [SITE_RULES]
    game = new_game(log["title"], log["players"], log["settings"]["seed"], options)
    state = game.state
    state.importing = True
    return state


@dataclass
class Walk:
    """What one replay of a log against its trace found."""

    divergence: tuple[int, str] | None = None  # the first action whose state differs, or None
    unoffered: list[str] = field(default_factory=list)  # logged actions the legal moves left out
    import_only: list[tuple[int, str, str]] = field(default_factory=list)  # (index, type, entity)


def walk(log_path: Path, trace_path: Path, offered_until: int | None = 0) -> Walk:
    """Replay the log action by action against the trace until the first state that differs.
    Before each action (and each of its auto_actions) below `offered_until` (None: all), ask
    whether the legal moves offered it; those the engine takes only on import are kept apart."""
    found = Walk()
    log = read_log(log_path)
    state = start(log)
    actions = log["actions"]
    for line in list(trace_lines(trace_path))[1:]:
        if "result" in line:
            ours = state.result()
            if {str(k): v for k, v in ours.items()} != {str(k): v for k, v in line["result"].items()}:
                found.divergence = len(actions), f"final result: ours {ours}, reference {line['result']}"
            return found
        if line["status"] != "applied":
            continue
        index = line["i"]
        action = actions[index]
        try:
            if offered_until is None or index < offered_until:
                _apply_checked(state, index, action, found)
            else:
                state.apply(action)
        except GameError as error:
            found.divergence = index, f"action {index} (id {action.get('id')}, {action['type']}): refused: {error}"
            return found
        # Players' values are compared every 20 actions and with the result at the end.
        with_values = index % 20 == 0
        ours, theirs = snapshot(state, with_values), expected(line, with_values)
        diff = differences(ours, theirs) if ours != theirs else []
        if diff:
            found.divergence = index, (f"action {index} (id {action.get('id')}, {action['type']} by "
                                       f"{action.get('entity')}): " + "; ".join(diff[:8]))
            return found
    found.divergence = len(actions), "the trace ends without the game's result"
    return found


def _apply_checked(state: BaseGame, index: int, action: dict[str, Any], found: Walk) -> None:
    """`state.apply(action)`, asking before each part whether the legal moves offered it."""
    state.programs.begin_top_level(action)
    for part in [action, *(action.get("auto_actions") or [])]:
        if not is_offered(state, part):
            where = (index, str(part["type"]), str(part.get("entity")))
            if accepted_only_on_import(state, part):
                found.import_only.append(where)
            else:
                found.unoffered.append(f"action {index} (id {action.get('id')}): {part['type']} by "
                                       f"{part.get('entity')} " + json.dumps(
                                           {k: v for k, v in part.items() if k in DESCRIBED}))
        state._apply_one(part)
    state.raw_actions.append(action)



def first_divergence(log_path: Path, trace_path: Path) -> tuple[int, str] | None:
    """Replay the log action by action: (index, description) of the first action whose state
    differs from the trace, or None when every state and the result match."""
    return walk(log_path, trace_path).divergence


def position_in(log_name: str, actions: int) -> BaseGame:
    """The game of the log whose name ends with `log_name`, after its first `actions` actions
    (the log's options, or the site's readings where it names none)."""
    log = log_named(log_name)
    game = start(log)
    for action in log["actions"][:actions]:
        game.apply(action)
    return game


def move_kinds(game: BaseGame) -> set[str]:
    """The action types the legal moves offer now."""
    return {move["type"] for move in legal_moves(game)}

"""Turn an 18xx.games log into the terminal commands its players would type.

Each action becomes the command word a player uses (bid, par, buy, sell, pass, lay, token,
run, dividend, train, issue, redeem, discard, bankrupt), typed by the player who decides it
(the president for a company, the owner for a private). ``auto_actions`` (18xx.games'
programmed moves) become the other players' own commands. A private engine replay tracks
the position to know presidents and where a bought share lies; it strips the logged run
revenues, as the moderator computes runs' revenue itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from log_following import follow

from bot.routes_text import format_routes
from engine import new_game
from engine.core.game import BaseGame

RAW_ONLY: set[str] = set()  # action types that need /action json: (none in the 18Texas logs)


def decider(state: BaseGame, action: dict[str, Any]) -> str:
    kind = action.get("entity_type", "player")
    entity = action["entity"]
    if kind == "corporation":
        president = state.corporations[entity].president()
        assert president is not None
        return president.name
    if kind == "company":
        return state.companies[entity].owner.name  # type: ignore[union-attr]
    return state.player(entity).name


def typed_command(state: BaseGame, action: dict[str, Any]) -> str | None:
    kind = action["type"]
    corp_entity = action.get("entity_type") == "corporation"
    if kind.startswith("program_") or kind == "message":
        return None
    if kind == "bid":
        return f"/bid company:{action['company']} price:{action['price']}"
    if kind == "par":
        return f"/par corporation:{action['corporation']} price:{action['share_price'].split(',')[0]}"
    if kind == "buy_shares" and corp_entity:
        return f"/redeem count:{len(action['shares'])}"
    if kind == "buy_shares":
        share_id = action["shares"][0]
        corp = state.corporations[share_id.rsplit("_", 1)[0]]
        share = corp.share_by_id(share_id)
        assert share is not None
        source = "treasury" if share.owner is corp else "pool"
        return f"/buy corporation:{corp.id} from:{source}"
    if kind == "sell_shares" and corp_entity:
        return f"/issue count:{len(action['shares'])}"
    if kind == "sell_shares":
        corp = action["shares"][0].rsplit("_", 1)[0]
        return f"/sell corporation:{corp} percent:{action['percent']}"
    if kind == "pass":
        return "/pass"
    if kind == "lay_tile":
        private = f" private:{action['entity']}" if action.get("entity_type") == "company" else ""
        name = action["tile"].rsplit("-", 1)[0]
        return f"/lay hex:{action['hex']} tile:{name} rotation:{action['rotation']}{private}"
    if kind == "place_token":
        private = f" private:{action['entity']}" if action.get("entity_type") == "company" else ""
        coord = _city_hex(state, action["city"])
        return f"/token city:{coord}{private}"
    if kind == "run_routes":
        return f"/run routes:{format_routes(action['routes'])}"
    if kind == "dividend":
        return f"/dividend kind:{action['kind']}"
    if kind == "buy_train":
        train = next((t for t in state.all_trains() if t.id == action["train"]), None)
        if train is None:  # from the depot: the name is enough
            return f"/train train:{action.get('variant') or action['train'].rsplit('-', 1)[0]}"
        return f"/train train:{action['train']} price:{action['price']}"
    if kind == "discard_train":
        return f"/discard train:{action['train']}"
    if kind == "bankrupt":
        return "/bankrupt"
    RAW_ONLY.add(kind)
    return "/action json:" + json.dumps({k: v for k, v in action.items() if k not in ("id", "created_at")})


def _city_hex(state: BaseGame, city: str) -> str:
    """The hex when it has one city, else the city id as the position names it."""
    from engine.core.track import find_city

    coord, index = find_city(state, city)
    if len(state.board.hexes[coord].tokens) == 1:
        return coord
    return city


def live_action(action: dict[str, Any]) -> dict[str, Any]:
    """The action as the moderator sends it: no auto_actions, runs without logged revenue."""
    clean = {k: v for k, v in action.items() if k != "auto_actions"}
    if clean["type"] == "run_routes":
        clean["routes"] = [{"train": r["train"], "connections": r["connections"]} for r in clean["routes"]]
    return clean


def script(path: Path) -> tuple[list[str], dict[str, Any], dict[str, int]]:
    """(command lines, the document, the final scores by player name in live play)."""
    document = json.loads(path.read_text())
    players = document["players"]
    game = new_game(document["title"], players, int(document["settings"]["seed"]), ["site_rules"])
    lines: list[str] = []
    for action in document["actions"]:
        for step in [action] + list(action.get("auto_actions") or []):
            words = typed_command(game.state, step)
            if words is not None:
                lines.append(f"@{decider(game.state, step)} {words}")
            follow(game, live_action(step))
    assert game.finished
    names = {str(p["id"]): p["name"] for p in players}
    return lines, document, {names[key]: value for key, value in game.result().items()}
